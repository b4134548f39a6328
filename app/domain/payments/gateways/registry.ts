import type { OperationKind } from "~/db/schema";
import { codAdapter } from "./cod/cod.server";
import { codSettings } from "./cod/settings";
import type { GatewayAdapter, GatewayLeg, LegName, WalletPayment } from "./gateway";
import { observed } from "./observed";
import { knetAdapter } from "./knet/knet.server";
import { knetSettings } from "./knet/settings";
import { mpgsAdapter } from "./mpgs/mpgs.server";
import { mpgsSettings } from "./mpgs/settings";
import type { GatewaySettings } from "./settings";

/** What the platform knows of a kind of gateway: how to talk to it and what it can do. */
export type GatewayKindDefinition = {
  adapter: GatewayAdapter;
  /** What a merchant enters to set one up: credentials, currencies, the addresses to give the bank. */
  settings: GatewaySettings;
  /** Refunds, captures and voids it takes after a payment. */
  operations: readonly OperationKind[];
  /** The path of this platform's own sandbox of it, used when a gateway has no endpoint of its own. */
  sandboxPath?: string;
  /** Public spec §4: the choice a customer starts with when it is offered (KNET's KPay). */
  preferredChoice?: boolean;
  /** The result page shows our track id as the gateway's Track ID (KNET asks merchants to). */
  showsTrackId?: boolean;
  /**
   * How long a customer may still pay on the gateway's page after the attempt started: the
   * reconciler asks about an attempt, pending or recorded as failed, until then (none: nothing to ask).
   */
  sessionMinutes?: number;
  /** The wallets its customers may pay with on the pay page; offered only when its adapter has payWithWallet (decision 0039). */
  wallets?: readonly WalletProvider[];
  /**
   * How Google Pay names this gateway in a payment request's tokenization (`gateway`), and which of
   * a merchant's credentials is the merchant's id at the gateway (`gatewayMerchantId`).
   */
  googlePay?: { gateway: string; merchantIdCredential: string };
};

export type WalletProvider = WalletPayment["provider"];

/** Every kind of gateway. Adding one is an entry here and its adapter beside it. */
const KINDS = {
  knet: {
    adapter: knetAdapter,
    settings: knetSettings,
    operations: ["refund"],
    sandboxPath: "/sandbox/knet",
    preferredChoice: true,
    showsTrackId: true,
    sessionMinutes: 30,
  },
  mpgs: {
    adapter: mpgsAdapter,
    settings: mpgsSettings,
    operations: ["refund", "capture", "void"],
    sandboxPath: "/sandbox/mpgs",
    sessionMinutes: 60,
    wallets: ["apple_pay", "google_pay"],
    googlePay: { gateway: "mpgs", merchantIdCredential: "merchantId" },
  },
  cod: { adapter: codAdapter, settings: codSettings, operations: [] },
} as const satisfies Record<string, GatewayKindDefinition>;

export type GatewayKind = keyof typeof KINDS;

export const GATEWAY_KINDS: Readonly<Record<GatewayKind, GatewayKindDefinition>> = KINDS;

export function isGatewayKind(value: string): value is GatewayKind {
  return Object.hasOwn(GATEWAY_KINDS, value);
}

export function gatewayKind(kind: string): GatewayKindDefinition {
  if (!isGatewayKind(kind)) throw new Error(`Unknown gateway kind ${kind}`);
  return GATEWAY_KINDS[kind];
}

const observedAdapters = new Map<string, GatewayAdapter>();

/** The kind's adapter, its calls to the gateway timed, counted and logged. */
export function adapterFor(kind: string): GatewayAdapter {
  const definition = gatewayKind(kind);
  let adapter = observedAdapters.get(kind);
  if (!adapter) observedAdapters.set(kind, (adapter = observed(kind, definition.adapter)));
  return adapter;
}

export function gatewaySupports(kind: string, operation: OperationKind) {
  return isGatewayKind(kind) && GATEWAY_KINDS[kind].operations.includes(operation);
}

/** Whether a gateway of this kind takes any refund, capture or void at all. */
export function takesOperations(kind: string) {
  return isGatewayKind(kind) && GATEWAY_KINDS[kind].operations.length > 0;
}

/** The wallets a kind of gateway takes: those its entry offers, when its adapter can pay with a wallet's token. */
export function walletsOf(kind: string): readonly WalletProvider[] {
  if (!isGatewayKind(kind)) return [];
  const definition: GatewayKindDefinition = GATEWAY_KINDS[kind];
  if (!definition.adapter.payWithWallet) return [];
  // Google Pay also needs to know the gateway's name in Google's tokenization.
  return (definition.wallets ?? []).filter((wallet) => wallet !== "google_pay" || definition.googlePay);
}

/** The leg of a kind's adapter that answers at `/gateway/<kind>/<leg>/…`, if it has one. */
export function gatewayLeg(kind: string, leg: string): GatewayLeg | undefined {
  if (!isGatewayKind(kind)) return undefined;
  const legs = GATEWAY_KINDS[kind].adapter.legs ?? {};
  return Object.hasOwn(legs, leg) ? legs[leg as LegName] : undefined;
}
