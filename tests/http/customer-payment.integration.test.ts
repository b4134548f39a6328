import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import ar from "../../locales/ar/common.json";
import { formatAmount } from "~/lib/money";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startAttempt } from "~/domain/payments/attempts.server";
import { createTestCollector, qrCodesInPdf, setTestRestrictions } from "../support/collect-fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Customers pay a merchant's collector page with JavaScript off: what the payment restrictions refuse
// is said under the field it concerns, in English and Arabic, with what was typed kept. Staff set up
// the pages and the restrictions with plain forms; the API answers the same rules.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let collector: { id: number; publicId: string };

const API = "/api/v1/plugins/customer_payment";
const catalogs = { en, ar } as const;

/** A locale text with its {{values}} filled in, as the server writes it. */
function text(lang: "en" | "ar", key: string, values: Record<string, string> = {}) {
  const found = key.split(".").reduce<any>((node, part) => node?.[part], catalogs[lang]);
  if (typeof found !== "string") throw new Error(`no text ${key}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name]);
}

const addresses = { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" };
const escape = (value: string) =>
  value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const inputValue = (html: string, name: string) => {
  const tag = new RegExp(`<input[^>]*name="${name.replace(/\./g, "\\.")}"[^>]*>`).exec(html)?.[0];
  return tag ? (/ value="([^"]*)"/.exec(tag)?.[1] ?? "") : null;
};
const errorUnder = (html: string, field: string) =>
  new RegExp(`id="field-${field.replace(/\./g, "\\.")}-error">([^<]*)<`).exec(html)?.[1] ?? null;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await createUser(database.db, alpha.merchantId, {
    username: "alpha-viewer",
    email: "viewer@alpha.example",
    firstName: "View",
    lastName: "Er",
    permissions: ["view_collector", "view_paymenttransaction"],
  });
  collector = await createTestCollector(database.db, {
    merchantId: alpha.merchantId,
    phone_field: "optional",
    reference_field: "required",
    text_fields: [{ name: "fclass", label_en: "Student class", label_ar: "الصف الدراسي", required: false }],
  });
  await setTestRestrictions(database.db, {
    merchantId: alpha.merchantId,
    gateways: ["knet-sandbox", "mpgs-sandbox"],
    limits: { KWD: { min: 1_000, max: 100_000, daily_cap: 150_000 } },
  });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

const page = (lang: "en" | "ar" = "en", id = collector.publicId) => `/${lang}/pay/collect/${id}`;
const pay = (fields: Record<string, string>, lang: "en" | "ar" = "en", id = collector.publicId) =>
  app.request(page(lang, id), {
    form: {
      amount: "10.000",
      currency_code: "KWD",
      gateway_code: "knet-sandbox",
      customer_name: "Sara Ali",
      customer_phone: "50001234",
      reference: "INV-1",
      ...fields,
    },
  });

describe("the collector page", () => {
  it("is plain HTML in English and Arabic, reached at /:lang/pay/collect/:collectorId past the pay page's own handler", async () => {
    const english = await app.request(page("en"));
    expect(english.status).toBe(200);
    const html = await english.text();
    expect(html).toContain("Pay your invoice");
    expect(html).toContain(text("en", "collect_public.fields.reference"));
    expect(html).toContain("Student class");
    expect(html).toContain(
      text("en", "collect_public.range", {
        min: formatAmount(1_000, "KWD", "en"),
        max: formatAmount(100_000, "KWD", "en"),
      }),
    );
    expect(html).not.toMatch(/<script[^>]*src=/);
    expect(html).not.toContain("cash on delivery");
    const arabic = await (await app.request(page("ar"))).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain("ادفع فاتورتك");
    expect(arabic).toContain("الصف الدراسي");
    expect(arabic).toContain(text("ar", "collect_public.continue"));
    // The pay page's direct handler takes /en/pay/<22 characters> only; this page goes to the router.
    await expect(app.requestPayPage(page("en"))).rejects.toThrow(/does not serve/);
  });

  it("refuses an amount outside the restrictions, under the amount field, naming the limit, and keeps what was typed", async () => {
    for (const lang of ["en", "ar"] as const) {
      const below = await pay({ amount: "0.500", customer_name: "نورة" }, lang);
      expect(below.status).toBe(400);
      const html = await below.text();
      expect(errorUnder(html, "amount")).toBe(
        escape(text(lang, "collect_public.errors.below_min", { min: formatAmount(1_000, "KWD", lang) })),
      );
      expect(html).toContain('value="0.500"');
      expect(html).toContain('value="نورة"');
      expect(html).toContain('value="INV-1"');
      const above = await (await pay({ amount: "250" }, lang)).text();
      expect(errorUnder(above, "amount")).toBe(
        escape(text(lang, "collect_public.errors.above_max", { max: formatAmount(100_000, "KWD", lang) })),
      );
      const notNumber = await (await pay({ amount: "-3" }, lang)).text();
      expect(errorUnder(notNumber, "amount")).toBe(text(lang, "pay.errors.positive_number"));
    }
    expect(
      await database.db
        .selectFrom("customer_payments")
        .select("transaction_id")
        .where("collector_id", "=", collector.id)
        .execute(),
    ).toEqual([]);
  });

  it("refuses a currency or a payment method the restrictions do not allow, and a missing required answer, each under its field", async () => {
    const currency = await (await pay({ currency_code: "USD" })).text();
    expect(errorUnder(currency, "currency_code")).toBe(text("en", "collect_public.errors.currency"));
    expect(errorUnder(currency, "gateway_code")).toBeNull();
    const method = await (await pay({ gateway_code: "cod" }, "ar")).text();
    expect(errorUnder(method, "gateway_code")).toBe(text("ar", "collect_public.errors.gateway"));
    expect(method).toMatch(/<fieldset[^>]*aria-describedby="field-gateway_code-error"/);
    const missing = await (await pay({ reference: "", customer_phone: "12" })).text();
    expect(errorUnder(missing, "reference")).toBe(text("en", "errors.required"));
    expect(errorUnder(missing, "customer_phone")).toBe(text("en", "errors.invalid_phone"));
  });

  it("takes a payment within the restrictions to the pay page, and refuses one past the customer's daily cap", async () => {
    const paid = await pay({ amount: "100.000", customer_email: "sara@example.com", "extra.fclass": "5B" });
    expect(paid.status).toBe(303);
    const location = paid.headers.get("Location")!;
    expect(location).toMatch(/^\/en\/pay\/[0-9A-Za-z]{22}$/);
    const payPage = await app.requestPayPage(location);
    expect(payPage.status).toBe(200);
    const payHtml = await payPage.text();
    expect(payHtml).toContain("100.000");
    expect(payHtml).toContain("Student class");
    // The customer starts paying it; the same customer (the same phone, written another way) has 50 KWD left today.
    await startAttempt(database.db, {
      plugins: ["customer_payment"],
      transactionId: location.split("/").pop()!,
      gatewayCode: "knet-sandbox",
      submissionToken: "cap",
      lang: "en",
      addresses,
    });
    const over = await pay({ amount: "60.000", customer_phone: "+965 5000 1234" }, "ar");
    expect(over.status).toBe(400);
    expect(errorUnder(await over.text(), "amount")).toBe(
      escape(
        text("ar", "collect_public.errors.daily_cap", {
          cap: formatAmount(150_000, "KWD", "ar"),
          left: formatAmount(50_000, "KWD", "ar"),
        }),
      ),
    );
    expect((await pay({ amount: "50.000" })).status).toBe(303);
  });

  it("makes one payment of a form sent twice, and a new one when the customer goes back and corrects the amount", async () => {
    const form = await (await app.request(page("en"))).text();
    const token = /name="submission_token" value="([^"]+)"/.exec(form)?.[1];
    expect(token).toMatch(/^[0-9A-Za-z]{22}$/);
    // Another showing of the form has another token.
    expect(await (await app.request(page("en"))).text()).not.toContain(token!);
    const fields = { amount: "12.000", customer_phone: "97001234", submission_token: token! };
    const [first, second] = await Promise.all([pay(fields), pay(fields)]);
    expect(first.status).toBe(303);
    expect(second.status).toBe(303);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    const made = () =>
      database.db
        .selectFrom("customer_payments")
        .select("transaction_id")
        .where("customer_key", "=", "+96597001234")
        .execute();
    expect(await made()).toHaveLength(1);
    // Back from the pay page, the same form with another amount: a new link, the unpaid one ended.
    const corrected = await pay({ ...fields, amount: "13.000" });
    expect(corrected.status).toBe(303);
    expect(corrected.headers.get("Location")).not.toBe(first.headers.get("Location"));
    expect(await made()).toHaveLength(2);
    const earlier = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", first.headers.get("Location")!.split("/").pop()!)
      .executeTakeFirstOrThrow();
    expect(earlier.state).toBe("expired");
  });

  it("limits the payments one address makes through one page, not the refusals it is shown nor its other pages", async () => {
    // Another merchant's pages, so that these payments stay out of the other tests' lists.
    const busy = await createTestCollector(database.db, {
      merchantId: beta.merchantId,
      title_en: "Parking",
      reference_field: "required",
    });
    const other = await createTestCollector(database.db, {
      merchantId: beta.merchantId,
      title_en: "Parking",
      reference_field: "required",
    });
    await setTestRestrictions(database.db, { merchantId: beta.merchantId, limits: { KWD: { min: 1_000 } } });
    const from = (ip: string, fields: Record<string, string>, id = busy.publicId) =>
      app.request(page("en", id), {
        ip,
        form: {
          amount: "1.000",
          currency_code: "KWD",
          gateway_code: "knet-sandbox",
          customer_name: "Sara Ali",
          reference: "INV-1",
          ...fields,
        },
      });
    // A customer who gets the amount wrong many times is told so each time.
    for (let i = 0; i < 70; i++)
      expect((await from("10.9.9.9", { amount: "0.100", customer_phone: "60001000" })).status).toBe(400);
    // Thirty payments from one shop's address go through; the next waits.
    for (let i = 0; i < 30; i++)
      expect((await from("10.9.9.9", { customer_phone: `6100${String(i).padStart(4, "0")}` })).status).toBe(303);
    const throttled = await from("10.9.9.9", { customer_phone: "62000000" });
    expect(throttled.status).toBe(429);
    expect(await throttled.text()).toContain(escape(text("en", "collect_public.errors.throttled")));
    // The same address on another page, and another address on this one, still pay.
    expect((await from("10.9.9.9", { customer_phone: "62000001" }, other.publicId)).status).toBe(303);
    expect((await from("10.9.9.10", { customer_phone: "62000002" })).status).toBe(303);
  });

  it("says a collector outside its days is not accepting payments, and answers 404 for one turned off or unknown", async () => {
    const closed = await createTestCollector(database.db, { merchantId: alpha.merchantId });
    await setTestRestrictions(database.db, {
      merchantId: alpha.merchantId,
      collectorId: closed.id,
      active_from: "2099-01-01",
    });
    const response = await app.request(page("en", closed.publicId));
    expect(response.status).toBe(423);
    const html = await response.text();
    expect(html).toContain(text("en", "collect_public.closed"));
    expect(html).not.toContain('name="amount"');
    const refused = await pay({}, "en", closed.publicId);
    expect(refused.status).toBe(303);
    // Back to the page, which says why.
    expect(refused.headers.get("Location")).toBe(page("en", closed.publicId));
    expect(
      await database.db
        .selectFrom("customer_payments")
        .select("transaction_id")
        .where("collector_id", "=", closed.id)
        .execute(),
    ).toEqual([]);
    const off = await createTestCollector(database.db, { merchantId: alpha.merchantId, is_active: false });
    expect((await app.request(page("en", off.publicId))).status).toBe(404);
    expect((await pay({}, "en", off.publicId)).status).toBe(404);
    expect((await app.request(page("en", "A".repeat(22)))).status).toBe(404);
  });
});

describe("the public API", () => {
  it("OPTIONS create/{collector_id} says what the form needs", async () => {
    const response = await app.request(`${API}/create/${collector.publicId}`, { method: "OPTIONS" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, any>;
    expect(body).toMatchObject({
      id: collector.publicId,
      title_en: "Pay your invoice",
      title_ar: "ادفع فاتورتك",
      accepting_payments: true,
      default_currency: "KWD",
      currencies: [{ currency_code: "KWD", min_amount: "1.000", max_amount: "100.000", daily_cap: "150.000" }],
      daily_cap_key: "customer_phone",
    });
    expect(body.fields).toEqual([
      { name: "customer_name", type: "name", label_en: "Full name", label_ar: "الاسم الكامل", required: true },
      { name: "customer_email", type: "email", label_en: "Email", label_ar: "البريد الإلكتروني", required: false },
      { name: "customer_phone", type: "phone", label_en: "Phone number", label_ar: "رقم الهاتف", required: true },
      { name: "reference", type: "reference", label_en: "Reference", label_ar: "الرقم المرجعي", required: true },
      { name: "extra.fclass", type: "text", label_en: "Student class", label_ar: "الصف الدراسي", required: false },
    ]);
    expect(body.gateways.map((gateway: { gateway_code: string }) => gateway.gateway_code)).toEqual([
      "knet-sandbox",
      "mpgs-sandbox",
    ]);
    expect((await app.request(`${API}/create/${"B".repeat(22)}`, { method: "OPTIONS" })).status).toBe(404);
  });

  it("POST create/{collector_id} answers 201 with the pay URL, or 400 with the fields' errors in the caller's language", async () => {
    const body = {
      amount: "20.000",
      gateway_code: "mpgs-sandbox",
      customer_name: "Omar",
      customer_phone: "66001122",
      reference: "INV-9",
      extra: { fclass: "3A" },
    };
    const created = await app.request(`${API}/create/${collector.publicId}`, {
      json: body,
      headers: { "Idempotency-Key": "collect-1" },
    });
    expect(created.status).toBe(201);
    const answer = (await created.json()) as Record<string, any>;
    expect(answer).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Za-z]{22}$/),
      order_no: expect.any(Number),
      amount: "20.000",
      currency_code: "KWD",
      state: "created",
    });
    expect(answer.pay_url).toMatch(new RegExp(`/en/pay/${answer.id}$`));
    const again = await app.request(`${API}/create/${collector.publicId}`, {
      json: body,
      headers: { "Idempotency-Key": "collect-1" },
    });
    expect(((await again.json()) as { id: string }).id).toBe(answer.id);

    const refused = await app.request(`${API}/create/${collector.publicId}`, {
      json: { ...body, amount: "0.100", extra: { fclass: "x".repeat(501) } },
      headers: { "Accept-Language": "ar" },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ extra: { fclass: [text("ar", "errors.too_long")] } });
    const low = await app.request(`${API}/create/${collector.publicId}?lang=ar`, {
      json: { ...body, amount: "0.100" },
    });
    expect(await low.json()).toEqual({
      amount: [text("ar", "collect_public.errors.below_min", { min: formatAmount(1_000, "KWD", "ar") })],
    });

    // The transaction is the section's: its API details carry the collector and the reference.
    const token = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
    const details = await app.request(`${API}/transaction/details/${answer.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(details.status).toBe(200);
    expect(JSON.stringify(await details.json())).toContain(`"collector_id":"${collector.publicId}"`);
    // Staff read the collector once, as its labelled row, not again among the transaction's stored details.
    const page = await (
      await app.request(`/en/customer-payment/transactions/${answer.id}`, {
        cookie: await app.signIn(alpha.admin.username, DEMO_PASSWORD),
      })
    ).text();
    expect(page).toContain(`>${text("en", "collectors.details.collector_page")}<`);
    expect(page).not.toContain(">collector<");
  });

  it("keeps a caller's Idempotency-Key apart from the merchant's own keys", async () => {
    // The merchant's own integration used the key "order-7" for something else.
    await database.db
      .insertInto("idempotency_keys")
      .values({
        merchant_id: alpha.merchantId,
        key: "order-7",
        scope: "payment_request.create",
        request_hash: "0".repeat(64),
        response_status: 201,
        response_body: JSON.stringify({ id: "the merchant's own" }),
        created_at: new Date().toISOString(),
        locked_until: null,
      })
      .execute();
    const body = {
      amount: "5.000",
      gateway_code: "knet-sandbox",
      customer_name: "Omar",
      customer_phone: "66009988",
      reference: "INV-10",
    };
    const created = await app.request(`${API}/create/${collector.publicId}`, {
      json: body,
      headers: { "Idempotency-Key": "order-7" },
    });
    expect(created.status).toBe(201);
    const answer = (await created.json()) as { id: string };
    expect(answer.id).toMatch(/^[0-9A-Za-z]{22}$/);
    const again = await app.request(`${API}/create/${collector.publicId}`, {
      json: body,
      headers: { "Idempotency-Key": "order-7" },
    });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await again.json()) as { id: string }).id).toBe(answer.id);
    const keys = await database.db
      .selectFrom("idempotency_keys")
      .select("key")
      .where("merchant_id", "=", alpha.merchantId)
      .where("key", "like", "%order-7")
      .orderBy("key")
      .execute();
    expect(keys.map((row) => row.key)).toEqual(["order-7"]);
    expect(
      await database.db
        .selectFrom("idempotency_keys")
        .select("key")
        .where("merchant_id", "=", alpha.merchantId)
        .where("key", "like", "public:%")
        .execute(),
    ).not.toHaveLength(0);
  });

  it("POST pay-choices prices the collector's payment methods for an amount", async () => {
    const response = await app.request(`${API}/pay-choices`, {
      json: { collector_id: collector.publicId, amount: "10.000" },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      pay_choices: { gateway_code: string; amount: string; base_amount: string }[];
      default_pay_choice: string;
    };
    expect(body.pay_choices.map((choice) => choice.gateway_code)).toEqual(["knet-sandbox", "mpgs-sandbox"]);
    expect(body.pay_choices.every((choice) => choice.base_amount === "10.000")).toBe(true);
    expect(body.default_pay_choice).toBe("knet-sandbox");
    expect(
      (await app.request(`${API}/pay-choices`, { json: { collector_id: collector.publicId, currency_code: "EUR" } }))
        .status,
    ).toBe(400);
    expect((await app.request(`${API}/pay-choices`, { json: { collector_id: "C".repeat(22) } })).status).toBe(404);
  });
});

