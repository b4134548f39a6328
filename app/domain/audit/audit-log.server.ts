import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import type { TextParams } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";

export type AuditEntry = {
  merchantId: number | null;
  actor: { id: number; username: string } | null;
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
      actor_user_id: entry.actor?.id ?? null,
      actor_name: entry.actor?.username ?? "anonymous",
      action: entry.action,
      params: JSON.stringify(params),
      description: texts().line(`audit_entry.${entry.action}`, params, "en").slice(0, 1000),
      object_type: entry.objectType ?? null,
      object_id: entry.objectId === undefined ? null : String(entry.objectId),
      ip: entry.ip ?? null,
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

const ENTRY_COLUMNS = ["id", "actor_user_id", "actor_name", "action", "params", "description", "object_type", "object_id", "created_at"] as const;

/** The newest entries of a merchant; `actorUserId` narrows them to one user's own actions, `object` to one record's. */
export async function listAuditEntries(
  db: DB,
  merchantId: number,
  options: { limit: number; actorUserId?: number; object?: { type: string; id: string } },
) {
  let query = db.selectFrom("audit_log").select(ENTRY_COLUMNS).where("merchant_id", "=", merchantId);
  if (options.actorUserId !== undefined) query = query.where("actor_user_id", "=", options.actorUserId);
  if (options.object) query = query.where("object_type", "=", options.object.type).where("object_id", "=", options.object.id);
  return query.orderBy("id", "desc").limit(options.limit).execute();
}

export type AuditRow = Awaited<ReturnType<typeof listAuditEntries>>[number];
