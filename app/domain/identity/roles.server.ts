import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { refuse, type Refusal } from "~/lib/outcome";

/**
 * Roles: named groups of permissions (the platform's and the sections') that a merchant gives its
 * users, such as "Maker" (create and refund) or "Checker" (approve operations). A user holds their
 * roles' permissions besides any given to them one by one; changing a role changes what every user
 * holding it may do, from their next request on.
 */
export type RoleView = { id: number; name: string; permissions: string[]; users: number };

/** Who manages roles: what they may give is what they hold themselves (a superuser holds everything). */
type Manager = {
  id: number;
  username: string;
  merchantId: number;
  is_superuser: number | boolean;
  permissions?: readonly string[];
};

export async function listRoles(db: DB, merchantId: number): Promise<RoleView[]> {
  const roles = await db
    .selectFrom("roles")
    .select(["id", "name"])
    .where("merchant_id", "=", merchantId)
    .orderBy("name")
    .execute();
  if (!roles.length) return [];
  const ids = roles.map((role) => role.id);
  const permissions = await db
    .selectFrom("role_permissions")
    .select(["role_id", "permission"])
    .where("role_id", "in", ids)
    .execute();
  const holders = await db
    .selectFrom("user_roles")
    .innerJoin("users", "users.id", "user_roles.user_id")
    .select(["user_roles.role_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("user_roles.role_id", "in", ids)
    .where("users.is_active", "=", 1)
    .groupBy("user_roles.role_id")
    .execute();
  return roles.map((role) => ({
    ...role,
    permissions: permissions
      .filter((row) => row.role_id === role.id)
      .map((row) => row.permission)
      .sort(),
    users: Number(holders.find((row) => row.role_id === role.id)?.n ?? 0),
  }));
}

/** A role's name and permissions, checked; codes are translation keys under admin.roles.errors. */
export function checkRoleInput(
  input: { name: unknown; permissions: unknown },
  every: readonly string[],
): { ok: true; name: string; permissions: string[] } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name || name.length > 60) errors.name = ["admin.roles.errors.name"];
  const known = new Set(every);
  const permissions =
    Array.isArray(input.permissions) && input.permissions.every((entry) => typeof entry === "string")
      ? [...new Set(input.permissions as string[])]
      : null;
  if (!permissions || permissions.length === 0) errors.permissions = ["admin.roles.errors.permissions"];
  else if (!permissions.every((permission) => known.has(permission)))
    errors.permissions = ["admin.roles.errors.permission_unknown"];
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, name, permissions: permissions!.sort() };
}

function audit(db: DB, manager: Manager, action: string, role: { id: number; name: string }, ip?: string | null) {
  return recordAudit(db, {
    merchantId: manager.merchantId,
    actor: { id: manager.id, username: manager.username },
    action,
    params: { role: role.name },
    objectType: "role",
    objectId: role.id,
    ip: ip ?? null,
  });
}

async function nameTaken(db: DB, merchantId: number, name: string, except?: number) {
  const rows = await db.selectFrom("roles").select(["id", "name"]).where("merchant_id", "=", merchantId).execute();
  return rows.some((row) => row.id !== except && row.name.toLowerCase() === name.toLowerCase());
}

/**
 * Nobody gives more than they hold: a manager who is not a superuser makes, changes, deletes and
 * hands out only roles made of permissions they hold themselves, and never manage_merchant (which
 * would let its holders do the same). A refund right given this way would pass by the permission
 * requests a checker approves.
 */
export function mayGrant(manager: Pick<Manager, "is_superuser" | "permissions">, permissions: readonly string[]) {
  if (manager.is_superuser) return true;
  const held = new Set(manager.permissions ?? []);
  return permissions.every((permission) => permission !== "manage_merchant" && held.has(permission));
}

