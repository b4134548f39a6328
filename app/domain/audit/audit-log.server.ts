import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";

export type AuditEntry = {
  merchantId: number | null;
  actor: { id: number; username: string } | null;
  /** Stable code, e.g. "sign_in"; shown translated where a translation exists. */
  action: string;
  description: string;
  objectType?: string;
  objectId?: string | number;
  ip?: string | null;
};

export async function recordAudit(db: DB, entry: AuditEntry) {
  await db
    .insertInto("audit_log")
    .values({
      merchant_id: entry.merchantId,
      actor_user_id: entry.actor?.id ?? null,
      actor_name: entry.actor?.username ?? "anonymous",
      action: entry.action,
      description: entry.description.slice(0, 1000),
      object_type: entry.objectType ?? null,
      object_id: entry.objectId === undefined ? null : String(entry.objectId),
      ip: entry.ip ?? null,
      created_at: nowIso(),
    })
    .execute();
}

/** The newest entries of a merchant; `actorUserId` narrows them to one user's own actions. */
export async function listAuditEntries(db: DB, merchantId: number, options: { limit: number; actorUserId?: number }) {
  let query = db
    .selectFrom("audit_log")
    .select(["id", "actor_name", "action", "description", "created_at"])
    .where("merchant_id", "=", merchantId);
  if (options.actorUserId !== undefined) query = query.where("actor_user_id", "=", options.actorUserId);
  return query.orderBy("id", "desc").limit(options.limit).execute();
}
