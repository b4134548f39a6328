import type { DB } from "~/db/database.server";
import type { AvailableSections } from "~/domain/merchant/sections";

export type SessionUser = {
  id: number;
  merchantId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  is_superuser: number;
  receiveOrderNotification: boolean;
  permissions: string[];
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
    ])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user || !user.is_active) return undefined;
  const permissions = await db
    .selectFrom("user_permissions")
    .select("permission")
    .where("user_id", "=", userId)
    .orderBy("permission")
    .execute();
  return {
    id: user.id,
    merchantId: user.merchant_id,
    username: user.username,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    is_superuser: user.is_superuser,
    receiveOrderNotification: Boolean(user.receive_order_notification),
    permissions: permissions.map((row) => row.permission),
  };
}

export async function setOrderNotification(db: DB, user: { id: number; merchantId: number }, receive: boolean) {
  await db
    .updateTable("users")
    .set({ receive_order_notification: receive ? 1 : 0 })
    .where("id", "=", user.id)
    .where("merchant_id", "=", user.merchantId)
    .execute();
}

export async function loadMerchantBranding(db: DB, merchantId: number) {
  return db
    .selectFrom("merchants")
    .select(["id", "title", "title_en", "title_ar", "subheader", "logo_url", "favicon_url", "admin_url", "website_url"])
    .where("id", "=", merchantId)
    .executeTakeFirstOrThrow();
}

export async function loadAvailableSections(db: DB, merchantId: number): Promise<AvailableSections> {
  const rows = await db
    .selectFrom("merchant_features")
    .select(["section", "feature"])
    .where("merchant_id", "=", merchantId)
    .execute();
  const available: AvailableSections = {};
  for (const row of rows) {
    available[row.section] ??= [];
    if (row.feature) available[row.section].push(row.feature);
  }
  return available;
}

export async function loadInstalledPlugins(db: DB, merchantId: number): Promise<string[]> {
  const rows = await db.selectFrom("merchant_plugins").select("plugin").where("merchant_id", "=", merchantId).execute();
  return rows.map((row) => row.plugin);
}
