import { errorField, log } from "~/lib/log.server";
import { sql } from "kysely";
import { writeTransaction, type DB } from "~/db/database.server";
import type { DifferenceKind } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { enqueueJob } from "~/lib/jobs.server";
import { reconcilerGraceMs, type PlatformAddresses } from "./attempts.server";
import {
  gatewayNameParam,
  isReachable,
  listMerchantGateways,
  toGatewayConfig,
  type GatewayRow,
} from "./gateway-settings.server";
import type { GatewayConfig, GatewayOutcome, SettlementEntry } from "./gateways/gateway";
import { adapterFor, GATEWAY_KINDS, gatewayKind, isGatewayKind } from "./gateways/registry";
import type { Actor } from "~/domain/identity/permissions";
import { operationGraceMs, settleOperationByHand } from "./operations.server";

/**
 * The reconciliation report: what each gateway says it took and gave back, compared with the
 * platform's books. The reconciler (reconciler.server.ts) settles what it can on its own; this
 * lists whatever still differs, for a person to see (decision 0013).
 */
export const COMPARE_BOOKS_JOB = "compare_books";
export const COMPARE_BOOKS_EVERY_MS = 24 * 3_600_000;
/** How far back a comparison looks: the last two days, so yesterday is compared whole whenever the daily run falls. */
const WINDOW_MS = 2 * 24 * 3_600_000;
/** A gateway's own timestamps may run a little ahead of or behind ours. */
const CLOCK_SLACK_MS = 10 * 60_000;

export type FoundDifference = {
  merchantId: number;
  gatewayCode: string;
  kind: DifferenceKind;
  reference: string;
  transactionId?: string | null;
  attemptId?: string | null;
  operationId?: number | null;
  platformAmount?: number | null;
  gatewayAmount?: number | null;
  currency?: string | null;
};

type PlatformAttempt = {
  id: string;
  transaction_id: string;
  state: string;
  total: number;
  currency_code: string;
  track_id: string;
  payment_id: string | null;
  gateway_reference: string | null;
  gateway_kind: string;
  created_at: string;
  lang: string;
  authorized_only: number;
};

type PlatformOperation = {
  id: number;
  attempt_id: string | null;
  transaction_id: string;
  kind: string;
  state: string;
  amount: number;
  currency_code: string;
  reference: string | null;
};

/** What one gateway's comparison saw: the references it checked (to close what is no longer found) and what differs. */
type GatewayComparison = { checked: Set<string>; found: FoundDifference[]; complete: boolean };

const CAPTURED = new Set(["success"]);

async function attemptsOf(db: DB, gateway: GatewayRow, range: { from: string; to: string }) {
  return (
    db
      .selectFrom("payment_attempts")
      .select([
        "id",
        "transaction_id",
        "state",
        "total",
        "currency_code",
        "track_id",
        "payment_id",
        "gateway_reference",
        "gateway_kind",
        "created_at",
        "lang",
        "authorized_only",
      ])
      .where("merchant_id", "=", gateway.merchant_id)
      .where("gateway_code", "=", gateway.code)
      // Made through this gateway as it is now: attempts of a kind it no longer speaks (the old card gateway's) are history.
      .where("gateway_kind", "=", gateway.kind)
      .where("created_at", ">=", range.from)
      .where("created_at", "<", range.to)
      .execute() as Promise<PlatformAttempt[]>
  );
}

/** The refunds, captures and voids of these attempts, whatever became of them (an operation older than its attempt column counts against the transaction's paid attempt). */
async function operationsOf(db: DB, attempts: PlatformAttempt[]): Promise<PlatformOperation[]> {
  if (attempts.length === 0) return [];
  const rows: PlatformOperation[] = [];
  const ids = attempts.map((attempt) => attempt.id);
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    rows.push(
      ...(await db
        .selectFrom("transaction_operations as o")
        .innerJoin("transactions as t", "t.id", "o.transaction_id")
        .select(["o.id", "o.transaction_id", "o.kind", "o.state", "o.amount", "o.currency_code", "o.reference"])
        .select(sql<string | null>`coalesce(o.attempt_id, t.paid_attempt_id)`.as("attempt_id"))
        .where(sql<string>`coalesce(o.attempt_id, t.paid_attempt_id)`, "in", chunk)
        .execute()),
    );
  }
  return rows;
}

