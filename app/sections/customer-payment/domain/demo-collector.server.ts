import { errorField, log } from "~/lib/log.server";
import type { DB } from "~/db/database.server";
import { demoActivityEnabled } from "~/lib/env.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import type { z } from "zod";
import { CollectorSchema } from "./collector-schema";
import { createCollectorPayment, type CollectPaymentSchema } from "./collect.server";
import { getCollector, saveCollector } from "./collectors.server";
import { findRestrictions, saveRestrictions } from "./restrictions.server";

/** The job the section declares as its demo data (section.ts `demoJob`), queued by the demo seed. */
export const DEMO_COLLECTOR_JOB = "collect_demo";

const TITLE_EN = "Pay your invoice";

const PAYMENTS: (z.input<typeof CollectPaymentSchema> & { lang: "en" | "ar"; pay: boolean })[] = [
  {
    lang: "ar",
    pay: true,
    amount: "35.000",
    gateway_code: "mpgs-sandbox",
    customer_name: "منيرة الفضلي",
    customer_phone: "55011223",
    customer_email: "munira@example.com",
    reference: "INV-2041",
    extra: {},
  },
  {
    lang: "en",
    pay: true,
    amount: "120.750",
    gateway_code: "mpgs-sandbox",
    customer_name: "Jassim Al-Kandari",
    customer_phone: "66022334",
    reference: "INV-2042",
    extra: {},
  },
  {
    lang: "en",
    pay: false,
    amount: "18.500",
    gateway_code: "knet-sandbox",
    customer_name: "Layla Haddad",
    customer_phone: "99033445",
    customer_email: "layla.h@example.com",
    reference: "INV-2043",
    extra: {},
  },
];

/**
 * The demo merchant's collector page "Pay your invoice" (an invoice number asked, KNET and card,
 * between 1 and 500 KWD, at most 1,000 KWD a customer a day) and three customers' payments through
 * it, two paid by card on the sandbox's page where the sandboxes run. Made through the section's own
 * rules; run again (after a failure halfway too), it makes what is missing and nothing twice: the
 * merchant's restrictions when they have none, the page when it is not there, the payments not yet made.
 */
export async function seedDemoCollector(
  db: DB,
  payload: { merchantId: number; userId: number },
  platform: { baseUrl: string; pay: (transactionId: string, lang: "en" | "ar") => Promise<void> },
) {
  const user = await loadSessionUser(db, payload.userId);
  if (!user) return;
  const actor = { id: user.id, username: user.username };
  if (!(await findRestrictions(db, payload.merchantId, null))) {
    const restricted = await saveRestrictions(db, {
      merchantId: payload.merchantId,
      collectorId: null,
      actor,
      input: {
        currencies: ["KWD"],
        gateways: ["knet-sandbox", "mpgs-sandbox"],
        limits: { KWD: { min: "1.000", max: "500.000", daily_cap: "1000.000" } },
      },
    });
    if (!restricted.ok) throw new Error(`demo collector restrictions: ${JSON.stringify(restricted.errors)}`);
  }
  const exists = await db
    .selectFrom("customer_payment_collectors")
    .select("id")
    .where("merchant_id", "=", payload.merchantId)
    .where("title_en", "=", TITLE_EN)
    .orderBy("id")
    .executeTakeFirst();
  let collector = exists ? await getCollector(db, payload.merchantId, exists.id) : undefined;
  if (!collector) {
    const saved = await saveCollector(db, {
      merchantId: payload.merchantId,
      actor,
      input: CollectorSchema.parse({
        title_en: TITLE_EN,
        title_ar: "ادفع فاتورتك",
        description_en:
          "Settle an invoice from Demo Store: enter the amount on your invoice and its number. Your receipt is e-mailed to you.",
        description_ar:
          "سدّد فاتورة من المتجر التجريبي: أدخل المبلغ المذكور في فاتورتك ورقمها. يصلك الإيصال على بريدك الإلكتروني.",
        name_field: "required",
        email_field: "optional",
        phone_field: "required",
        reference_field: "required",
        text_fields: [{ label_en: "Notes for us", label_ar: "ملاحظات لنا", required: false }],
        is_active: "on",
      }),
    });
    if (!saved.ok) throw new Error(`demo collector: ${JSON.stringify(saved.errors)}`);
    collector = saved.collector;
  }
  // The payments already made are the first ones of the list: made in order, one at a time.
  const made = await db
    .selectFrom("customer_payments")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("collector_id", "=", collector.id)
    .executeTakeFirstOrThrow();
  for (const payment of PAYMENTS.slice(Number(made.count))) {
    const { lang, pay, ...input } = payment;
    const outcome = await createCollectorPayment(db, {
      collector,
      input: { ...input, amount: input.amount ?? "", extra: input.extra ?? {} },
      lang,
      baseUrl: platform.baseUrl,
    });
    if (!outcome.ok) throw new Error(`demo collector payment: ${JSON.stringify(outcome)}`);
    // Paid only where the sandboxes answer: never a real gateway, never a real customer.
    if (pay && demoActivityEnabled()) {
      try {
        await platform.pay(outcome.transaction.id, lang);
      } catch (error) {
        log.warn({ error: errorField(error) }, "demo collector: a payment was left unpaid");
      }
    }
  }
}
