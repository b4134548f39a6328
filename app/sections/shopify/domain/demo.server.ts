import { errorField, log } from "~/lib/log.server";
import type { DB } from "~/db/database.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import { demoActivityEnabled } from "~/lib/env.server";
import { saveConnection } from "./connection.server";
import { handOverSession, PaymentSessionSchema } from "./sessions.server";

/** The job the section declares as its demo data (section.ts `demoJob`), queued by the demo seed. */
export const DEMO_SHOPIFY_JOB = "shopify_demo";

const SHOP = "demo-souq.myshopify.com";

const SESSIONS = [
  {
    pay: true,
    lang: "ar" as const,
    id: "rFp8Zq2LwY4nUe1D",
    group: "c1-7781",
    amount: "42.500",
    email: "hessa.alajmi@example.com",
    phone: "+96555123456",
    given: "حصة",
    family: "العجمي",
  },
  {
    pay: true,
    lang: "en" as const,
    id: "tKe3Xa9PmB6vRo2H",
    group: "c1-7784",
    amount: "17.250",
    email: "omar.qabazard@example.com",
    phone: "+96566234567",
    given: "Omar",
    family: "Qabazard",
  },
  {
    pay: false,
    lang: "en" as const,
    id: "wNc5Ud7JhS1gLi8T",
    group: "c1-7790",
    amount: "88.000",
    email: "dana.m@example.com",
    phone: "+96599345678",
    given: "Dana",
    family: "Al-Mutairi",
  },
];

/**
 * The demo merchant's connected shop (demo-souq.myshopify.com) and three payment sessions it
 * handed over, two paid by card on the sandbox's page where the sandboxes run. Run again, it makes
 * nothing twice: the connection stays, and a session's id answers the same transaction.
 */
export async function seedDemoShop(
  db: DB,
  payload: { merchantId: number; userId: number },
  platform: { pay: (transactionId: string, lang: "en" | "ar") => Promise<void> },
) {
  const user = await loadSessionUser(db, payload.userId);
  if (!user) return;
  const connected = await db
    .selectFrom("shopify_connections")
    .select("merchant_id")
    .where("merchant_id", "=", payload.merchantId)
    .executeTakeFirst();
  if (!connected) {
    await saveConnection(db, {
      merchantId: payload.merchantId,
      manager: { id: user.id, username: user.username },
      values: { shop_domain: SHOP, callback_url: "https://hooks.demo-souq.example/payments/callback" },
    });
  }
  for (const demo of SESSIONS) {
    const session = PaymentSessionSchema.parse({
      id: demo.id,
      gid: `gid://shopify/PaymentSession/${demo.id}`,
      group: demo.group,
      amount: demo.amount,
      currency: "KWD",
      test: true,
      kind: "sale",
      customer: {
        email: demo.email,
        phone_number: demo.phone,
        billing_address: { given_name: demo.given, family_name: demo.family, city: "Kuwait City", country_code: "KW" },
      },
      payment_method: { type: "offsite" },
      cancel_url: `https://${SHOP}/checkouts/${demo.group}?canceled=1`,
      return_url: `https://${SHOP}/checkouts/${demo.group}/thank_you`,
    });
    const outcome = await handOverSession(db, { merchantId: payload.merchantId, userId: user.id, session });
    if (!outcome.ok) throw new Error(`demo shop session: ${JSON.stringify(outcome.errors)}`);
    // Paid only where the sandboxes answer, and only once.
    if (demo.pay && !outcome.replayed && demoActivityEnabled()) {
      try {
        await platform.pay(outcome.session.transactionId, demo.lang);
      } catch (error) {
        log.warn({ error: errorField(error) }, "demo shop: a payment was left unpaid");
      }
    }
  }
}
