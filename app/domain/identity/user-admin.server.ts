import { sql } from "kysely";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { createInvitationLink, INVITATION_TTL_MS } from "./passwords.server";
import { mayGrant, rolesOfUsers } from "./roles.server";
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
  /** Invited, and no password chosen yet. */
  invitation_pending: boolean;
  roles: { id: number; name: string }[];
};

const usersOf = (db: DB, merchantId: number) =>
  db
    .selectFrom("users")
    .select([
      "id",
      "username",
      "email",
      "first_name",
      "last_name",
      "is_superuser",
      "is_active",
      "requires_otp",
      "password_hash",
    ])
    .where("merchant_id", "=", merchantId)
    .where("kind", "=", "person");

type UserRow = Awaited<ReturnType<ReturnType<typeof usersOf>["executeTakeFirstOrThrow"]>>;
function withRoles(rows: UserRow[], roles: Map<number, { id: number; name: string }[]>): ManagedUser[] {
  return rows.map(({ password_hash, ...row }) => ({
    ...row,
    is_superuser: Boolean(row.is_superuser),
    is_active: Boolean(row.is_active),
    requires_otp: Boolean(row.requires_otp),
    invitation_pending: password_hash === "!",
    roles: roles.get(row.id) ?? [],
  }));
}

async function managedUsers(db: DB, rows: UserRow[]) {
  return withRoles(
    rows,
    await rolesOfUsers(
      db,
      rows.map((row) => row.id),
    ),
  );
}

async function managed(db: DB, row: UserRow): Promise<ManagedUser> {
  return (await managedUsers(db, [row]))[0];
}

/** The merchant's users, as the administration lists them. */
export async function listMerchantUsers(db: DB, merchantId: number): Promise<ManagedUser[]> {
  return managedUsers(db, await usersOf(db, merchantId).orderBy("username").execute());
}

export type UserAccessChanges = { is_active?: boolean; requires_otp?: boolean };

type Manager = {
  id: number;
  username: string;
  merchantId: number;
  is_superuser: number | boolean;
  permissions?: readonly string[];
};

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
      await trx
        .selectFrom("users")
        .select("id")
        .where("id", "in", [input.manager.id, input.userId])
        .orderBy("id")
        .forUpdate()
        .execute();
    }
    const manager = await trx
      .selectFrom("users")
      .select("is_active")
      .where("id", "=", input.manager.id)
      .executeTakeFirst();
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
    if (input.changes.is_active === false && user.id === input.manager.id)
      return refuse("admin.users.errors.self", { field: "is_active" });
    const entries: string[] = [];
    if (input.changes.is_active !== undefined && input.changes.is_active !== Boolean(user.is_active)) {
      await trx
        .updateTable("users")
        .set({ is_active: input.changes.is_active ? 1 : 0 })
        .where("id", "=", user.id)
        .execute();
      if (!input.changes.is_active) await endUserSessions(trx, user.id);
      entries.push(input.changes.is_active ? "user_reactivated" : "user_deactivated");
    }
    if (input.changes.requires_otp !== undefined && input.changes.requires_otp !== Boolean(user.requires_otp)) {
      await trx
        .updateTable("users")
        .set({ requires_otp: input.changes.requires_otp ? 1 : 0 })
        .where("id", "=", user.id)
        .execute();
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
    return {
      ok: true as const,
      user: await managed(
        trx,
        await usersOf(trx, input.manager.merchantId).where("id", "=", user.id).executeTakeFirstOrThrow(),
      ),
    };
  });
}

