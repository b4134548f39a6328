import type { DB } from "./database.server";
import { hashPassword } from "~/domain/identity/password-hashing.server";
import type { Permission } from "~/domain/identity/permissions";
import { SECTIONS } from "~/domain/merchant/sections";
import { seedDemoGateways } from "~/domain/sandbox/demo-gateways.server";
import { nowIso } from "~/lib/clock.server";

export const DEMO_PASSWORD = "Demo@2026!";

type DemoUser = {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  superuser?: boolean;
  requiresOtp?: boolean;
  permissions: Permission[];
};

export const DEMO_USERS: DemoUser[] = [
  { username: "admin", email: "admin@demo-store.example", firstName: "Demo", lastName: "Admin", superuser: true, permissions: [] },
  {
    username: "staff",
    email: "staff@demo-store.example",
    firstName: "Sara",
    lastName: "Staff",
    permissions: ["view_paymenttransaction", "search_paymenttransaction"],
  },
  {
    username: "checker",
    email: "checker@demo-store.example",
    firstName: "Khaled",
    lastName: "Checker",
    permissions: [
      "view_paymenttransaction",
      "search_paymenttransaction",
      "view_paymenttransaction_statistics",
      "view_export_settings",
      "refund_paymenttransaction",
      "capture_paymenttransaction",
      "void_paymenttransaction",
      "approve_operations",
      "approve_permission_requests",
    ],
  },
  {
    username: "maker",
    email: "maker@demo-store.example",
    firstName: "Mona",
    lastName: "Maker",
    permissions: [
      "view_paymenttransaction",
      "search_paymenttransaction",
      "view_paymenttransaction_statistics",
      "refund_paymenttransaction",
      "capture_paymenttransaction",
      "void_paymenttransaction",
    ],
  },
  {
    username: "otpuser",
    email: "otpuser@demo-store.example",
    firstName: "Omar",
    lastName: "Code",
    requiresOtp: true,
    permissions: ["view_paymenttransaction", "search_paymenttransaction"],
  },
];

/** Creates a merchant with every section and feature available. Used by the demo seed and by tests. */
export async function createMerchant(
  db: DB,
  input: { name: string; titleEn: string; titleAr: string; operationsApproval?: boolean },
) {
  const created = nowIso();
  const merchant = await db
    .insertInto("merchants")
    .values({
      name: input.name,
      country_code: "KW",
      currency_code: "KWD",
      title: input.titleEn,
      title_en: input.titleEn,
      title_ar: input.titleAr,
      subheader: null,
      logo_url: "/brand/demo-logo.svg",
      favicon_url: "/favicon.svg",
      admin_url: null,
      website_url: null,
      operations_approval: input.operationsApproval ? 1 : 0,
      created_at: created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("units")
    .values({
      merchant_id: merchant.id,
      name: input.name,
      title_en: input.titleEn,
      title_ar: input.titleAr,
      logo_url: "/brand/demo-logo.svg",
      header_color: "#ffffff",
      is_default: 1,
      terms_en:
        "Payments are taken in Kuwaiti dinars. Orders are prepared once the payment is confirmed. Refunds are made to the card or account that paid, within 14 days of an accepted return.",
      terms_ar:
        "تُستوفى المدفوعات بالدينار الكويتي. تُجهَّز الطلبات بعد تأكيد الدفع. تُرد المبالغ إلى البطاقة أو الحساب الذي دفع خلال 14 يومًا من قبول الإرجاع.",
      created_at: created,
    })
    .execute();
  const features = SECTIONS.flatMap((section) => [
    { merchant_id: merchant.id, section: section.key, feature: "" },
    ...section.features.map((feature) => ({ merchant_id: merchant.id, section: section.key, feature: feature.key })),
  ]);
  await db.insertInto("merchant_features").values(features).execute();
  const plugins = SECTIONS.filter((section) => section.plugin).map((section) => ({
    merchant_id: merchant.id,
    plugin: section.plugin,
    installed_at: created,
  }));
  await db.insertInto("merchant_plugins").values(plugins).execute();
  return merchant.id;
}

export async function createUser(db: DB, merchantId: number, user: DemoUser, password = DEMO_PASSWORD) {
  const inserted = await db
    .insertInto("users")
    .values({
      merchant_id: merchantId,
      username: user.username,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      password_hash: await hashPassword(password),
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

/** The demo merchant of the README, made only when the database has no merchant at all. */
export async function seedDemoMerchantIfEmpty(db: DB) {
  const existing = await db.selectFrom("merchants").select(["id", "name"]).orderBy("id").limit(1).executeTakeFirst();
  if (existing) {
    // Demo databases made before a demo user was added get it too.
    if (existing.name === "Demo Store") {
      const names = new Set((await db.selectFrom("users").select("username").where("merchant_id", "=", existing.id).execute()).map((row) => row.username));
      for (const user of DEMO_USERS) if (!names.has(user.username)) await createUser(db, existing.id, user);
    }
    return false;
  }
  const merchantId = await createMerchant(db, {
    name: "Demo Store",
    titleEn: "Demo Store",
    titleAr: "المتجر التجريبي",
    operationsApproval: true,
  });
  for (const user of DEMO_USERS) await createUser(db, merchantId, user);
  await seedDemoGateways(db, merchantId);
  return true;
}
