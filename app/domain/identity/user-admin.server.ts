import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { endUserSessions } from "~/domain/identity/sessions.server";
import { holdersOf } from "~/domain/identity/users.server";
import { refuse, type Refusal } from "~/lib/outcome";

export type ManagedUser = {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  is_superuser: boolean;
  is_active: boolean;
  requires_otp: boolean;
};

const usersOf = (db: DB, merchantId: number) =>
  db
    .selectFrom("users")
    .select(["id", "username", "email", "first_name", "last_name", "is_superuser", "is_active", "requires_otp"])
    .where("merchant_id", "=", merchantId)
    .where("kind", "=", "person");

type UserRow = Awaited<ReturnType<ReturnType<typeof usersOf>["executeTakeFirstOrThrow"]>>;
const managed = (row: UserRow): ManagedUser => ({ ...row, is_superuser: Boolean(row.is_superuser), is_active: Boolean(row.is_active), requires_otp: Boolean(row.requires_otp) });

/** The merchant's users, as the administration lists them. */
export async function listMerchantUsers(db: DB, merchantId: number): Promise<ManagedUser[]> {
  return (await usersOf(db, merchantId).orderBy("username").execute()).map(managed);
}

export type UserAccessChanges = { is_active?: boolean; requires_otp?: boolean };

type Manager = { id: number; username: string; merchantId: number; is_superuser: number | boolean };

/**
 * Turns a user's access on or off, or their one-time code at sign-in. A deactivated user's
 * sessions end in the same database transaction, and every request already refuses an inactive
 * user's session or token (loadSessionUser), so nothing they hold works a moment longer. Nobody
 * deactivates themselves (the merchant would risk having no administrator left), and only a
 * superuser changes a superuser. Each change is one audit entry.
 */
export async function changeUserAccess(
  db: DB,
  input: { manager: Manager; userId: number; changes: UserAccessChanges; ip?: string | null },
): Promise<{ ok: true; user: ManagedUser } | Refusal> {
  return writeTransaction(db, async (trx) => {
    // Both rows locked (SQLite's BEGIN IMMEDIATE locks everything): two managers deactivating each
    // other at once are taken one at a time, and the second finds itself deactivated.
    if (engineOf(trx) === "postgres") {
      await trx.selectFrom("users").select("id").where("id", "in", [input.manager.id, input.userId]).orderBy("id").forUpdate().execute();
    }
    const manager = await trx.selectFrom("users").select("is_active").where("id", "=", input.manager.id).executeTakeFirst();
    if (!manager?.is_active) return refuse("admin.users.errors.not_found");
    const user = await trx
      .selectFrom("users")
      .select(["id", "username", "is_superuser", "is_active", "requires_otp"])
      .where("id", "=", input.userId)
      .where("kind", "=", "person")
      .where("merchant_id", "=", input.manager.merchantId)
      .executeTakeFirst();
    if (!user) return refuse("admin.users.errors.not_found");
    if (user.is_superuser && !input.manager.is_superuser) return refuse("admin.users.errors.superuser_only");
    if (input.changes.is_active === false && user.id === input.manager.id) return refuse("admin.users.errors.self", { field: "is_active" });
    const entries: string[] = [];
    if (input.changes.is_active !== undefined && input.changes.is_active !== Boolean(user.is_active)) {
      await trx.updateTable("users").set({ is_active: input.changes.is_active ? 1 : 0 }).where("id", "=", user.id).execute();
      if (!input.changes.is_active) await endUserSessions(trx, user.id);
      entries.push(input.changes.is_active ? "user_reactivated" : "user_deactivated");
    }
    if (input.changes.requires_otp !== undefined && input.changes.requires_otp !== Boolean(user.requires_otp)) {
      await trx.updateTable("users").set({ requires_otp: input.changes.requires_otp ? 1 : 0 }).where("id", "=", user.id).execute();
      entries.push(input.changes.requires_otp ? "user_otp_required" : "user_otp_not_required");
    }
    for (const action of entries) {
      await recordAudit(trx, {
        merchantId: input.manager.merchantId,
        actor: { id: input.manager.id, username: input.manager.username },
        action,
        params: { username: user.username },
        objectType: "user",
        objectId: user.id,
        ip: input.ip ?? null,
      });
    }
    return { ok: true as const, user: managed(await usersOf(trx, input.manager.merchantId).where("id", "=", user.id).executeTakeFirstOrThrow()) };
  });
}

/** Whether refunds, captures and voids wait for a checker, and who the checkers are (active users who may approve them). */
export async function loadOperationsApproval(db: DB, merchantId: number) {
  const merchant = await db.selectFrom("merchants").select("operations_approval").where("id", "=", merchantId).executeTakeFirstOrThrow();
  const checkers = await db
    .selectFrom("users")
    .select("username")
    .where("merchant_id", "=", merchantId)
    .where("is_active", "=", 1)
    .where((eb) => eb.or([eb("is_superuser", "=", 1), eb("id", "in", holdersOf(db, "approve_operations"))]))
    .orderBy("username")
    .execute();
  return { on: Boolean(merchant.operations_approval), checkers: checkers.map((row) => row.username) };
}

/**
 * Turns operations approval on or off: with it on, a refund, capture or void by a user who may
 * not approve operations waits for a checker (maker-checker). Requests already waiting stay
 * waiting for a decision either way. Audited when it changes.
 */
export async function setOperationsApproval(db: DB, input: { merchantId: number; actor: { id: number; username: string }; on: boolean; ip?: string | null }) {
  return writeTransaction(db, async (trx) => {
    const changed = await trx
      .updateTable("merchants")
      .set({ operations_approval: input.on ? 1 : 0 })
      .where("id", "=", input.merchantId)
      .where("operations_approval", "=", input.on ? 0 : 1)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return false;
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: input.on ? "operations_approval_on" : "operations_approval_off",
      params: {},
      objectType: "merchant",
      objectId: input.merchantId,
      ip: input.ip ?? null,
    });
    return true;
  });
}