describe("the dashboard", () => {
  it("creates a collector page with its form, refusing a missing title under its field with what was typed kept, audited", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const form = {
      title_en: "School fees",
      title_ar: "",
      description_en: "Term fees",
      name_field: "required",
      email_field: "off",
      phone_field: "required",
      reference_field: "optional",
      "text_fields.0.label_en": "Student name",
      "text_fields.0.label_ar": "اسم الطالب",
      "text_fields.0.required": "on",
      is_active: "on",
    };
    const refused = await app.request("/en/customer-payment/collectors/new", { cookie, form });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(text("en", "errors.required"));
    expect(html).toContain('value="School fees"');
    expect(html).toContain('value="Student name"');
    const saved = await app.request("/en/customer-payment/collectors/new", {
      cookie,
      form: { ...form, title_ar: "الرسوم المدرسية" },
    });
    expect(saved.status).toBe(303);
    const id = Number(/collectors\/(\d+)$/.exec(saved.headers.get("Location")!)![1]);
    const row = await database.db
      .selectFrom("customer_payment_collectors")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      merchant_id: alpha.merchantId,
      title_ar: "الرسوم المدرسية",
      email_field: "off",
      phone_field: "required",
      is_active: 1,
    });
    expect(JSON.parse(row.text_fields)).toEqual([
      {
        name: expect.stringMatching(/^f[0-9a-f]{8}$/),
        label_en: "Student name",
        label_ar: "اسم الطالب",
        required: true,
      },
    ]);
    const audit = await database.db
      .selectFrom("audit_log")
      .select("description")
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "=", "collector_created")
      .execute();
    expect(audit).toEqual([{ description: "Created the collector page “School fees”" }]);
    const list = await (
      await app.request("/ar/customer-payment/collectors", {
        cookie: await app.signIn(alpha.admin.username, DEMO_PASSWORD, "ar"),
      })
    ).text();
    expect(list).toContain("الرسوم المدرسية");
    expect(list).toContain(`/ar/pay/collect/${row.public_id}`);
  });

  it("saves the payment restrictions, refusing a minimum above the maximum under its field", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const refused = await app.request(`/en/customer-payment/payment-restriction?collector=${collector.id}`, {
      cookie,
      form: {
        intent: "save",
        currencies: "KWD",
        "limits.KWD.min": "50",
        "limits.KWD.max": "20",
        "limits.KWD.daily_cap": "",
        active_from: "2026-13-01",
      },
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(text("en", "collectors.errors.min_above_max"));
    expect(html).toContain(text("en", "collectors.errors.date"));
    expect(html).toContain('value="50"');
    const saved = await app.request(`/en/customer-payment/payment-restriction?collector=${collector.id}`, {
      cookie,
      form: {
        intent: "save",
        currencies: "KWD",
        gateways: "knet-sandbox",
        "limits.KWD.min": "2",
        "limits.KWD.max": "20",
      },
    });
    expect(saved.status).toBe(303);
    const options = (await (
      await app.request(`${API}/create/${collector.publicId}`, { method: "OPTIONS" })
    ).json()) as Record<string, any>;
    expect(options.currencies).toEqual([
      { currency_code: "KWD", min_amount: "2.000", max_amount: "20.000", daily_cap: null },
    ]);
    expect(options.gateways.map((gateway: { gateway_code: string }) => gateway.gateway_code)).toEqual(["knet-sandbox"]);
    // Back to the merchant's restrictions.
    expect(
      (
        await app.request(`/en/customer-payment/payment-restriction?collector=${collector.id}`, {
          cookie,
          form: { intent: "inherit" },
        })
      ).status,
    ).toBe(303);
    const back = (await (
      await app.request(`${API}/create/${collector.publicId}`, { method: "OPTIONS" })
    ).json()) as Record<string, any>;
    expect(back.currencies[0].max_amount).toBe("100.000");
  });

  it("shows a page without its own restrictions the merchant's, so that saving it keeps their limits", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const fresh = await createTestCollector(database.db, { merchantId: alpha.merchantId });
    const html = await (
      await app.request(`/en/customer-payment/payment-restriction?collector=${fresh.id}`, { cookie })
    ).text();
    expect(html).toContain(escape(text("en", "collectors.restrictions.prefilled_notice")));
    expect(inputValue(html, "limits.KWD.min")).toBe("1.000");
    expect(inputValue(html, "limits.KWD.max")).toBe("100.000");
    expect(inputValue(html, "limits.KWD.daily_cap")).toBe("150.000");
    expect(html).toMatch(/<input[^>]*value="mpgs-sandbox"[^>]*checked|<input[^>]*checked[^>]*value="mpgs-sandbox"/);
    // Saved as shown, the page keeps the merchant's limits as its own.
    const saved = await app.request(`/en/customer-payment/payment-restriction?collector=${fresh.id}`, {
      cookie,
      form: {
        intent: "save",
        gateways: "knet-sandbox",
        "limits.KWD.min": "1.000",
        "limits.KWD.max": "100.000",
        "limits.KWD.daily_cap": "150.000",
      },
    });
    expect(saved.status).toBe(303);
    const options = (await (
      await app.request(`${API}/create/${fresh.publicId}`, { method: "OPTIONS" })
    ).json()) as Record<string, any>;
    expect(options.currencies).toEqual([
      { currency_code: "KWD", min_amount: "1.000", max_amount: "100.000", daily_cap: "150.000" },
    ]);
    // A page with its own set shows its own.
    const own = await (
      await app.request(`/en/customer-payment/payment-restriction?collector=${fresh.id}`, { cookie })
    ).text();
    expect(own).toContain(escape(text("en", "collectors.restrictions.own_notice")));
  });

  it("serves the QR poster as a PDF holding the collector's link, in English or Arabic", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    for (const lang of ["en", "ar"] as const) {
      const response = await app.request(
        `/en/customer-payment/collectors/${collector.id}/poster.pdf?language=${lang}`,
        { cookie },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      const bytes = Buffer.from(await response.arrayBuffer());
      const pdf = bytes.toString("latin1");
      expect(pdf.startsWith("%PDF-")).toBe(true);
      const { url: link } = (await (
        await app.request(`${API}/create/${collector.publicId}?lang=${lang}`, { method: "OPTIONS" })
      ).json()) as { url: string };
      expect(link).toMatch(new RegExp(`/${lang}/pay/collect/${collector.publicId}$`));
      // The QR code, read as a phone's camera would, opens the page in the poster's language.
      expect(qrCodesInPdf(bytes)).toEqual([link]);
      // On a screen the code is also a link to it.
      expect(pdf).toContain(`/URI (${link})`);
    }
  });

  it("keeps each merchant to its own pages, and asks for the section's permissions", async () => {
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    expect((await app.request(`/en/customer-payment/collectors/${collector.id}`, { cookie: betaCookie })).status).toBe(
      404,
    );
    expect(
      (await app.request(`/en/customer-payment/collectors/${collector.id}/poster.pdf`, { cookie: betaCookie })).status,
    ).toBe(404);
    expect(
      (await app.request(`/en/customer-payment/payment-restriction?collector=${collector.id}`, { cookie: betaCookie }))
        .status,
    ).toBe(404);
    expect(await (await app.request("/en/customer-payment/collectors", { cookie: betaCookie })).text()).not.toContain(
      "Pay your invoice",
    );

    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/customer-payment/collectors", { cookie: staff })).status).toBe(403);
    const viewer = await app.signIn("alpha-viewer", DEMO_PASSWORD);
    expect((await app.request("/en/customer-payment/collectors", { cookie: viewer })).status).toBe(200);
    expect(
      (
        await app.request("/en/customer-payment/payment-restriction", {
          cookie: viewer,
          form: { intent: "save", "limits.KWD.min": "1" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request("/en/customer-payment/collectors/new", {
          cookie: viewer,
          form: { title_en: "x", title_ar: "x" },
        })
      ).status,
    ).toBe(403);
    // The collector payments are listed among the section's transactions.
    const transactions = await (await app.request("/en/customer-payment/transactions", { cookie: viewer })).text();
    expect(transactions).toContain("sara@example.com");
    expect(transactions).toContain("KWD\u00a0100.000");
  });
});
