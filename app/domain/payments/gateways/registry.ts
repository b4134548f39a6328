import type { OperationKind } from "~/db/schema";
import { codAdapter } from "./cod/cod.server";
import type { GatewayAdapter, GatewayLeg, LegName } from "./gateway";
import { knetAdapter } from "./knet/knet.server";
import { mpgsAdapter } from "./mpgs/mpgs.server";

/** What the platform knows of a kind of gateway: how to talk to it and what it can do. */
export type GatewayKindDefinition = {
  adapter: GatewayAdapter;
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
};

/** Every kind of gateway. Adding one is an entry here and its adapter beside it. */
const KINDS = {
  knet: { adapter: knetAdapter, operations: ["refund"], sandboxPath: "/sandbox/knet", preferredChoice: true, showsTrackId: true, sessionMinutes: 30 },
  mpgs: { adapter: mpgsAdapter, operations: ["refund", "capture", "void"], sandboxPath: "/sandbox/mpgs", sessionMinutes: 60 },
  cod: { adapter: codAdapter, operations: [] },
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

export function adapterFor(kind: string): GatewayAdapter {
  return gatewayKind(kind).adapter;
}

export function gatewaySupports(kind: string, operation: OperationKind) {
  return isGatewayKind(kind) && GATEWAY_KINDS[kind].operations.includes(operation);
}

/** Whether a gateway of this kind takes any refund, capture or void at all. */
export function takesOperations(kind: string) {
  return isGatewayKind(kind) && GATEWAY_KINDS[kind].operations.length > 0;
}

/** The leg of a kind's adapter that answers at `/gateway/<kind>/<leg>/…`, if it has one. */
export function gatewayLeg(kind: string, leg: string): GatewayLeg | undefined {
  if (!isGatewayKind(kind)) return undefined;
  const legs = GATEWAY_KINDS[kind].adapter.legs ?? {};
  return Object.hasOwn(legs, leg) ? legs[leg as LegName] : undefined;
}