/** What the platform's books say of one attempt: voided, the amount the gateway should hold, refunded, and refunds still being sent. */
function booksOf(operations: PlatformOperation[], attempt: PlatformAttempt) {
  const own = operations.filter((operation) => operation.attempt_id === attempt.id);
  const sum = (kind: string, states: string[]) =>
    own
      .filter((operation) => operation.kind === kind && states.includes(operation.state))
      .reduce((total, operation) => total + operation.amount, 0);
  const captured = sum("capture", ["succeeded"]);
  return {
    voided: own.some((operation) => operation.kind === "void" && operation.state === "succeeded"),
    // An authorization captured in part holds what was captured; one not captured yet, what was authorized.
    held: attempt.authorized_only && captured > 0 ? captured : attempt.total,
    refunded: sum("refund", ["succeeded"]),
    refunding: sum("refund", ["pending", "attention"]),
  };
}

/**
 * What can be compared without the gateway's books: operations still waiting for an answer past
 * their grace (or left for a person), attempts still pending past their gateway's session.
 */
async function unresolvedOf(db: DB, gateway: GatewayRow): Promise<FoundDifference[]> {
  const operations = await db
    .selectFrom("transaction_operations")
    .select(["id", "transaction_id", "attempt_id", "amount", "currency_code", "reference", "state", "created_at"])
    .where("merchant_id", "=", gateway.merchant_id)
    .where("gateway_code", "=", gateway.code)
    .where("state", "in", ["pending", "attention"])
    .where("created_at", "<", addMs(now(), -operationGraceMs()).toISOString())
    .execute();
  const minutes = isGatewayKind(gateway.kind) ? (GATEWAY_KINDS[gateway.kind].sessionMinutes ?? 0) : 0;
  const attempts = await db
    .selectFrom("payment_attempts")
    .select(["id", "transaction_id", "total", "currency_code", "track_id"])
    .where("merchant_id", "=", gateway.merchant_id)
    .where("gateway_code", "=", gateway.code)
    .where("state", "=", "pending")
    .where("created_at", "<", addMs(now(), -(minutes * 60_000 + reconcilerGraceMs())).toISOString())
    .execute();
  return [
    ...operations.map((operation) => ({
      merchantId: gateway.merchant_id,
      gatewayCode: gateway.code,
      kind: "operation_unresolved" as const,
      reference: operation.reference ?? `operation-${operation.id}`,
      transactionId: operation.transaction_id,
      attemptId: operation.attempt_id,
      operationId: operation.id,
      platformAmount: operation.amount,
      currency: operation.currency_code,
    })),
    ...attempts.map((attempt) => ({
      merchantId: gateway.merchant_id,
      gatewayCode: gateway.code,
      kind: "attempt_unresolved" as const,
      reference: attempt.track_id,
      transactionId: attempt.transaction_id,
      attemptId: attempt.id,
      platformAmount: attempt.total,
      currency: attempt.currency_code,
    })),
  ];
}

const differenceOf = (
  gateway: GatewayRow,
  kind: DifferenceKind,
  attempt: PlatformAttempt | undefined,
  fields: Partial<FoundDifference> & { reference: string },
): FoundDifference => ({
  merchantId: gateway.merchant_id,
  gatewayCode: gateway.code,
  kind,
  transactionId: attempt?.transaction_id ?? null,
  attemptId: attempt?.id ?? null,
  currency: attempt?.currency_code ?? null,
  ...fields,
});

