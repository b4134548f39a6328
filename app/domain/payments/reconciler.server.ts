import type { DB } from "~/db/database.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import {
  completeAttempt,
  findAttempt,
  reconcilerGraceMs,
  settleByInquiry,
  type PlatformAddresses,
} from "./attempts.server";
import { GATEWAY_KINDS, isGatewayKind } from "./gateways/registry";
import { dueOperations, settlePendingOperation } from "./operations.server";

/** The reconciler's job, queued every RECONCILE_EVERY_MS by the worker's schedule (app/boot). */
export const RECONCILE_JOB = "reconcile_payments";
export const RECONCILE_EVERY_MS = 15_000;

/** Attempts that may still change: waiting for their gateway, or recorded as failed while a capture may follow. */
const OPEN_ATTEMPT_STATES = ["pending", "failed", "canceled", "error"] as const;

/** How long after the previous inquiry the reconciler asks again: 1, 2, 4, 8, then every 15 minutes. */
function nextInquiryDelay(inquiries: number) {
  return Math.min(2 ** Math.max(0, inquiries - 1) * 60_000, 15 * 60_000);
}

function sessionEndOf(attempt: { gateway_kind: string; created_at: string }) {
  const minutes = isGatewayKind(attempt.gateway_kind) ? (GATEWAY_KINDS[attempt.gateway_kind].sessionMinutes ?? 0) : 0;
  return Date.parse(attempt.created_at) + minutes * 60_000;
}

/**
 * One attempt the reconciler is due to ask about. A pending one is settled by the gateway's answer;
 * once its gateway session is over and the gateway still has nothing, it ends as an error
 * (TIMEOUT) — a capture that still came would win over it. One recorded as failed or canceled is
 * asked whether a capture followed (another tab of the gateway's page).
 */
export async function settleDueAttempt(db: DB, attemptId: string, addresses: PlatformAddresses) {
  const attempt = await findAttempt(db, attemptId);
  if (!attempt || !(OPEN_ATTEMPT_STATES as readonly string[]).includes(attempt.state)) return "settled";
  const settled = await settleByInquiry(db, attempt, addresses, { late: attempt.state !== "pending" });
  if (settled.state === "success" || settled.state === "cod") return "settled";
  const row = await db
    .selectFrom("payment_attempts")
    .select(["inquiries", "created_at", "gateway_kind", "state"])
    .where("id", "=", attemptId)
    .executeTakeFirstOrThrow();
  const inquiries = row.inquiries + 1;
  const sessionOver = now().getTime() >= sessionEndOf(row) + reconcilerGraceMs();
  if (row.state === "pending" && sessionOver) {
    await completeAttempt(db, attemptId, { status: "error", refs: { resultCode: "TIMEOUT" } });
  }
  const next = sessionOver ? null : addMs(now(), nextInquiryDelay(inquiries)).toISOString();
  await db
    .updateTable("payment_attempts")
    .set({ inquiries, next_inquiry_at: next })
    .where("id", "=", attemptId)
    .execute();
  return row.state === "pending" && !sessionOver ? "waiting" : "closed";
}

/** Attempts due for an inquiry, oldest first. */
async function dueAttempts(db: DB, limit: number) {
  return db
    .selectFrom("payment_attempts")
    .select("id")
    .where("state", "in", OPEN_ATTEMPT_STATES)
    .where("next_inquiry_at", "<=", nowIso())
    .orderBy("next_inquiry_at")
    .limit(limit)
    .execute();
}

export type ReconcilerPass = { operations: Record<string, number>; attempts: Record<string, number> };

/**
 * The reconciler: settles the refunds, captures and voids left pending (a crash between reserving
 * and recording, a gateway that did not answer) by asking the gateway about each by its reference,
 * and asks about payment attempts nobody has heard of (a notification lost, a customer who never
 * came back). Safe to run in several workers at once: every outcome is written once.
 */
export async function reconcilePayments(
  db: DB,
  addresses: PlatformAddresses,
  options: { limit?: number } = {},
): Promise<ReconcilerPass> {
  const limit = options.limit ?? 100;
  const pass: ReconcilerPass = { operations: {}, attempts: {} };
  for (const { id } of await dueOperations(db, limit)) {
    const outcome = await settlePendingOperation(db, id, addresses);
    pass.operations[outcome] = (pass.operations[outcome] ?? 0) + 1;
  }
  for (const { id } of await dueAttempts(db, limit)) {
    const outcome = await settleDueAttempt(db, id, addresses);
    pass.attempts[outcome] = (pass.attempts[outcome] ?? 0) + 1;
  }
  return pass;
}
