import { describe, expect, it } from "vitest";
import type { DB } from "~/db/database.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import { orderTransitions, paymentChangeOf, type OrderEvent, type PaymentChange } from "./orders.server";

const trx = {} as DB;
const event = (to: TransitionEvent["to"], cause: TransitionEvent["cause"]) =>
  ({ transaction: { id: "t1" }, from: "pending", to, cause }) as unknown as TransitionEvent;

describe("what a transaction's change means for its order", () => {
  it("names a completed payment, a failed attempt, an unpaid end and a payment given back", () => {
    const payment = { kind: "payment", attemptId: "a1" } as const;
    expect(paymentChangeOf(event("paid", payment))).toBe("completed");
    expect(paymentChangeOf(event("authorized", payment))).toBe("completed");
    expect(paymentChangeOf(event("cod", payment))).toBe("completed");
    expect(paymentChangeOf(event("attempted", { kind: "attempt_failed", attemptId: "a1" }))).toBe("attempt_failed");
    for (const to of ["expired", "canceled", "failed", "invalid"] as const)
      expect(paymentChangeOf(event(to, { kind: "expired" }))).toBe("ended");
    expect(paymentChangeOf(event("refunded", { kind: "refund", operationId: 1 }))).toBe("returned");
    expect(paymentChangeOf(event("voided", { kind: "void", operationId: 1 }))).toBe("returned");
    // A capture or a customer opening the link changes nothing an order holds.
    expect(paymentChangeOf(event("paid", { kind: "capture", operationId: 1 }))).toBeNull();
    expect(paymentChangeOf(event("pending", { kind: "opened" }))).toBeNull();
  });
});

describe("the commerce core's onTransition", () => {
  const order = { id: 7, merchant_id: 3 };
  function hook(outcome: OrderEvent | null, found = true) {
    const told: string[] = [];
    const settled: PaymentChange[] = [];
    const onTransition = orderTransitions({
      findByTransaction: async () => (found ? order : undefined),
      settle: async (_trx, _order, change) => {
        settled.push(change);
        return outcome;
      },
      on: {
        "order.confirmed": async (_trx, which) => void told.push(`confirmed ${which.id}`),
        "order.released": async (_trx, which) => void told.push(`released ${which.id}`),
      },
    });
    return { onTransition, told, settled };
  }

  it("tells the section what became of its order, once, after the section settled it", async () => {
    const confirmed = hook("order.confirmed");
    await confirmed.onTransition(trx, event("paid", { kind: "payment", attemptId: "a1" }));
    expect(confirmed.settled).toEqual(["completed"]);
    expect(confirmed.told).toEqual(["confirmed 7"]);
    const released = hook("order.released");
    await released.onTransition(trx, event("expired", { kind: "expired" }));
    expect(released.told).toEqual(["released 7"]);
    const nothing = hook(null);
    await nothing.onTransition(trx, event("paid", { kind: "payment", attemptId: "a1" }));
    expect(nothing.told).toEqual([]);
  });

  it("leaves transactions that pay no order, and changes that mean nothing to one, alone", async () => {
    const orphan = hook("order.confirmed", false);
    await orphan.onTransition(trx, event("paid", { kind: "payment", attemptId: "a1" }));
    expect(orphan.settled).toEqual([]);
    expect(orphan.told).toEqual([]);
    const opened = hook("order.confirmed");
    await opened.onTransition(trx, event("pending", { kind: "opened" }));
    expect(opened.settled).toEqual([]);
  });
});
