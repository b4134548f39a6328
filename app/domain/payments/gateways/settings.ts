import type { LegName } from "./gateway";

/**
 * What a kind of gateway asks of the merchant who sets one up, as plain data: the administration
 * panel and the API build their forms and their checks from it, and name no gateway themselves.
 * Refusals are translation keys under admin.gateways.errors.
 */
export type CredentialField = {
  /** The name in the API and the form (`credentials.<field>`); its label is admin.gateways.credential.<field>. */
  field: string;
  /** The name the adapter reads in `GatewayConfig.credentials`. */
  key: string;
  required: boolean;
  /** Typed in a password field; every credential is sealed and write-only whether secret or not. */
  secret: boolean;
  /** What the bank's documents say of its length; outside it, `refusal`. */
  minLength?: number;
  maxLength?: number;
  refusal?: string;
  /** A translation key that says where the merchant finds it. */
  hint?: string;
};

export type GatewaySettings = {
  credentials: readonly CredentialField[];
  /** The only currencies the gateway takes (none: any the platform supports), refused with `refusal`. */
  currencies?: { only: readonly string[]; refusal: string };
  /**
   * The platform's addresses the merchant gives the bank, shown for copying: each
   * `<public base URL>/gateway/<kind>/<leg>/`, the attempt's id following it.
   */
  registeredLegs?: readonly LegName[];
  /** Nothing to connect to (cash on delivery): no address, no sandbox, no credentials. */
  offline?: boolean;
};