/** The payments a gateway lists in its settlement report, set against the attempts and refunds the platform recorded. */
async function compareWithSettlements(
  db: DB,
  gateway: GatewayRow,
  entries: SettlementEntry[],
  attempts: PlatformAttempt[],
  before: string,
): Promise<GatewayComparison> {
  const found: FoundDifference[] = [];
  const checked = new Set<string>();
  const byTrack = new Map(attempts.map((attempt) => [attempt.track_id, attempt]));
  const operations = await operationsOf(db, attempts);
  const listed = new Set<string>();
  for (const entry of entries) {
    if (entry.status === "other" && entry.refunded === 0) continue;
    listed.add(entry.reference);
    // A payment created just before the window opened is still ours: looked up by its track id.
    const attempt =
      byTrack.get(entry.reference) ??
      ((await db
        .selectFrom("payment_attempts")
        .select([
          "id",
          "transaction_id",
          "state",
          "total",
          "currency_code",
          "track_id",
          "payment_id",
          "gateway_reference",
          "gateway_kind",
          "created_at",
          "lang",
          "authorized_only",
        ])
        .where("merchant_id", "=", gateway.merchant_id)
        .where("track_id", "=", entry.reference)
        .executeTakeFirst()) as PlatformAttempt | undefined);
    // One still in flight (younger than the reconciler's grace) is not compared yet.
    if ((attempt?.created_at ?? entry.createdAt) >= before) continue;
    checked.add(entry.reference);
    if (!attempt || !CAPTURED.has(attempt.state)) {
      if (entry.status !== "other")
        found.push(
          differenceOf(gateway, "missing_payment", attempt, {
            reference: entry.reference,
            gatewayAmount: entry.amount,
            platformAmount: 0,
            currency: entry.currency,
          }),
        );
      continue;
    }
    const books = booksOf(byTrack.has(entry.reference) ? operations : await operationsOf(db, [attempt]), attempt);
    if (entry.status !== "other" && entry.amount !== books.held) {
      found.push(
        differenceOf(gateway, "amount_mismatch", attempt, {
          reference: entry.reference,
          gatewayAmount: entry.amount,
          platformAmount: books.held,
        }),
      );
    }
    // A refund still being sent may already be at the gateway: not a difference until the reconciler has settled it.
    if (entry.refunded > books.refunded + books.refunding)
      found.push(
        differenceOf(gateway, "unknown_refund", attempt, {
          reference: entry.reference,
          gatewayAmount: entry.refunded,
          platformAmount: books.refunded,
        }),
      );
    if (entry.refunded < books.refunded)
      found.push(
        differenceOf(gateway, "missing_refund", attempt, {
          reference: entry.reference,
          gatewayAmount: entry.refunded,
          platformAmount: books.refunded,
        }),
      );
  }
  for (const attempt of attempts) {
    checked.add(attempt.track_id);
    // A voided authorization is in neither side's money.
    if (CAPTURED.has(attempt.state) && !listed.has(attempt.track_id) && !booksOf(operations, attempt).voided) {
      found.push(
        differenceOf(gateway, "unknown_payment", attempt, {
          reference: attempt.track_id,
          platformAmount: attempt.total,
          gatewayAmount: 0,
        }),
      );
    }
  }
  return { checked, found, complete: true };
}

/** Without a settlement report (KNET): each attempt is asked about, and each refund by its own reference. */
async function compareByInquiry(
  db: DB,
  gateway: GatewayRow,
  config: GatewayConfig,
  attempts: PlatformAttempt[],
): Promise<GatewayComparison> {
  const adapter = adapterFor(gateway.kind);
  const found: FoundDifference[] = [];
  const checked = new Set<string>();
  const operations = await operationsOf(db, attempts);
  const refunds = operations.filter((operation) => operation.kind === "refund");
  let complete = true;
  for (const attempt of attempts) {
    let outcome: GatewayOutcome;
    try {
      outcome = await adapter.inquire(config, {
        id: attempt.id,
        trackId: attempt.track_id,
        total: attempt.total,
        currency: attempt.currency_code,
        lang: attempt.lang === "ar" ? "ar" : "en",
        gatewayReference: attempt.gateway_reference,
      });
    } catch {
      complete = false;
      continue;
    }
    checked.add(attempt.track_id);
    const captured = outcome.status === "success" || outcome.status === "authorized";
    const books = booksOf(operations, attempt);
    const recorded = CAPTURED.has(attempt.state) && !books.voided;
    if (captured && !recorded)
      found.push(
        differenceOf(gateway, "missing_payment", attempt, {
          reference: attempt.track_id,
          gatewayAmount: outcome.amount ?? attempt.total,
          platformAmount: 0,
        }),
      );
    if (!captured && recorded)
      found.push(
        differenceOf(gateway, "unknown_payment", attempt, {
          reference: attempt.track_id,
          platformAmount: books.held,
          gatewayAmount: 0,
        }),
      );
    if (captured && recorded && outcome.amount !== undefined && outcome.amount !== books.held) {
      found.push(
        differenceOf(gateway, "amount_mismatch", attempt, {
          reference: attempt.track_id,
          gatewayAmount: outcome.amount,
          platformAmount: books.held,
        }),
      );
    }
  }
  for (const refund of refunds) {
    if (!refund.reference || refund.state === "pending" || refund.state === "attention") continue;
    const attempt = attempts.find((candidate) => candidate.id === refund.attempt_id);
    let answer;
    try {
      answer = await adapter.inquireOperation(
        config,
        {
          gatewayReference: attempt?.gateway_reference ?? null,
          trackId: attempt?.track_id ?? "",
          paymentId: attempt?.payment_id ?? null,
        },
        { kind: "refund", amount: refund.amount, reference: refund.reference },
      );
    } catch {
      complete = false;
      continue;
    }
    checked.add(refund.reference);
    const atGateway = answer.status === "succeeded";
    const fields = { reference: refund.reference, operationId: refund.id, currency: refund.currency_code };
    if (refund.state === "succeeded" && !atGateway)
      found.push(
        differenceOf(gateway, "missing_refund", attempt, {
          ...fields,
          platformAmount: refund.amount,
          gatewayAmount: 0,
        }),
      );
    if (refund.state !== "succeeded" && atGateway)
      found.push(
        differenceOf(gateway, "unknown_refund", attempt, {
          ...fields,
          platformAmount: 0,
          gatewayAmount: refund.amount,
        }),
      );
  }
  return { checked, found, complete };
}

