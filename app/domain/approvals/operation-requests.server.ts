import type { DB } from "~/db/database.server";
import type { OperationKind, RequestState } from "~/db/schema";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import type { Actor } from "~/domain/identity/permissions";
import { expireOperationRequests, OPERATION_PERMISSIONS } from "~/domain/payments/operations.server";
import { nowIso } from "~/lib/clock.server";
import type { RequestFilters } from "./request-filters";

export const OPERATION_KINDS: readonly OperationKind[] = ["refund", "capture", "void"];
export type RequestDecision = "approve" | "reject" | "cancel";
export const REQUEST_DECISIONS: readonly RequestDecision[] = ["approve", "reject", "cancel"];

export function isRequestDecision(value: unknown): value is RequestDecision {
  return (REQUEST_DECISIONS as readonly unknown[]).includes(value);
}

/**
 * Who sees which Operations Requests: checkers (approve_operations) all of the merchant's; a maker
 * (anyone who may refund, capture or void) only their own, so they can follow and cancel them.
 */
export function operationRequestScope(user: PermissionHolder): "all" | "own" | null {
  if (can(user, "approve_operations")) return "all";
  if (Object.values(OPERATION_PERMISSIONS).some((permission) => can(user, permission))) return "own";
  return null;
}

const COLUMNS = [
  "operation_requests.id",
  "operation_requests.transaction_id",
  "operation_requests.kind",
  "operation_requests.amount",
  "operation_requests.currency_code",
  "operation_requests.gateway_code",
  "operation_requests.state",
  "operation_requests.maker_id",
  "operation_requests.maker_name",
  "operation_requests.checker_id",
  "operation_requests.checker_name",
  "operation_requests.result_message",
  "operation_requests.result",
  "operation_requests.created_at",
  "operation_requests.expires_at",
  "operation_requests.decided_at",
  "operation_requests.note",
  "transactions.order_no",
  "transactions.paid_amount",
  "transactions.refunded_amount",
  "transactions.customer_first_name",
  "transactions.customer_last_name",
  "transactions.customer_phone",
  "transactions.plugin",
  "transactions.customer_email",
  "transactions.state as transaction_state",
  "gateways.name_en as gateway_name_en",
  "gateways.name_ar as gateway_name_ar",
] as const;

function visible(db: DB, merchantId: number, viewer: Actor) {
  let query = db
    .selectFrom("operation_requests")
    .innerJoin("transactions", "transactions.id", "operation_requests.transaction_id")
    .leftJoin("gateways", (join) =>
      join
        .onRef("gateways.code", "=", "operation_requests.gateway_code")
        .onRef("gateways.merchant_id", "=", "operation_requests.merchant_id"),
    )
    .where("operation_requests.merchant_id", "=", merchantId);
  if (operationRequestScope(viewer) !== "all") query = query.where("operation_requests.maker_id", "=", viewer.id);
  return query;
}

export type OperationRequestRow = NonNullable<Awaited<ReturnType<typeof findOperationRequest>>>;

/** A page of the merchant's requests, newest first, after marking stale pending ones expired. */
export async function listOperationRequests(
  db: DB,
  input: { merchantId: number; viewer: Actor; filters: RequestFilters; page: number; perPage: number },
) {
  await expireOperationRequests(db, input.merchantId);
  let query = visible(db, input.merchantId, input.viewer);
  const { filters } = input;
  if (filters.state) query = query.where("operation_requests.state", "in", filters.state);
  if (filters.type) query = query.where("operation_requests.kind", "in", filters.type as OperationKind[]);
  if (filters.gateway_code) query = query.where("operation_requests.gateway_code", "in", filters.gateway_code);
  if (filters.currency_code) query = query.where("operation_requests.currency_code", "in", filters.currency_code);
  if (filters.created_after) query = query.where("operation_requests.created_at", ">=", filters.created_after);
  if (filters.created_before) query = query.where("operation_requests.created_at", "<=", filters.created_before);
  const [rows, total] = await Promise.all([
    query
      .select(COLUMNS)
      .orderBy("operation_requests.created_at", "desc")
      .orderBy("operation_requests.id", "desc")
      .limit(input.perPage)
      .offset((input.page - 1) * input.perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

/** One request of the merchant that the viewer may see; undefined otherwise (another merchant's answers as missing). */
export async function findOperationRequest(db: DB, merchantId: number, viewer: Actor, requestId: number) {
  if (!Number.isSafeInteger(requestId) || requestId <= 0) return undefined;
  await expireOperationRequests(db, merchantId);
  return visible(db, merchantId, viewer)
    .select(COLUMNS)
    .where("operation_requests.id", "=", requestId)
    .executeTakeFirst();
}

/** Pending requests the viewer may act on or follow; ones past their time do not count. */
export async function countPendingOperationRequests(db: DB, merchantId: number, viewer: Actor) {
  let query = db
    .selectFrom("operation_requests")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("merchant_id", "=", merchantId)
    .where("state", "=", "pending")
    .where("expires_at", ">", nowIso());
  if (operationRequestScope(viewer) !== "all") query = query.where("maker_id", "=", viewer.id);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/** The requests still waiting for approval on one transaction that the viewer may see (its details page says so). */
export async function pendingOperationRequestsOf(db: DB, merchantId: number, viewer: Actor, transactionId: string) {
  if (!operationRequestScope(viewer)) return [];
  return visible(db, merchantId, viewer)
    .select([
      "operation_requests.id",
      "operation_requests.kind",
      "operation_requests.amount",
      "operation_requests.currency_code",
      "operation_requests.maker_name",
    ])
    .where("operation_requests.transaction_id", "=", transactionId)
    .where("operation_requests.state", "=", "pending")
    .where("operation_requests.expires_at", ">", nowIso())
    .orderBy("operation_requests.id")
    .execute();
}

/** What the viewer may do with a request now: a checker approves or rejects another's; the maker cancels their own. */
export function operationRequestDecisions(
  request: { state: RequestState; maker_id: number | null },
  viewer: Actor,
): RequestDecision[] {
  if (request.state !== "pending") return [];
  const decisions: RequestDecision[] = [];
  if (can(viewer, "approve_operations") && request.maker_id !== viewer.id) decisions.push("approve", "reject");
  if (request.maker_id === viewer.id) decisions.push("cancel");
  return decisions;
}

/** The spec's status words: a pending request is NEW. */
export function specStatusOf(state: RequestState) {
  return state === "pending" ? "NEW" : state.toUpperCase();
}
