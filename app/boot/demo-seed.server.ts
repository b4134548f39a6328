import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { createUser, type NewUserInput } from "~/domain/identity/users.server";
import { createMerchant } from "~/domain/merchants/merchants.server";
import { seedDemoGateways } from "~/domain/sandbox/demo-gateways.server";
import { demoActivityEnabled } from "~/lib/env.server";
import { enqueueJob } from "~/lib/jobs.server";
import { DEMO_ACTIVITY_JOB } from "./demo-activity.server";
import { SECTIONS, sectionsForNewMerchant } from "~/sections/registry";

export const DEMO_PASSWORD = "Demo@2026!";

export const DEMO_USERS: NewUserInput[] = [
  {
    username: "admin",
    email: "admin@demo-store.example",
    firstName: "Demo",
    lastName: "Admin",
    superuser: true,
    permissions: [],
  },
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

/** The demo merchant of the README, made only when the database has no merchant at all. */
export async function seedDemoMerchantIfEmpty(db: DB, password: string | { hash: string } = DEMO_PASSWORD) {
  const existing = await db.selectFrom("merchants").select(["id", "name"]).orderBy("id").limit(1).executeTakeFirst();
  if (existing) {
    // Demo databases made before a demo user was added get it too.
    if (existing.name === "Demo Store") {
      const names = new Set(
        (await db.selectFrom("users").select("username").where("merchant_id", "=", existing.id).execute()).map(
          (row) => row.username,
        ),
      );
      for (const user of DEMO_USERS) if (!names.has(user.username)) await createUser(db, existing.id, user, password);
    }
    return false;
  }
  const merchantId = await createMerchant(db, {
    name: "Demo Store",
    titleEn: "Demo Store",
    titleAr: "المتجر التجريبي",
    operationsApproval: true,
    sections: sectionsForNewMerchant(),
    contact: { email: "care@demo-store.example", phone: "+96522200300" },
  });
  const userIds: number[] = [];
  for (const user of DEMO_USERS) userIds.push(await createUser(db, merchantId, user, password));
  // The demo's administrator also runs the installation: the operator page creates further merchants.
  await db.updateTable("users").set({ is_operator: 1 }).where("id", "=", userIds[0]).execute();
  // The checker's and the maker's rights, as the roles the panel shows them by.
  for (const username of ["checker", "maker"]) {
    const index = DEMO_USERS.findIndex((user) => user.username === username);
    const role = await db
      .insertInto("roles")
      .values({ merchant_id: merchantId, name: username === "checker" ? "Checker" : "Maker", created_at: nowIso() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("role_permissions")
      .values(DEMO_USERS[index].permissions.map((permission) => ({ role_id: role.id, permission })))
      .execute();
    await db.insertInto("user_roles").values({ user_id: userIds[index], role_id: role.id }).execute();
  }
  await seedDemoGateways(db, merchantId);
  // A checkout field on the pay page of payment requests, optional, so the administration's checkout fields can be tried.
  await db
    .insertInto("checkout_fields")
    .values({
      merchant_id: merchantId,
      section: "payment_request",
      name: "reference_number",
      label_en: "Reference number",
      label_ar: "الرقم المرجعي",
      placeholder_en: "Your reference with us, if you have one",
      placeholder_ar: "رقمك المرجعي لدينا إن وُجد",
      validator: "digits",
      required: 0,
      max_length: 20,
      position: 1,
      is_active: 1,
      created_at: nowIso(),
      updated_at: nowIso(),
    })
    .execute();
  // A second brand of the demo merchant, so the units page and a unit's own branding can be tried.
  await db
    .insertInto("units")
    .values({
      merchant_id: merchantId,
      name: "Demo Café",
      title_en: "Demo Café Salmiya",
      title_ar: "مقهى المتجر التجريبي - السالمية",
      logo_url: null,
      header_color: "#3e2723",
      website: "https://cafe.demo-store.example",
      instagram_url: "https://instagram.com/democafe.kw",
      twitter_url: null,
      facebook_url: null,
      show_unit_title: 1,
      is_default: 0,
      terms_en:
        "Orders are prepared fresh once the payment is confirmed and can be collected at the counter in Salmiya. Paid orders cannot be canceled once preparation has started.",
      terms_ar:
        "تُحضَّر الطلبات طازجة بعد تأكيد الدفع ويمكن استلامها من الكاونتر في السالمية. لا يمكن إلغاء الطلبات المدفوعة بعد بدء تحضيرها.",
      created_at: nowIso(),
    })
    .execute();
  // Each section's own demo data (the events section's paid and free events), made through its own rules once the platform is wired.
  for (const section of SECTIONS)
    if (section.built && section.demoJob)
      await enqueueJob(db, section.demoJob, { merchantId, userId: userIds[0] }, { maxAttempts: 3 });
  if (demoActivityEnabled())
    await enqueueJob(db, DEMO_ACTIVITY_JOB, { merchantId, userId: userIds[0] }, { maxAttempts: 3 });
  return true;
}