/** Keeps one open row per difference: a new one is added, one seen again is touched. Answers whether it is new. */
async function keepDifference(db: DB, difference: FoundDifference, seenAt: string) {
  const open = await db
    .selectFrom("reconciliation_differences")
    .select("id")
    .where("merchant_id", "=", difference.merchantId)
    .where("gateway_code", "=", difference.gatewayCode)
    .where("kind", "=", difference.kind)
    .where("reference", "=", difference.reference)
    .where("resolved_at", "is", null)
    .executeTakeFirst();
  const amounts = {
    platform_amount: difference.platformAmount ?? null,
    gateway_amount: difference.gatewayAmount ?? null,
    last_seen_at: seenAt,
  };
  if (!open && difference.kind !== "operation_unresolved" && difference.kind !== "attempt_unresolved") {
    // A person resolved this very difference (the bank refunded by hand, say): it is not raised again
    // while the amounts stay as they were when it was resolved.
    const settled = await db
      .selectFrom("reconciliation_differences")
      .select("id")
      .where("merchant_id", "=", difference.merchantId)
      .where("gateway_code", "=", difference.gatewayCode)
      .where("kind", "=", difference.kind)
      .where("reference", "=", difference.reference)
      .where("resolved_by", "!=", "auto")
      .where((eb) =>
        amounts.platform_amount === null
          ? eb("platform_amount", "is", null)
          : eb("platform_amount", "=", amounts.platform_amount),
      )
      .where((eb) =>
        amounts.gateway_amount === null
          ? eb("gateway_amount", "is", null)
          : eb("gateway_amount", "=", amounts.gateway_amount),
      )
      .executeTakeFirst();
    if (settled) return false;
  }
  if (open) {
    await db.updateTable("reconciliation_differences").set(amounts).where("id", "=", open.id).execute();
    return false;
  }
  await db
    .insertInto("reconciliation_differences")
    .values({
      merchant_id: difference.merchantId,
      gateway_code: difference.gatewayCode,
      kind: difference.kind,
      reference: difference.reference,
      transaction_id: difference.transactionId ?? null,
      attempt_id: difference.attemptId ?? null,
      operation_id: difference.operationId ?? null,
      currency_code: difference.currency ?? null,
      first_seen_at: seenAt,
      resolved_at: null,
      resolved_by: null,
      note: null,
      ...amounts,
    })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return true;
}

export type ComparisonRun = { checked: number; found: number; resolved: number; failedGateways: string[] };

/**
 * Compares every merchant's gateway books with the platform's over the last two days (to now less
 * the reconciler's grace, so nothing still in flight is flagged), records each difference once,
 * and closes those a comparison no longer finds. A gateway that cannot answer is left as it was.
 */
