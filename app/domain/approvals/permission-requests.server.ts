import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { publishLive } from "~/lib/live.server";
import { holdersOf, permissionsOf } from "~/domain/identity/users.server";
import type { RequestState } from "~/db/schema";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { Actor } from "~/domain/identity/permissions";
import { createNotifications } from "~/domain/messaging/notifications.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { refuse, word, type Refusal } from "~/lib/outcome";
import type { RequestDecision } from "./operation-requests.server";
import { GRANTABLE_PERMISSIONS, type GrantablePermission } from "./permission-grant-schema";
import type { RequestFilters } from "./request-filters";

export function isGrantablePermission(value: unknown): value is GrantablePermission {
  return (GRANTABLE_PERMISSIONS as readonly unknown[]).includes(value);
}

/**
 * Superusers and checkers (approve_permission_requests) may ask for a grant and see the list;
 * another of them decides it (docs/decisions/0007).
 */
export function canHandlePermissionRequests(user: PermissionHolder) {
  return can(user, "approve_permission_requests");
}

/** Done (`requestId` when a request was made), or refused with a code. */
export type PermissionRequestOutcome = { ok: true; code: string; requestId?: number } | Refusal;

/** Users a grant may be asked for: the merchant's active users who are not superusers, with the grantable rights they hold. */
export async function listGrantCandidates(db: DB, merchantId: number) {
  const users = await db
    .selectFrom("users")
    .select(["id", "username", "first_name", "last_name"])
    .where("merchant_id", "=", merchantId)
    .where("is_active", "=", 1)
    .where("is_superuser", "=", 0)
    .where("kind", "=", "person")
    .orderBy("username")
    .execute();
  if (!users.length) return [];
  const ids = users.map((user) => user.id);
  const held = await db
    .selectFrom("user_permissions")
    .select(["user_id", "permission"])
    .where("user_id", "in", ids)
    .where("permission", "in", [...GRANTABLE_PERMISSIONS])
    .union(
      db
        .selectFrom("user_roles")
        .innerJoin("role_permissions", "role_permissions.role_id", "user_roles.role_id")
        .select(["user_roles.user_id", "role_permissions.permission"])
        .where("user_roles.user_id", "in", ids)
        .where("role_permissions.permission", "in", [...GRANTABLE_PERMISSIONS]),
    )
    .execute();
  return users.map((user) => ({
    ...user,
    permissions: held.filter((row) => row.user_id === user.id).map((row) => row.permission),
  }));
}

/**
 * Asks for refund or void rights for a staff user. The request waits for a checker; every checker
 * of the merchant is told ('New Permission Request').
 */
export async function requestPermissionGrant(
  db: DB,
  input: { merchantId: number; actor: Actor; userId: number; permission: string; lang: Language },
): Promise<PermissionRequestOutcome> {
  const fail = (code: string, field?: "user" | "permission") => refuse(code, { field });
  if (!canHandlePermissionRequests(input.actor)) return fail("tickets.errors.forbidden");
  if (!isGrantablePermission(input.permission)) return fail("tickets.errors.permission", "permission");
  const permission = input.permission;
  return writeTransaction(db, async (trx): Promise<PermissionRequestOutcome> => {
    const target = Number.isSafeInteger(input.userId)
      ? await trx
          .selectFrom("users")
          .select(["id", "username", "is_active", "is_superuser"])
          .where("merchant_id", "=", input.merchantId)
          .where("id", "=", input.userId)
          .where("kind", "=", "person")
          .executeTakeFirst()
      : undefined;
    if (!target || !target.is_active) return fail("tickets.errors.user", "user");
    if (target.is_superuser) return fail("tickets.errors.superuser", "user");
    const held = (await permissionsOf(trx, target.id)).includes(permission);
    if (held) return fail("tickets.errors.already_granted", "permission");
    const pending = await trx
      .selectFrom("permission_requests")
      .select("id")
      .where("user_id", "=", target.id)
      .where("permission", "=", permission)
      .where("state", "=", "pending")
      .executeTakeFirst();
    if (pending) return fail("tickets.errors.request_pending");
    const created = nowIso();
    const request = await trx
      .insertInto("permission_requests")
      .values({
        merchant_id: input.merchantId,
        user_id: target.id,
        permission,
        state: "pending",
        requested_by: input.actor.id,
        requested_by_name: input.actor.username,
        checker_id: null,
        checker_name: null,
        created_at: created,
        decided_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: "permission_requested",
      params: { permission: word(`tickets.permission_names.${permission}`), username: target.username },
      objectType: "user",
      objectId: target.id,
    });
    // Every checker who may decide it hears of it; the notice is written with the request, so neither exists without the other.
    const checkers = await checkersOf(trx, input.merchantId);
    await createNotifications(trx, {
      merchantId: input.merchantId,
      userIds: checkers.filter((id) => id !== input.actor.id && id !== target.id),
      kind: "permission_request",
      lang: input.lang,
      link: `/${input.lang}/ticket/approve-permissions/${request.id}`,
    });
    return { ok: true, code: "tickets.requested", requestId: request.id };
  }).catch((error: unknown) => {
    // Two people asking at once: the unique index keeps one pending request per user and permission.
    if (/unique|duplicate/i.test(String(error))) return fail("tickets.errors.request_pending");
    throw error;
  });
}

