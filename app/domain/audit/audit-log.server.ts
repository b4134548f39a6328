import { requestScope } from "~/lib/log.server";
import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import type { TextParams } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";

/**
 * Who acted when no user did: a customer at the gateway (a payment's result), a visitor who is not
 * signed in (a failed sign-in, whoever they claim to be), or the platform itself (the reconciler, a
 * job, a safety rule). Stored in place of a username, marked so that no username can take it.
 */
export type NonUserActor = "customer" | "visitor" | "system";
const NON_USER_MARK = "~";

export type AuditEntry = {
  merchantId: number | null;
  actor: { id: number; username: string } | NonUserActor;
  /** Stable code, e.g. "sign_in": its title is audit.<action>, and with `params` it is written out as audit_entry.<action>. */
  action: string;
  params?: TextParams;
  objectType?: string;
  objectId?: string | number;
  ip?: string | null;
};

/** Writes an entry; call it with the transaction of the change it records, so that neither exists without the other. */
export async function recordAudit(db: DB, entry: AuditEntry) {
  const params = entry.params ?? {};
  await db
    .insertInto("audit_log")
    .values({
      merchant_id: entry.merchantId,
      actor_user_id: typeof entry.actor === "string" ? null : entry.actor.id,
      actor_name: typeof entry.actor === "string" ? `${NON_USER_MARK}${entry.actor}` : entry.actor.username,
      action: entry.action,
      params: JSON.stringify(params),
      description: texts().line(`audit_entry.${entry.action}`, params, "en").slice(0, 1000),
      object_type: entry.objectType ?? null,
      object_id: entry.objectId === undefined ? null : String(entry.objectId),
      ip: entry.ip ?? null,
      // Outside a request or job (a script, the seed) there is none, and the column is left out.
      request_id: requestScope()?.requestId,
      created_at: nowIso(),
    })
    .execute();
}

/** An entry about what a user did to their own account (signed in or out, changed a password): they are its actor and its object. */
export function recordOwnAction(
  db: DB,
  user: { id: number; username: string; merchantId: number },
  action: string,
  options: { ip?: string | null; params?: TextParams } = {},
) {
  return recordAudit(db, {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    action,
    params: { username: user.username, ...options.params },
    objectType: "user",
    objectId: user.id,
    ip: options.ip ?? null,
  });
}

const ENTRY_COLUMNS = [
  "id",
  "actor_user_id",
  "actor_name",
  "action",
  "params",
  "description",
  "object_type",
  "object_id",
  "created_at",
] as const;

/** The newest entries of a merchant; `actorUserId` narrows them to one user's own actions, `object` to one record's. */
export async function listAuditEntries(
  db: DB,
  merchantId: number,
  options: { limit: number; actorUserId?: number; object?: { type: string; id: string } },
) {
  let query = db.selectFrom("audit_log").select(ENTRY_COLUMNS).where("merchant_id", "=", merchantId);
  if (options.actorUserId !== undefined) query = query.where("actor_user_id", "=", options.actorUserId);
  if (options.object)
    query = query.where("object_type", "=", options.object.type).where("object_id", "=", options.object.id);
  return query.orderBy("id", "desc").limit(options.limit).execute();
}

export type AuditRow = Awaited<ReturnType<typeof listAuditEntries>>[number];

/**
 * Who an entry's actor is: a user (by username) or one of the non-user actors. Entries written
 * before non-user actors were told apart say "anonymous": a failed sign-in was a visitor, a reused
 * refresh token the platform's own rule, anything else a customer at the gateway.
 */
export function actorOf(entry: Pick<AuditRow, "actor_name" | "action">): { username: string } | NonUserActor {
  if (entry.actor_name.startsWith(NON_USER_MARK)) return entry.actor_name.slice(NON_USER_MARK.length) as NonUserActor;
  if (entry.actor_name !== "anonymous") return { username: entry.actor_name };
  if (entry.action === "sign_in_failed") return "visitor";
  if (entry.action === "refresh_token_reused") return "system";
  return "customer";
}
