import type { DB } from "~/db/database.server";
import { requestOperation } from "~/domain/payments/operations.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import { KNET_TEST_CARDS, MPGS_TEST_CARDS, MPGS_TEST_EXPIRIES } from "~/domain/sandbox/test-cards";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { backgroundAddresses } from "~/web/addresses.server";
import { demoActivityEnabled } from "~/lib/env.server";

/**
 * The demo merchant's first morning of business, made the way its customers would make them: payment
 * requests, paid by card or KNET on the sandboxes' own pages, some declined or canceled there, some
 * refunded in part or in full by the merchant, some still waiting. Nothing is written behind the
 * platform's back: every figure on the dashboard, in the exports and in the reconciliation report
 * comes from the same flows as a real customer's. Runs once, in the worker, after the server listens.
 */
export const DEMO_ACTIVITY_JOB = "demo_activity";

type Outcome = "card" | "knet" | "declined" | "canceled" | "unpaid";
type Customer = { first: string; last: string; email?: string; phone?: string; lang: "en" | "ar" };
type Sale = {
  customer: Customer;
  amount: string;
  description: string;
  remarks?: string;
  outcome: Outcome;
  refund?: "part" | "all";
};

const SALES: Sale[] = [
  {
    customer: { first: "محمد", last: "العتيبي", email: "m.alotaibi@example.com", phone: "55012345", lang: "ar" },
    amount: "45.000",
    description: "تفصيل دشداشة صيفية - قطعتان",
    remarks: "المقاس: L~اللون: أبيض",
    outcome: "knet",
  },
  {
    customer: { first: "Fatima", last: "Al-Sabah", email: "fatima.sabah@example.com", phone: "66023456", lang: "en" },
    amount: "120.500",
    description: "Bridal henna session, deposit",
    outcome: "card",
    refund: "part",
  },
  {
    customer: { first: "نورة", last: "الرشيدي", email: "noura.r@example.com", phone: "99034567", lang: "ar" },
    amount: "18.750",
    description: "كيكة عيد ميلاد - شوكولاتة",
    outcome: "knet",
  },
  {
    customer: { first: "Abdullah", last: "Al-Mutairi", email: "abdullah.m@example.com", lang: "en" },
    amount: "250.000",
    description: "AC maintenance contract, 12 months",
    outcome: "card",
  },
  {
    customer: { first: "سارة", last: "الكندري", email: "sara.k@example.com", phone: "50045678", lang: "ar" },
    amount: "32.000",
    description: "اشتراك نادي رياضي - شهر",
    outcome: "declined",
  },
  {
    customer: { first: "Yousef", last: "Al-Ajmi", phone: "65056789", lang: "en" },
    amount: "75.250",
    description: "Car detailing, full package",
    outcome: "knet",
    refund: "all",
  },
  {
    customer: { first: "Mariam", last: "Haddad", email: "mariam.haddad@example.com", lang: "en" },
    amount: "9.500",
    description: "Online Arabic calligraphy class",
    outcome: "card",
  },
  {
    customer: { first: "خالد", last: "الشمري", email: "khaled.shammari@example.com", phone: "97067890", lang: "ar" },
    amount: "60.000",
    description: "صيانة مكيف سبليت",
    outcome: "canceled",
  },
  {
    customer: { first: "Dana", last: "Al-Saleh", email: "dana.saleh@example.com", phone: "51078901", lang: "en" },
    amount: "14.000",
    description: "Flower bouquet delivery to Salmiya",
    remarks: "Card message: Happy anniversary~Delivery: Friday 4 pm",
    outcome: "card",
  },
  {
    customer: { first: "عبدالرحمن", last: "البناي", email: "a.albannai@example.com", lang: "ar" },
    amount: "300.000",
    description: "دفعة أولى - تصميم ديكور مجلس",
    outcome: "unpaid",
  },
  {
    customer: { first: "Hessa", last: "Al-Fahad", email: "hessa.f@example.com", phone: "60089012", lang: "en" },
    amount: "22.500",
    description: "Perfume gift set",
    outcome: "knet",
    refund: "part",
  },
  {
    customer: { first: "Ahmed", last: "Mansour", email: "ahmed.mansour@example.com", lang: "en" },
    amount: "85.000",
    description: "Laptop screen replacement",
    outcome: "declined",
  },
  {
    customer: { first: "لولوة", last: "الصباح", email: "lulwa@example.com", phone: "55090123", lang: "ar" },
    amount: "40.000",
    description: "حجز جلسة تصوير عائلية",
    outcome: "card",
  },
  {
    customer: { first: "Bader", last: "Al-Enezi", phone: "66001234", lang: "en" },
    amount: "12.000",
    description: "Football academy, monthly fee",
    outcome: "unpaid",
  },
  {
    customer: { first: "ريم", last: "العنزي", email: "reem.enezi@example.com", lang: "ar" },
    amount: "27.300",
    description: "طلب عطور - ثلاث قطع",
    outcome: "knet",
  },
  {
    customer: { first: "Omar", last: "Al-Hajri", email: "omar.hajri@example.com", phone: "99012345", lang: "en" },
    amount: "150.000",
    description: "Catering for 20 guests",
    outcome: "card",
  },
];