/** The merchant's active users who may decide permission requests: superusers and holders of approve_permission_requests. */
async function checkersOf(db: DB, merchantId: number) {
  const rows = await db
    .selectFrom("users")
    .select("users.id")
    .where("users.merchant_id", "=", merchantId)
    .where("users.is_active", "=", 1)
    .where((eb) =>
      eb.or([eb("users.is_superuser", "=", 1), eb("users.id", "in", holdersOf(db, "approve_permission_requests"))]),
    )
    .orderBy("users.id")
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A checker approves or rejects; the one who asked (or a checker) cancels. Nobody decides a
 * request they made or one that grants rights to themselves. Approval grants the permission
 * exactly once: the request row is locked and moved from pending in the same transaction.
 */
export async function decidePermissionRequest(
  db: DB,
  input: { merchantId: number; actor: Actor; requestId: number; decision: RequestDecision },
): Promise<PermissionRequestOutcome> {
  if (!Number.isSafeInteger(input.requestId) || input.requestId <= 0) return refuse("api.not_found");
  return writeTransaction(db, async (trx): Promise<PermissionRequestOutcome> => {
    let query = trx
      .selectFrom("permission_requests")
      .innerJoin("users", "users.id", "permission_requests.user_id")
      .select([
        "permission_requests.id",
        "permission_requests.user_id",
        "permission_requests.permission",
        "permission_requests.state",
        "permission_requests.requested_by",
        "users.username",
        "users.is_active",
      ])
      .where("permission_requests.merchant_id", "=", input.merchantId)
      .where("permission_requests.id", "=", input.requestId);
    if (engineOf(trx) === "postgres") query = query.forUpdate("permission_requests");
    const request = await query.executeTakeFirst();
    if (!request) return refuse("api.not_found");
    const checker = canHandlePermissionRequests(input.actor);
    if (input.decision === "cancel") {
      if (request.requested_by !== input.actor.id && !checker) return refuse("tickets.errors.forbidden");
    } else {
      if (!checker) return refuse("tickets.errors.forbidden");
      if (request.requested_by === input.actor.id || request.user_id === input.actor.id)
        return refuse("tickets.errors.own_request");
    }
    if (request.state !== "pending")
      return refuse("tickets.errors.decided", { params: { state: word(`requests.states.${request.state}`) } });
    const state = input.decision === "approve" ? "approved" : input.decision === "reject" ? "rejected" : "canceled";
    if (state === "approved" && !request.is_active) return refuse("tickets.errors.user");
    const moved = await trx
      .updateTable("permission_requests")
      .set({ state, checker_id: input.actor.id, checker_name: input.actor.username, decided_at: nowIso() })
      .where("id", "=", request.id)
      .where("state", "=", "pending")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return refuse("tickets.errors.decided_meanwhile");
    await publishLive(trx, {
      merchantId: input.merchantId,
      type: "requests_changed",
      data: { kind: "permission", id: request.id },
    });
    if (state === "approved") {
      await trx
        .insertInto("user_permissions")
        .values({ user_id: request.user_id, permission: request.permission })
        .onConflict((conflict) => conflict.columns(["user_id", "permission"]).doNothing())
        .execute();
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: `permission_request_${state}`,
      params: {
        id: request.id,
        permission: word(`tickets.permission_names.${request.permission}`),
        username: request.username,
      },
      objectType: "user",
      objectId: request.user_id,
    });
    return { ok: true, code: `requests.done.${state}` };
  });
}

const COLUMNS = [
  "permission_requests.id",
  "permission_requests.user_id",
  "permission_requests.permission",
  "permission_requests.state",
  "permission_requests.requested_by",
  "permission_requests.requested_by_name",
  "permission_requests.checker_id",
  "permission_requests.checker_name",
  "permission_requests.created_at",
  "permission_requests.decided_at",
  "users.username",
  "users.first_name",
  "users.last_name",
  "users.email",
] as const;

function merchantRequests(db: DB, merchantId: number) {
  return db
    .selectFrom("permission_requests")
    .innerJoin("users", "users.id", "permission_requests.user_id")
    .where("permission_requests.merchant_id", "=", merchantId);
}

export type PermissionRequestRow = NonNullable<Awaited<ReturnType<typeof findPermissionRequest>>>;

/** A page of the merchant's permission requests, newest first. */
export async function listPermissionRequests(
  db: DB,
  input: { merchantId: number; filters: RequestFilters; limit: number; offset: number },
) {
  let query = merchantRequests(db, input.merchantId);
  const { filters } = input;
  if (filters.state) query = query.where("permission_requests.state", "in", filters.state);
  if (filters.type) query = query.where("permission_requests.permission", "in", filters.type);
  if (filters.created_after) query = query.where("permission_requests.created_at", ">=", filters.created_after);
  if (filters.created_before) query = query.where("permission_requests.created_at", "<=", filters.created_before);
  const [rows, total] = await Promise.all([
    query
      .select(COLUMNS)
      .orderBy("permission_requests.created_at", "desc")
      .orderBy("permission_requests.id", "desc")
      .limit(input.limit)
      .offset(input.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

export async function findPermissionRequest(db: DB, merchantId: number, requestId: number) {
  if (!Number.isSafeInteger(requestId) || requestId <= 0) return undefined;
  return merchantRequests(db, merchantId)
    .select(COLUMNS)
    .where("permission_requests.id", "=", requestId)
    .executeTakeFirst();
}

export async function countPendingPermissionRequests(db: DB, merchantId: number) {
  const row = await db
    .selectFrom("permission_requests")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("merchant_id", "=", merchantId)
    .where("state", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** What the viewer may do with a request now. */
export function permissionRequestDecisions(
  request: { state: RequestState; requested_by: number | null; user_id: number },
  viewer: Actor,
): RequestDecision[] {
  if (request.state !== "pending") return [];
  const decisions: RequestDecision[] = [];
  const own = request.requested_by === viewer.id || request.user_id === viewer.id;
  if (canHandlePermissionRequests(viewer) && !own) decisions.push("approve", "reject");
  if (request.requested_by === viewer.id) decisions.push("cancel");
  return decisions;
}