/** Whether refunds, captures and voids wait for a checker, and who the checkers are (active users who may approve them). */
export async function loadOperationsApproval(db: DB, merchantId: number) {
  const merchant = await db
    .selectFrom("merchants")
    .select("operations_approval")
    .where("id", "=", merchantId)
    .executeTakeFirstOrThrow();
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
export async function setOperationsApproval(
  db: DB,
  input: { merchantId: number; actor: { id: number; username: string }; on: boolean; ip?: string | null },
) {
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

/** Django's username rule: letters, digits and @ . + - _ only, so `~customer` and `api-key:…` stay out of reach. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.@+-]{1,150}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type InvitationInput = {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  roleIds: number[];
  superuser: boolean;
};

/** Checks an invitation's fields; codes are translation keys under admin.users.errors. */
export function checkInvitation(input: {
  username: unknown;
  email: unknown;
  first_name?: unknown;
  last_name?: unknown;
}) {
  const errors: Record<string, string[]> = {};
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const username = text(input.username);
  const email = text(input.email).toLowerCase();
  if (!USERNAME_PATTERN.test(username)) errors.username = ["admin.users.errors.username"];
  if (!EMAIL_PATTERN.test(email) || email.length > 254) errors.email = ["admin.users.errors.email"];
  const firstName = text(input.first_name).slice(0, 150);
  const lastName = text(input.last_name).slice(0, 150);
  return { errors, value: { username, email, firstName, lastName } };
}

/**
 * Invites a user: an account without a password, its roles, and a link by e-mail (valid 7 days)
 * through which the invitee chooses a password under the usual rules. Only a superuser invites a
 * superuser. The invitation and the mail are written in one database transaction, audited.
 */
export async function inviteUser(
  db: DB,
  input: { manager: Manager; invitation: InvitationInput; baseUrl: string; lang: Language; ip?: string | null },
): Promise<{ ok: true; user: ManagedUser } | Refusal> {
  const { invitation } = input;
  if (invitation.superuser && !input.manager.is_superuser)
    return refuse("admin.users.errors.superuser_only", { field: "is_superuser" });
  return writeTransaction(db, async (trx) => {
    if (!(await ownRoles(trx, input.manager.merchantId, invitation.roleIds)))
      return refuse("admin.users.errors.roles", { field: "roles" });
    if (!(await rolesWithin(trx, input.manager, invitation.roleIds)))
      return refuse("admin.roles.errors.superuser_only", { field: "roles" });
    const taken = await trx
      .selectFrom("users")
      .select("id")
      .where(sql<boolean>`lower(username) = ${invitation.username.toLowerCase()}`)
      .executeTakeFirst();
    if (taken) return refuse("admin.users.errors.username_taken", { field: "username" });
    const merchant = await trx
      .selectFrom("merchants")
      .select(["title_en", "title_ar"])
      .where("id", "=", input.manager.merchantId)
      .executeTakeFirstOrThrow();
    const created = await trx
      .insertInto("users")
      .values({
        merchant_id: input.manager.merchantId,
        username: invitation.username,
        email: invitation.email,
        first_name: invitation.firstName,
        last_name: invitation.lastName,
        // No password until the invitee chooses one: nothing signs in with this.
        password_hash: "!",
        is_superuser: invitation.superuser ? 1 : 0,
        created_at: nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (invitation.roleIds.length)
      await trx
        .insertInto("user_roles")
        .values(invitation.roleIds.map((roleId) => ({ user_id: created.id, role_id: roleId })))
        .execute();
    const token = await createInvitationLink(trx, created.id);
    await queueMail(trx, {
      merchantId: input.manager.merchantId,
      to: invitation.email,
      template: "invitation",
      params: {
        username: invitation.username,
        merchant: input.lang === "ar" ? merchant.title_ar : merchant.title_en,
        inviter: input.manager.username,
        link: `${input.baseUrl}/${input.lang}/reset-password?token=${token}`,
        days: INVITATION_TTL_MS / 86_400_000,
      },
      lang: input.lang,
    });
    await recordAudit(trx, {
      merchantId: input.manager.merchantId,
      actor: { id: input.manager.id, username: input.manager.username },
      action: "user_invited",
      params: { username: invitation.username },
      objectType: "user",
      objectId: created.id,
      ip: input.ip ?? null,
    });
    return {
      ok: true as const,
      user: await managed(
        trx,
        await usersOf(trx, input.manager.merchantId).where("id", "=", created.id).executeTakeFirstOrThrow(),
      ),
    };
  });
}

/** Gives a user exactly these roles; audited when they change. A superuser's roles are changed by a superuser only. */
export async function setUserRoles(
  db: DB,
  input: { manager: Manager; userId: number; roleIds: number[]; ip?: string | null },
): Promise<{ ok: true } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "username", "is_superuser"])
      .where("id", "=", input.userId)
      .where("merchant_id", "=", input.manager.merchantId)
      .where("kind", "=", "person")
      .executeTakeFirst();
    if (!user) return refuse("admin.users.errors.not_found");
    if (user.is_superuser && !input.manager.is_superuser) return refuse("admin.users.errors.superuser_only");
    // Nobody changes their own rights.
    if (user.id === input.manager.id) return refuse("admin.users.errors.own_roles");
    const before = (await trx.selectFrom("user_roles").select("role_id").where("user_id", "=", user.id).execute())
      .map((row) => row.role_id)
      .sort();
    const after = [...new Set(input.roleIds)].sort();
    if (!(await ownRoles(trx, input.manager.merchantId, after)))
      return refuse("admin.users.errors.roles", { field: "roles" });
    if (before.join() === after.join()) return { ok: true as const };
    // Given or taken away, a role is handed by someone who holds all it grants.
    const changed = [...before.filter((id) => !after.includes(id)), ...after.filter((id) => !before.includes(id))];
    if (!(await rolesWithin(trx, input.manager, changed))) return refuse("admin.roles.errors.superuser_only");
    await trx.deleteFrom("user_roles").where("user_id", "=", user.id).execute();
    if (after.length)
      await trx
        .insertInto("user_roles")
        .values(after.map((roleId) => ({ user_id: user.id, role_id: roleId })))
        .execute();
    const names = after.length
      ? (await trx.selectFrom("roles").select("name").where("id", "in", after).orderBy("name").execute())
          .map((row) => row.name)
          .join(", ")
      : "—";
    await recordAudit(trx, {
      merchantId: input.manager.merchantId,
      actor: { id: input.manager.id, username: input.manager.username },
      action: "user_roles_changed",
      params: { username: user.username, roles: names },
      objectType: "user",
      objectId: user.id,
      ip: input.ip ?? null,
    });
    return { ok: true as const };
  });
}

/** Whether every permission of these roles (of the manager's merchant) is one the manager may give. */
async function rolesWithin(db: DB, manager: Manager, roleIds: readonly number[]) {
  if (manager.is_superuser || roleIds.length === 0) return true;
  const granted = await db
    .selectFrom("role_permissions")
    .innerJoin("roles", "roles.id", "role_permissions.role_id")
    .select("role_permissions.permission")
    .where("roles.merchant_id", "=", manager.merchantId)
    .where("role_permissions.role_id", "in", [...roleIds])
    .execute();
  return mayGrant(
    manager,
    granted.map((row) => row.permission),
  );
}

/** Whether every one of these roles is the merchant's own. */
async function ownRoles(db: DB, merchantId: number, roleIds: readonly number[]) {
  if (roleIds.length === 0) return true;
  const found = await db
    .selectFrom("roles")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("id", "in", [...new Set(roleIds)])
    .execute();
  return found.length === new Set(roleIds).size;
}
