import type { TransactionState } from "~/db/schema";

/** Every state of a transaction (DESIGN §6); each set below is defined here and only here. */
export const TRANSACTION_STATES: readonly TransactionState[] = [
  "created",
  "pending",
  "attempted",
  "authorized",
  "paid",
  "cod",
  "failed",
  "canceled",
  "expired",
  "invalid",
  "refunded",
  "voided",
];

/** A customer may still pay. */
export const PAYABLE_STATES: readonly TransactionState[] = ["created", "pending", "attempted"];

/** The customer has paid, been authorized, or chosen cash on delivery: nothing is left to pay. */
export const SETTLED_STATES: readonly TransactionState[] = ["paid", "authorized", "cod"];

/** A payment went through at some point, so there is a receipt (and a green QR frame) even after a full refund. */
export const RECEIPTED_STATES: readonly TransactionState[] = [...SETTLED_STATES, "refunded"];

/** Never paid: these may be deleted from the list (and restored). */
export const DELETABLE_STATES: readonly TransactionState[] = [
  "created",
  "pending",
  "attempted",
  "failed",
  "canceled",
  "expired",
  "invalid",
];

/** Why a transaction changes state (the cause's kind; transaction-state.server.ts carries the rest). */
export type TransitionKind =
  "opened" | "payment" | "attempt_failed" | "capture" | "void" | "refund" | "expired" | "canceled";

const BY_CUSTOMER = {
  attempted: ["attempt_failed"],
  authorized: ["payment"],
  paid: ["payment"],
  cod: ["payment"],
  canceled: ["canceled"],
  expired: ["expired"],
} as const;

/**
 * The changes of state the platform makes, from → to, and what may cause each; transitionTransaction
 * refuses any other. An expired or canceled link still takes a payment the customer started before
 * (the gateway took the money: a fact); an authorization becomes paid only by a capture.
 */
export const TRANSITIONS: Readonly<
  Record<TransactionState, Partial<Record<TransactionState, readonly TransitionKind[]>>>
> = {
  created: { pending: ["opened"], ...BY_CUSTOMER },
  pending: BY_CUSTOMER,
  attempted: {
    authorized: ["payment"],
    paid: ["payment"],
    cod: ["payment"],
    canceled: ["canceled"],
    expired: ["expired"],
  },
  expired: { authorized: ["payment"], paid: ["payment"], cod: ["payment"] },
  authorized: { paid: ["capture"], voided: ["void"] },
  paid: { refunded: ["refund"] },
  cod: {},
  failed: {},
  canceled: { authorized: ["payment"], paid: ["payment"] },
  invalid: {},
  refunded: {},
  voided: {},
};

export function allowsTransition(from: TransactionState, to: TransactionState, kind: TransitionKind): boolean {
  return TRANSITIONS[from][to]?.includes(kind) ?? false;
}