export async function compareBooks(
  db: DB,
  addresses: PlatformAddresses,
  options: { merchantId?: number } = {},
): Promise<ComparisonRun> {
  const startedAt = nowIso();
  const to = addMs(now(), -reconcilerGraceMs());
  const range = { from: addMs(to, -WINDOW_MS).toISOString(), to: to.toISOString() };
  let merchants = db.selectFrom("merchants").select("id");
  if (options.merchantId !== undefined) merchants = merchants.where("id", "=", options.merchantId);
  const totals = { checked: 0, found: 0, resolved: 0 };
  const failedGateways: string[] = [];
  for (const merchant of await merchants.execute()) {
    const run = await db
      .insertInto("reconciliation_runs")
      .values({
        merchant_id: merchant.id,
        started_at: startedAt,
        finished_at: null,
        day: startedAt.slice(0, 10),
        error: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const mine = { checked: 0, found: 0, resolved: 0 };
    const myFailures: string[] = [];
    for (const gateway of await listMerchantGateways(db, merchant.id)) {
      if (!isGatewayKind(gateway.kind) || gatewayKind(gateway.kind).settings.offline || !isReachable(gateway)) continue;
      const config = toGatewayConfig(gateway, addresses);
      const adapter = adapterFor(gateway.kind);
      const attempts = await attemptsOf(db, gateway, range);
      let comparison: GatewayComparison;
      try {
        comparison = adapter.listSettlements
          ? await compareWithSettlements(
              db,
              gateway,
              await adapter.listSettlements(config, {
                from: addMs(new Date(range.from), -CLOCK_SLACK_MS).toISOString(),
                to: addMs(now(), CLOCK_SLACK_MS).toISOString(),
              }),
              attempts,
              range.to,
            )
          : await compareByInquiry(db, gateway, config, attempts);
      } catch (error) {
        // Its books cannot be read now; what needs no answer from it (operations and attempts left unanswered) is still listed.
        log.warn(
          { gateway: gateway.code, merchant_id: merchant.id, error: errorField(error) },
          "reconciliation: a gateway could not be compared",
        );
        comparison = { checked: new Set(), found: [], complete: false };
      }
      const unresolved = await unresolvedOf(db, gateway);
      const found = [...comparison.found, ...unresolved];
      for (const difference of found) if (await keepDifference(db, difference, startedAt)) mine.found += 1;
      mine.checked += comparison.checked.size;
      if (!comparison.complete) myFailures.push(gateway.code);
      // What this comparison looked at and no longer found is closed; what it could not look at stays open.
      const stillOpen = new Set(found.map((difference) => `${difference.kind}\n${difference.reference}`));
      const open = await db
        .selectFrom("reconciliation_differences")
        .select(["id", "kind", "reference"])
        .where("merchant_id", "=", merchant.id)
        .where("gateway_code", "=", gateway.code)
        .where("resolved_at", "is", null)
        .execute();
      const gone = open.filter(
        (row) =>
          !stillOpen.has(`${row.kind}\n${row.reference}`) &&
          (row.kind === "operation_unresolved" ||
            row.kind === "attempt_unresolved" ||
            comparison.checked.has(row.reference)),
      );
      if (gone.length) {
        await db
          .updateTable("reconciliation_differences")
          .set({ resolved_at: startedAt, resolved_by: "auto" })
          .where(
            "id",
            "in",
            gone.map((row) => row.id),
          )
          .where("resolved_at", "is", null)
          .execute();
        mine.resolved += gone.length;
      }
    }
    await db
      .updateTable("reconciliation_runs")
      .set({
        finished_at: nowIso(),
        ...mine,
        error: myFailures.length ? `not compared: ${myFailures.join(", ")}` : null,
      })
      .where("id", "=", run.id)
      .execute();
    for (const key of ["checked", "found", "resolved"] as const) totals[key] += mine[key];
    failedGateways.push(...myFailures);
  }
  return { ...totals, failedGateways };
}

/** "Compare now": queues a comparison of this merchant's books; answers false when one that covers them is already waiting or running. */
export async function requestComparison(db: DB, merchantId: number) {
  const waiting = await db
    .selectFrom("jobs")
    .select("id")
    .where("type", "=", COMPARE_BOOKS_JOB)
    .where("status", "in", ["queued", "running"])
    .where("payload", "in", ["{}", JSON.stringify({ merchantId })])
    .executeTakeFirst();
  if (waiting) return false;
  await enqueueJob(db, COMPARE_BOOKS_JOB, { merchantId });
  return true;
}

export async function countOpenDifferences(db: DB, merchantId: number) {
  const row = await db
    .selectFrom("reconciliation_differences")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("merchant_id", "=", merchantId)
    .where("resolved_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listDifferences(
  db: DB,
  merchantId: number,
  options: { resolved: boolean; limit: number; offset: number },
) {
  let query = db
    .selectFrom("reconciliation_differences as d")
    .leftJoin("transactions as t", "t.id", "d.transaction_id")
    .leftJoin("transaction_operations as o", "o.id", "d.operation_id")
    .where("d.merchant_id", "=", merchantId);
  query = options.resolved ? query.where("d.resolved_at", "is not", null) : query.where("d.resolved_at", "is", null);
  const [rows, count] = await Promise.all([
    query
      .select([
        "d.id",
        "d.gateway_code",
        "d.kind",
        "d.reference",
        "d.transaction_id",
        "t.order_no",
        "t.plugin",
        "d.platform_amount",
        "d.gateway_amount",
        "d.currency_code",
        "d.first_seen_at",
        "d.last_seen_at",
        "d.resolved_at",
        "d.resolved_by",
        "d.note",
        "d.operation_id",
        "o.state as operation_state",
      ])
      .orderBy(options.resolved ? "d.resolved_at" : "d.first_seen_at", "desc")
      .orderBy("d.id", "desc")
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.count) };
}

export async function lastComparison(db: DB, merchantId: number) {
  return db
    .selectFrom("reconciliation_runs")
    .select(["started_at", "finished_at", "checked", "found", "resolved", "error"])
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * A person's "Mark resolved", with what they did about it; recorded in the audit log. An operation
 * still waiting for the gateway's answer (or for a person) is not resolved with a note: its money is
 * reserved, so it is settled as done or not done instead (settleOperationByHand).
 */
export async function resolveDifference(
  db: DB,
  input: { merchantId: number; id: number; actor: { id: number; username: string }; note: string; ip?: string | null },
): Promise<"resolved" | "gone" | "settle_instead"> {
  const row = await db
    .selectFrom("reconciliation_differences as d")
    .leftJoin("transaction_operations as o", "o.id", "d.operation_id")
    .select(["d.id", "d.kind", "d.reference", "d.gateway_code", "o.state as operation_state"])
    .where("d.id", "=", input.id)
    .where("d.merchant_id", "=", input.merchantId)
    .where("d.resolved_at", "is", null)
    .executeTakeFirst();
  if (!row) return "gone";
  if (row.kind === "operation_unresolved" && (row.operation_state === "pending" || row.operation_state === "attention"))
    return "settle_instead";
  const done = await writeTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable("reconciliation_differences")
      .set({ resolved_at: nowIso(), resolved_by: input.actor.username, note: input.note })
      .where("id", "=", row.id)
      .where("resolved_at", "is", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "reconciliation_difference_resolved",
      params: {
        reference: row.reference,
        gateway: await gatewayNameParam(trx, input.merchantId, row.gateway_code),
        note: input.note.slice(0, 500),
      },
      objectType: "reconciliation_difference",
      objectId: row.id,
      ip: input.ip ?? null,
    });
    return true;
  });
  return done ? "resolved" : "gone";
}

/**
 * "Done / Not done at the gateway" on an unanswered operation's difference: the operation is
 * settled by the person (operations.server.ts settleOperationByHand: only while it still waits for
 * them) and the difference closes with their note. False: nothing waits for a person any more.
 */
export async function settleDifferenceByHand(
  db: DB,
  input: { merchantId: number; id: number; actor: Actor; done: boolean; note: string },
) {
  const row = await db
    .selectFrom("reconciliation_differences")
    .select("operation_id")
    .where("id", "=", input.id)
    .where("merchant_id", "=", input.merchantId)
    .where("resolved_at", "is", null)
    .executeTakeFirst();
  if (!row?.operation_id) return false;
  if (
    !(await settleOperationByHand(db, {
      merchantId: input.merchantId,
      operationId: row.operation_id,
      actor: input.actor,
      done: input.done,
      note: input.note,
    }))
  )
    return false;
  await db
    .updateTable("reconciliation_differences")
    .set({ resolved_at: nowIso(), resolved_by: input.actor.username, note: input.note })
    .where("id", "=", input.id)
    .where("resolved_at", "is", null)
    .execute();
  return true;
}