export async function createRole(
  db: DB,
  input: { manager: Manager; name: string; permissions: string[]; ip?: string | null },
): Promise<{ ok: true; role: RoleView } | Refusal> {
  if (!mayGrant(input.manager, input.permissions))
    return refuse("admin.roles.errors.superuser_only", { field: "permissions" });
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.manager.merchantId);
    if (await nameTaken(trx, input.manager.merchantId, input.name))
      return refuse("admin.roles.errors.name_taken", { field: "name" });
    const row = await trx
      .insertInto("roles")
      .values({ merchant_id: input.manager.merchantId, name: input.name, created_at: nowIso() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("role_permissions")
      .values(input.permissions.map((permission) => ({ role_id: row.id, permission })))
      .execute();
    await audit(trx, input.manager, "role_created", { id: row.id, name: input.name }, input.ip);
    return {
      ok: true as const,
      role: (await listRoles(trx, input.manager.merchantId)).find((role) => role.id === row.id)!,
    };
  });
}

export async function updateRole(
  db: DB,
  input: { manager: Manager; id: number; name: string; permissions: string[]; ip?: string | null },
): Promise<{ ok: true; role: RoleView } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const current = (await listRoles(trx, input.manager.merchantId)).find((role) => role.id === input.id);
    if (!current) return refuse("admin.roles.errors.not_found");
    if (!mayGrant(input.manager, [...input.permissions, ...current.permissions]))
      return refuse("admin.roles.errors.superuser_only", { field: "permissions" });
    if (await nameTaken(trx, input.manager.merchantId, input.name, current.id))
      return refuse("admin.roles.errors.name_taken", { field: "name" });
    await trx.updateTable("roles").set({ name: input.name }).where("id", "=", current.id).execute();
    await trx.deleteFrom("role_permissions").where("role_id", "=", current.id).execute();
    await trx
      .insertInto("role_permissions")
      .values(input.permissions.map((permission) => ({ role_id: current.id, permission })))
      .execute();
    await audit(trx, input.manager, "role_changed", { id: current.id, name: input.name }, input.ip);
    return {
      ok: true as const,
      role: (await listRoles(trx, input.manager.merchantId)).find((role) => role.id === current.id)!,
    };
  });
}

export async function deleteRole(
  db: DB,
  input: { manager: Manager; id: number; ip?: string | null },
): Promise<{ ok: true } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const current = (await listRoles(trx, input.manager.merchantId)).find((role) => role.id === input.id);
    if (!current) return refuse("admin.roles.errors.not_found");
    if (!mayGrant(input.manager, current.permissions)) return refuse("admin.roles.errors.superuser_only");
    await trx.deleteFrom("user_roles").where("role_id", "=", current.id).execute();
    await trx.deleteFrom("role_permissions").where("role_id", "=", current.id).execute();
    await trx.deleteFrom("roles").where("id", "=", current.id).execute();
    await audit(trx, input.manager, "role_deleted", current, input.ip);
    return { ok: true as const };
  });
}

/** The merchant's roles named by id or by name; unknown ones are listed. */
export async function resolveRoles(db: DB, merchantId: number, wanted: readonly (string | number)[]) {
  const roles = await listRoles(db, merchantId);
  const found: RoleView[] = [];
  const unknown: string[] = [];
  for (const entry of wanted) {
    const role = roles.find((candidate) =>
      typeof entry === "number"
        ? candidate.id === entry
        : candidate.name.toLowerCase() === entry.trim().toLowerCase() || String(candidate.id) === entry,
    );
    if (role) found.push(role);
    else unknown.push(String(entry));
  }
  return { roles: [...new Map(found.map((role) => [role.id, role])).values()], unknown };
}

export async function rolesOfUsers(db: DB, userIds: readonly number[]) {
  if (!userIds.length) return new Map<number, { id: number; name: string }[]>();
  const rows = await db
    .selectFrom("user_roles")
    .innerJoin("roles", "roles.id", "user_roles.role_id")
    .select(["user_roles.user_id", "roles.id", "roles.name"])
    .where("user_roles.user_id", "in", userIds)
    .orderBy("roles.name")
    .execute();
  const byUser = new Map<number, { id: number; name: string }[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), { id: row.id, name: row.name }]);
  return byUser;
}
