import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { hashPassword } from "./password-hashing.server";
import type { Permission } from "./permissions";

export type SessionUser = {
  id: number;
  merchantId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  is_superuser: number;
  receiveOrderNotification: boolean;
  /** Creates merchants on this installation (the operator page). */
  isOperator?: boolean;
  permissions: string[];
  /**
   * Set when an API key acts (web/api.server.ts): the key, what its scopes grant per plugin (and
   * set-up area) that its creator still holds, and what they grant that the creator no longer holds.
   */
  apiKey?: { id: number; grants: Record<string, string[]>; withdrawn: Record<string, string[]> };
};

export async function loadSessionUser(db: DB, userId: number): Promise<SessionUser | undefined> {
  const user = await db
    .selectFrom("users")
    .select([
      "id",
      "merchant_id",
      "username",
      "email",
      "first_name",
      "last_name",
      "is_superuser",
      "is_active",
      "receive_order_notification",
      "is_operator",
    ])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user || !user.is_active) return undefined;
  const permissions = await permissionsOf(db, userId);
  return {
    id: user.id,
    merchantId: user.merchant_id,
    username: user.username,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    is_superuser: user.is_superuser,
    receiveOrderNotification: Boolean(user.receive_order_notification),
    isOperator: Boolean(user.is_operator),
    permissions,
  };
}

/** Every permission a user holds: given to them, or through one of their roles. */
export async function permissionsOf(db: DB, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("user_permissions")
    .select("permission")
    .where("user_id", "=", userId)
    .union(
      db
        .selectFrom("user_roles")
        .innerJoin("role_permissions", "role_permissions.role_id", "user_roles.role_id")
        .select("role_permissions.permission")
        .where("user_roles.user_id", "=", userId),
    )
    .execute();
  return [...new Set(rows.map((row) => row.permission))].sort();
}

/** The ids of the users holding a permission, given to them or through a role (a subquery). */
export function holdersOf(db: DB, permission: string) {
  return db
    .selectFrom("user_permissions")
    .select("user_permissions.user_id")
    .where("user_permissions.permission", "=", permission)
    .union(
      db
        .selectFrom("user_roles")
        .innerJoin("role_permissions", "role_permissions.role_id", "user_roles.role_id")
        .select("user_roles.user_id")
        .where("role_permissions.permission", "=", permission),
    );
}

export async function setOrderNotification(db: DB, user: { id: number; merchantId: number }, receive: boolean) {
  await db
    .updateTable("users")
    .set({ receive_order_notification: receive ? 1 : 0 })
    .where("id", "=", user.id)
    .where("merchant_id", "=", user.merchantId)
    .execute();
}

export type NewUserInput = {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  superuser?: boolean;
  requiresOtp?: boolean;
  permissions: Permission[];
};

/** A user of a merchant with a password (or its hash, already made) and the permissions given. */
export async function createUser(db: DB, merchantId: number, user: NewUserInput, password: string | { hash: string }) {
  const inserted = await db
    .insertInto("users")
    .values({
      merchant_id: merchantId,
      username: user.username,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      password_hash: typeof password === "string" ? await hashPassword(password) : password.hash,
      is_superuser: user.superuser ? 1 : 0,
      requires_otp: user.requiresOtp ? 1 : 0,
      created_at: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (user.permissions.length) {
    await db
      .insertInto("user_permissions")
      .values(user.permissions.map((permission) => ({ user_id: inserted.id, permission })))
      .execute();
  }
  return inserted.id;
}

/** Someone managing the merchant (the administration panel): who they are and what they hold, which bounds what they may give. */
export type Manager = {
  id: number;
  username: string;
  merchantId: number;
  is_superuser: number | boolean;
  permissions: readonly string[];
};

export function managerOf(user: SessionUser): Manager {
  return {
    id: user.id,
    username: user.username,
    merchantId: user.merchantId,
    is_superuser: user.is_superuser,
    permissions: user.permissions,
  };
}