const form = (origin: string) => ({ Origin: origin, "Content-Type": "application/x-www-form-urlencoded" });

async function post(url: string, origin: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: "POST",
    headers: form(origin),
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  const location = response.headers.get("Location");
  return { status: response.status, location: location ? new URL(location, url).href : null };
}

/** Pay Now on the pay page with a gateway, the sandbox's page, and the way back to the platform. */
async function payOnGateway(base: string, transactionId: string, lang: "en" | "ar", sale: Sale) {
  const gateway = sale.outcome === "knet" || sale.outcome === "canceled" ? "knet-sandbox" : "mpgs-sandbox";
  const payNow = await post(`${base}/${lang}/pay/${transactionId}`, base, {
    gateway_code: gateway,
    submission_token: `demo-${transactionId}`,
  });
  if (payNow.status !== 303 || !payNow.location) throw new Error(`Pay Now answered ${payNow.status}`);
  // The gateway's entry point sends the browser on to its payment page.
  let page = new URL(payNow.location);
  for (let hops = 0; hops < 5; hops++) {
    const response = await fetch(page, { redirect: "manual" });
    const next = response.headers.get("Location");
    if (!next) break;
    page = new URL(next, page);
  }
  const fields: Record<string, string> =
    gateway === "knet-sandbox"
      ? sale.outcome === "canceled"
        ? { intent: "cancel" }
        : { intent: "submit", cardNumber: KNET_TEST_CARDS.captured, pin: "1234" }
      : {
          cardNumber: MPGS_TEST_CARDS.mastercard,
          expiry: sale.outcome === "declined" ? MPGS_TEST_EXPIRIES.declined : MPGS_TEST_EXPIRIES.approved,
          cvv: "100",
        };
  const submitted = await post(page.href, page.origin, fields);
  if (submitted.status !== 303 || !submitted.location)
    throw new Error(`the ${gateway} page answered ${submitted.status}`);
  await fetch(submitted.location, { redirect: "manual" });
}

export async function runDemoActivity(db: DB, payload: { merchantId: number; userId: number }) {
  // Only where the sandboxes are on: never a real gateway, never a real customer.
  if (!demoActivityEnabled()) return;
  const user = await loadSessionUser(db, payload.userId);
  if (!user) return;
  // Run before (a retry after a crash): what was made stays, and is not made twice.
  const made = await db
    .selectFrom("transactions")
    .select("description")
    .where("merchant_id", "=", payload.merchantId)
    .execute();
  const done = new Set(made.map((row) => row.description));
  const addresses = backgroundAddresses();
  for (const sale of SALES) {
    if (done.has(sale.description)) continue;
    const created = await createPaymentRequest(db, {
      merchantId: payload.merchantId,
      user,
      request: PaymentRequestSchema.parse({
        amount: sale.amount,
        pg_codes: "knet-sandbox,mpgs-sandbox",
        customer_first_name: sale.customer.first,
        customer_last_name: sale.customer.last,
        customer_email: sale.customer.email,
        customer_phone: sale.customer.phone,
        customer_phone_country: sale.customer.phone ? "KW" : undefined,
        description: sale.description,
        remarks: sale.remarks,
      }),
      baseUrl: addresses.publicBaseUrl,
      lang: sale.customer.lang,
    });
    if (!created.ok) throw new Error(`demo activity: ${JSON.stringify(created.errors)}`);
    const id = created.transaction.id;
    if (sale.outcome !== "unpaid") await payOnGateway(addresses.internalBaseUrl, id, sale.customer.lang, sale);
    if (sale.refund) {
      const amount = sale.refund === "all" ? null : (Number(sale.amount) / 4).toFixed(3);
      await requestOperation(db, {
        merchantId: payload.merchantId,
        actor: user,
        transactionId: id,
        kind: "refund",
        amount,
        addresses,
      });
    }
  }
}
