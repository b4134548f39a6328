import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import ar from "../../locales/ar/common.json";
import { formatAmount } from "~/lib/money";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { createTestCollector, setTestRestrictions } from "../support/collect-fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Staff at a counter make a payment for the customer in front of them with plain form posts: an
// amount (a payment request made at the counter), or through a collector page under its own rules.
// The payment's page follows its state; the attempt's receipt prints. Only the merchant's own.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let adminCookie: string;
let collector: { id: number; publicId: string };

const catalogs = { en, ar } as const;
function text(lang: "en" | "ar", key: string, values: Record<string, string> = {}) {
  const found = key.split(".").reduce<any>((node, part) => node?.[part], catalogs[lang]);
  if (typeof found !== "string") throw new Error(`no text ${key}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name]);
}
const escape = (value: string) =>
  value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const tokenOf = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
/** The error Mantine writes under a field: the element its input's aria-describedby names. */
function errorUnder(html: string, name: string) {
  const input = new RegExp(`<(?:input|textarea|select)[^>]*name="${name.replace(/\./g, "\\.")}"[^>]*>`).exec(html)?.[0];
  const ids = input ? (/aria-describedby="([^"]+)"/.exec(input)?.[1] ?? "").split(" ") : [];
  for (const id of ids) {
    const found = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
    if (found && /error/.test(id)) return found;
  }
  return null;
}

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await createUser(database.db, alpha.merchantId, {
    username: "alpha-viewer",
    email: "viewer@alpha.example",
    firstName: "View",
    lastName: "Er",
    permissions: ["view_paymenttransaction"],
  });
  await createUser(database.db, alpha.merchantId, {
    username: "alpha-cashier",
    email: "cashier@alpha.example",
    firstName: "Cash",
    lastName: "Ier",
    permissions: ["add_paymenttransaction", "view_paymenttransaction"],
  });
  await createUser(database.db, alpha.merchantId, {
    username: "alpha-adder",
    email: "adder@alpha.example",
    firstName: "Add",
    lastName: "Only",
    permissions: ["add_paymenttransaction"],
  });
  collector = await createTestCollector(database.db, {
    merchantId: alpha.merchantId,
    name_field: "optional",
    phone_field: "optional",
    reference_field: "required",
  });
  await setTestRestrictions(database.db, {
    merchantId: alpha.merchantId,
    gateways: ["knet-sandbox", "mpgs-sandbox"],
    limits: { KWD: { min: 1_000, max: 100_000, daily_cap: 150_000 } },
  });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  adminCookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
});
afterAll(async () => database?.destroy());

async function formOf(path: string, cookie = adminCookie) {
  const page = await app.request(path, { cookie });
  expect(page.status).toBe(200);
  return page.text();
}

async function create(
  fields: Record<string, string>,
  options: { lang?: "en" | "ar"; cookie?: string; token?: string } = {},
) {
  const lang = options.lang ?? "en";
  const token = options.token ?? tokenOf(await formOf(`/${lang}/pos/pay`, options.cookie), "form_token");
  return app.request(`/${lang}/pos/pay`, {
    cookie: options.cookie ?? adminCookie,
    form: { form_token: token, amount: "12.500", currency_code: "KWD", ...fields },
  });
}

const transactionOf = (id: string) =>
  database.db.selectFrom("transactions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("a payment made at the counter", () => {
  it("is a payment request made at the counter, and the form leads to its payment page", async () => {
    const form = await formOf("/en/pos/pay");
    expect(form).toContain(`>${text("en", "pos.new_payment")}<`);
    expect(form).toMatch(/<option value="KWD" selected="">KWD<\/option>|name="currency_code" value="KWD"/);
    const made = await create({ customer_name: "Sara Ali", customer_phone: "50001234", description: "Two coffees" });
    expect(made.status).toBe(303);
    const location = made.headers.get("Location")!;
    expect(location).toMatch(/^\/en\/pos\/pay\/[0-9A-Za-z]{22}$/);
    const row = await transactionOf(location.split("/").pop()!);
    expect(row).toMatchObject({
      merchant_id: alpha.merchantId,
      plugin: "payment_request",
      amount: 12_500,
      currency_code: "KWD",
      customer_first_name: "Sara Ali",
      description: "Two coffees",
      initiator_user_id: alpha.admin.id,
    });
    expect(JSON.parse(row.extra)).toMatchObject({ source: "pos" });
    expect(row.customer_phone).toContain("50001234");

    // Its page: the pay link as a QR code and as text, the amount, the state; without JavaScript it reloads itself.
    const page = await formOf(location);
    expect(page).toContain(`/en/pay/${row.id}`);
    expect(page).toContain("data:image/svg+xml");
    expect(page).toContain(formatAmount(12_500, "KWD", "en"));
    expect(page).toMatch(/<noscript><meta http-equiv="refresh" content="3"\/?><\/noscript>/);
    expect(page).toContain(`>${text("en", "states.created")}<`);

    // The details page names where it was made.
    const details = await formOf(`/en/payment-request/transactions/${row.id}`);
    expect(details).toContain(`>${text("en", "transaction_sources.pos")}<`);
  });

  it("refuses what is wrong under its field, in English and Arabic, keeping what was typed, and makes nothing", async () => {
    const before = await database.db
      .selectFrom("transactions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", alpha.merchantId)
      .executeTakeFirstOrThrow();
    for (const lang of ["en", "ar"] as const) {
      const missing = await create({ amount: "", customer_name: "نورة" }, { lang });
      expect(missing.status).toBe(400);
      const html = await missing.text();
      expect(errorUnder(html, "amount")).toBe(escape(text(lang, "errors.required")));
      expect(html).toContain('value="نورة"');
      const email = await (await create({ customer_email: "not-an-address" }, { lang })).text();
      expect(errorUnder(email, "customer_email")).toBe(escape(text(lang, "errors.invalid_email")));
      expect(email).toContain('value="not-an-address"');
      expect(email).toContain('value="12.500"');
    }
    const after = await database.db
      .selectFrom("transactions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", alpha.merchantId)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("makes one payment when the same form is sent twice, and a new one when it is sent again with another amount", async () => {
    const token = tokenOf(await formOf("/en/pos/pay"), "form_token");
    const first = await create({ amount: "3.250" }, { token });
    const second = await create({ amount: "3.250" }, { token });
    expect(first.status).toBe(303);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    const corrected = await create({ amount: "3.500" }, { token });
    expect(corrected.status).toBe(303);
    expect(corrected.headers.get("Location")).not.toBe(first.headers.get("Location"));
    const made = await database.db
      .selectFrom("transactions")
      .select("amount")
      .where("merchant_id", "=", alpha.merchantId)
      .where("amount", "in", [3_250, 3_500])
      .execute();
    expect(made.map((row) => row.amount).sort()).toEqual([3_250, 3_500]);
  });
});

describe("who may use the counter", () => {
  it("refuses making a payment to a user without add_paymenttransaction, page and form post alike", async () => {
    const viewer = await app.signIn("alpha-viewer", DEMO_PASSWORD);
    expect((await app.request("/en/pos/pay", { cookie: viewer })).status).toBe(403);
    const posted = await app.request("/en/pos/pay", {
      cookie: viewer,
      form: { form_token: "x".repeat(22), amount: "5.000", currency_code: "KWD" },
    });
    expect(posted.status).toBe(403);
    expect((await app.request(`/en/pos/pay/collect/${collector.publicId}`, { cookie: viewer })).status).toBe(403);
    const collected = await app.request(`/en/pos/pay/collect/${collector.publicId}`, {
      cookie: viewer,
      form: {
        amount: "5.000",
        currency_code: "KWD",
        gateway_code: "knet-sandbox",
        reference: "R-1",
        submission_token: "v".repeat(22),
      },
    });
    expect(collected.status).toBe(403);
    // A user who may add payments but not see them would make one they cannot follow: refused too.
    const adder = await app.signIn("alpha-adder", DEMO_PASSWORD);
    expect((await app.request("/en/pos/pay", { cookie: adder })).status).toBe(403);
    expect(
      (
        await app.request("/en/pos/pay", {
          cookie: adder,
          form: { form_token: "y".repeat(22), amount: "5.000", currency_code: "KWD" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request(`/en/pos/pay/collect/${collector.publicId}`, {
          cookie: adder,
          form: {
            amount: "5.000",
            currency_code: "KWD",
            gateway_code: "knet-sandbox",
            reference: "R-1",
            submission_token: "a".repeat(22),
          },
        })
      ).status,
    ).toBe(403);
    expect(await database.db.selectFrom("transactions").select("id").where("amount", "=", 5_000).execute()).toEqual([]);
    // Signed out: to the sign-in page.
    const anonymous = await app.request("/en/pos/pay");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/en\/login\?redirectTo=/);
  });

  it("lets a cashier make and follow payments, and shows another merchant's payment, state or attempt as not found", async () => {
    const cashier = await app.signIn("alpha-cashier", DEMO_PASSWORD);
    const made = await create({ amount: "7.000" }, { cookie: cashier });
    expect(made.status).toBe(303);
    const id = made.headers.get("Location")!.split("/").pop()!;
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    expect((await app.request(`/en/pos/pay/${id}`, { cookie: betaCookie })).status).toBe(404);
    expect((await app.request(`/en/pos/pay/${id}/state`, { cookie: betaCookie })).status).toBe(404);
    expect((await app.request(`/en/pos/pay/${id}`, { cookie: cashier })).status).toBe(200);
    expect((await app.request(`/en/pos/pay/collect/${collector.publicId}`, { cookie: betaCookie })).status).toBe(404);
  });
});

describe("the payment's state", () => {
  it("answers where the payment stands, and once paid names the attempt whose receipt prints", async () => {
    const made = await create({ amount: "9.000", customer_email: "buyer@example.com" });
    const id = made.headers.get("Location")!.split("/").pop()!;
    const open = await app.request(`/en/pos/pay/${id}/state`, { cookie: adminCookie });
    expect(open.status).toBe(200);
    expect(open.headers.get("Cache-Control")).toBe("no-store");
    expect(await open.json()).toEqual({
      state: "created",
      final: false,
      paid: false,
      in_flight: false,
      attempt_id: null,
      attempt_url: null,
    });

    // The customer pays it with the sandbox card (as the gateway would report it).
    const attemptId = await payWithSandbox(id);
    const paid = (await (await app.request(`/ar/pos/pay/${id}/state`, { cookie: adminCookie })).json()) as Record<
      string,
      unknown
    >;
    expect(paid).toEqual({
      state: "paid",
      final: true,
      paid: true,
      in_flight: false,
      attempt_id: attemptId,
      attempt_url: `/ar/pos/attempt-detail/${attemptId}`,
    });

    const page = await formOf(`/en/pos/pay/${id}`);
    expect(page).toContain(`>${text("en", "pos.paid")}<`);
    expect(page).toContain(`href="/en/pos/attempt-detail/${attemptId}"`);
    expect(page).not.toContain('http-equiv="refresh"');

    for (const lang of ["en", "ar"] as const) {
      const receipt = await formOf(`/${lang}/pos/attempt-detail/${attemptId}`);
      expect(receipt).toContain(`>${text(lang, "pos.outcomes.paid")}<`);
      expect(receipt).toContain(formatAmount(9_000, "KWD", lang));
      expect(receipt).toContain(`>${escape(text(lang, "result.gateway"))}<`);
      expect(receipt).toContain(lang === "ar" ? "متجر Alpha" : "Alpha Store");
    }
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    expect((await app.request(`/en/pos/attempt-detail/${attemptId}`, { cookie: betaCookie })).status).toBe(404);
  });
});

describe("a collector page at the counter", () => {
  const collect = (fields: Record<string, string>, lang: "en" | "ar" = "en") =>
    app.request(`/${lang}/pos/pay/collect/${collector.publicId}`, {
      cookie: adminCookie,
      form: {
        amount: "10.000",
        currency_code: "KWD",
        gateway_code: "knet-sandbox",
        customer_name: "Sara Ali",
        customer_phone: "50009876",
        reference: "INV-7",
        submission_token: `t${Math.random().toString(36).slice(2)}xxxxxxxxxxxxxxxx`,
        ...fields,
      },
    });

  it("is offered on the counter's page and asks the page's fields", async () => {
    const counter = await formOf("/en/pos/pay");
    expect(counter).toContain(`href="/en/pos/pay/collect/${collector.publicId}"`);
    const page = await formOf(`/ar/pos/pay/collect/${collector.publicId}`);
    expect(page).toContain("ادفع فاتورتك");
    expect(page).toContain('name="reference"');
    expect(page).toContain(
      text("ar", "collect_public.range", {
        min: formatAmount(1_000, "KWD", "ar"),
        max: formatAmount(100_000, "KWD", "ar"),
      }),
    );
  });

  it("applies the page's restrictions, under the fields, and takes a payment within them as made at the counter", async () => {
    for (const lang of ["en", "ar"] as const) {
      const below = await collect({ amount: "0.500" }, lang);
      expect(below.status).toBe(400);
      const html = await below.text();
      expect(errorUnder(html, "amount")).toBe(
        escape(text(lang, "collect_public.errors.below_min", { min: formatAmount(1_000, "KWD", lang) })),
      );
      expect(html).toContain('value="INV-7"');
      const missing = await (await collect({ reference: "" }, lang)).text();
      expect(errorUnder(missing, "reference")).toBe(escape(text(lang, "errors.required")));
    }
    const made = await collect({ amount: "100.000" });
    expect(made.status).toBe(303);
    const id = made.headers.get("Location")!.split("/").pop()!;
    const row = await transactionOf(id);
    expect(row).toMatchObject({ plugin: "customer_payment", amount: 100_000, initiator_user_id: alpha.admin.id });
    expect(JSON.parse(row.extra)).toMatchObject({ collector: collector.publicId, source: "pos", reference: "INV-7" });
    // The customer starts paying it; the same customer's day has 50 KWD left under the 150 KWD cap.
    await startAttempt(database.db, {
      plugins: ["customer_payment"],
      transactionId: id,
      gatewayCode: "knet-sandbox",
      submissionToken: "cap",
      lang: "en",
      addresses: { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" },
    });
    const over = await collect({ amount: "60.000", customer_phone: "+965 5000 9876" }, "ar");
    expect(over.status).toBe(400);
    expect(errorUnder(await over.text(), "amount")).toBe(
      escape(
        text("ar", "collect_public.errors.daily_cap", {
          cap: formatAmount(150_000, "KWD", "ar"),
          left: formatAmount(50_000, "KWD", "ar"),
        }),
      ),
    );
  });

  it("does not open a deactivated page or another merchant's", async () => {
    const closed = await createTestCollector(database.db, { merchantId: alpha.merchantId, is_active: false });
    expect((await app.request(`/en/pos/pay/collect/${closed.publicId}`, { cookie: adminCookie })).status).toBe(404);
    const betas = await createTestCollector(database.db, { merchantId: beta.merchantId });
    expect((await app.request(`/en/pos/pay/collect/${betas.publicId}`, { cookie: adminCookie })).status).toBe(404);
  });
});

const idOf = (response: Response) => response.headers.get("Location")!.split("/").pop()!;
const stateOf = async (id: string) =>
  (await (await app.request(`/en/pos/pay/${id}/state`, { cookie: adminCookie })).json()) as Record<string, unknown>;
/** Starts the customer's payment on the gateway: an attempt waiting for its answer. */
const startPaying = (id: string, plugin = "payment_request") =>
  startAttempt(database.db, {
    plugins: [plugin],
    transactionId: id,
    gatewayCode: "knet-sandbox",
    submissionToken: `start-${id}`,
    lang: "en",
    addresses: { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" },
  });

describe("what the counter says of a payment", () => {
  it("offers the customer no cash on delivery, and the link stops working half an hour after it is made", async () => {
    const made = await create({ amount: "4.100" });
    const row = await transactionOf(idOf(made));
    const offered = row.pg_codes!.split(",").map((code) => code.trim());
    expect(offered).toContain("knet-sandbox");
    expect(offered).not.toContain("cod");
    const minutes = (new Date(row.expiration_time!).getTime() - new Date(row.created_at).getTime()) / 60_000;
    expect(Math.round(minutes)).toBe(30);
    const page = await app.request(`/en/pos/pay/${row.id}`, { cookie: adminCookie });
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect((await app.request("/en/pos/pay", { cookie: adminCookie })).headers.get("Cache-Control")).toBe("no-store");
  });

  it("calls only a paid payment paid: an authorization, cash on delivery and a refund each say what they are", async () => {
    const cases = [
      { state: "authorized", words: "pos.finished.authorized" },
      { state: "cod", words: "pos.finished.cod" },
      { state: "refunded", words: "pos.finished.refunded" },
    ] as const;
    for (const { state, words } of cases) {
      const id = idOf(await create({ amount: "2.200", description: `As ${state}` }));
      // The state as the platform would have recorded it.
      await database.db.updateTable("transactions").set({ state }).where("id", "=", id).execute();
      expect(await stateOf(id)).toMatchObject({ state, final: true, paid: false });
      for (const lang of ["en", "ar"] as const) {
        const page = await formOf(`/${lang}/pos/pay/${id}`);
        expect(page).toContain(`>${escape(text(lang, words))}<`);
        expect(page).not.toContain(`>${text(lang, "pos.paid")}<`);
      }
    }
  });

  it("keeps following a payment whose link expired while the customer's payment is still in flight", async () => {
    const id = idOf(await create({ amount: "6.600" }));
    const started = await startPaying(id);
    expect(started.ok).toBe(true);
    const moved = await transitionTransaction(
      database.db,
      id,
      "expired",
      { kind: "expired" },
      { from: PAYABLE_STATES },
    );
    expect(moved.ok).toBe(true);
    expect(await stateOf(id)).toMatchObject({ state: "expired", final: false, paid: false, in_flight: true });
    const page = await formOf(`/en/pos/pay/${id}`);
    expect(page).toContain('http-equiv="refresh"');
    expect(page).not.toContain(`>${text("en", "pos.cancel")}<`);
    // Its money comes: paid after all.
    if (started.ok)
      await completeAttempt(database.db, started.attemptId, {
        status: "success",
        amount: 6_600,
        refs: { paymentId: "P1", tranId: "T1" },
      });
    expect(await stateOf(id)).toMatchObject({ state: "paid", final: true, paid: true, in_flight: false });
  });

  it("cancels an unpaid payment through the dashboard's cancel, but not one the customer is paying", async () => {
    const id = idOf(await create({ amount: "8.800" }));
    expect(await formOf(`/en/pos/pay/${id}`)).toContain(`>${text("en", "pos.cancel")}<`);
    const canceled = await app.request(`/en/pos/pay/${id}`, { cookie: adminCookie, form: {} });
    expect(canceled.status).toBe(303);
    expect(canceled.headers.get("Location")).toBe(`/en/pos/pay/${id}`);
    expect((await transactionOf(id)).state).toBe("canceled");
    expect(await stateOf(id)).toMatchObject({ state: "canceled", final: true, paid: false });
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id"])
      .where("object_id", "=", id)
      .where("action", "=", "transaction_cancel")
      .executeTakeFirst();
    expect(audit).toEqual({ action: "transaction_cancel", actor_user_id: alpha.admin.id });

    const paying = idOf(await create({ amount: "8.900" }));
    await startPaying(paying);
    const refused = await app.request(`/en/pos/pay/${paying}`, { cookie: adminCookie, form: {} });
    expect(refused.status).toBe(303);
    expect((await transactionOf(paying)).state).not.toBe("canceled");

    // A cashier without the dashboard's cancel permission is refused it.
    const cashier = await app.signIn("alpha-cashier", DEMO_PASSWORD);
    const theirs = idOf(await create({ amount: "8.950" }, { cookie: cashier }));
    expect(await formOf(`/en/pos/pay/${theirs}`, cashier)).not.toContain(`>${text("en", "pos.cancel")}<`);
    await app.request(`/en/pos/pay/${theirs}`, { cookie: cashier, form: {} });
    expect((await transactionOf(theirs)).state).toBe("created");
  });
});

describe("an old form sent again", () => {
  it("makes a new payment instead of showing the one it made once that was paid", async () => {
    const token = tokenOf(await formOf("/en/pos/pay"), "form_token");
    const first = await create({ amount: "5.750" }, { token });
    const firstId = idOf(first);
    await payWithSandbox(firstId);
    const again = await create({ amount: "5.750" }, { token });
    expect(again.status).toBe(303);
    expect(idOf(again)).not.toBe(firstId);
    expect((await transactionOf(idOf(again))).state).toBe("created");
    // ...and that new one is again the one a double tap finds.
    expect(idOf(await create({ amount: "5.750" }, { token }))).toBe(idOf(again));
  });

  it("makes one payment when the same form arrives twice at the same moment", async () => {
    const token = tokenOf(await formOf("/en/pos/pay"), "form_token");
    const [one, two] = await Promise.all([
      create({ amount: "1.234" }, { token }),
      create({ amount: "1.234" }, { token }),
    ]);
    expect(one.status).toBe(303);
    expect(two.status).toBe(303);
    expect(one.headers.get("Location")).toBe(two.headers.get("Location"));
    const made = await database.db
      .selectFrom("transactions")
      .select("id")
      .where("merchant_id", "=", alpha.merchantId)
      .where("amount", "=", 1_234)
      .execute();
    expect(made).toHaveLength(1);
  });
});

describe("collector payments at the counter, sale after sale", () => {
  const collectAs = (fields: Record<string, string>) =>
    app.request(`/en/pos/pay/collect/${collector.publicId}`, {
      cookie: adminCookie,
      form: {
        amount: "10.000",
        currency_code: "KWD",
        gateway_code: "knet-sandbox",
        customer_phone: "50007777",
        reference: "INV-9",
        submission_token: `s${Math.random().toString(36).slice(2)}yyyyyyyyyyyyyyyy`,
        ...fields,
      },
    });

  it("keeps the earlier sale to the same customer, and records both as the counter's", async () => {
    const first = idOf(await collectAs({ amount: "11.000" }));
    const second = idOf(await collectAs({ amount: "12.000" }));
    expect(second).not.toBe(first);
    expect((await transactionOf(first)).state).toBe("created");
    const audits = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id", "object_id"])
      .where("object_id", "in", [first, second])
      .execute();
    expect(audits.filter((entry) => entry.action === "collector_payment_replaced")).toEqual([]);
    expect(
      audits.filter((entry) => entry.action === "collector_payment_created").map((entry) => entry.actor_user_id),
    ).toEqual([alpha.admin.id, alpha.admin.id]);
  });

  it("makes a new payment when the same form is sent again after its payment was paid", async () => {
    const token = `r${"z".repeat(21)}`;
    const first = idOf(await collectAs({ amount: "13.000", customer_phone: "50006666", submission_token: token }));
    expect(idOf(await collectAs({ amount: "13.000", customer_phone: "50006666", submission_token: token }))).toBe(
      first,
    );
    const started = await startPaying(first, "customer_payment");
    if (!started.ok) throw new Error("not started");
    await completeAttempt(database.db, started.attemptId, {
      status: "success",
      amount: 13_000,
      refs: { paymentId: "P7", tranId: "T7" },
    });
    expect((await transactionOf(first)).state).toBe("paid");
    const again = await collectAs({ amount: "13.000", customer_phone: "50006666", submission_token: token });
    expect(again.status).toBe(303);
    expect(idOf(again)).not.toBe(first);
  });

  it("lets only one of two sales at the same moment pass the customer's daily cap", async () => {
    // 150 KWD a day: 80 + 80 cannot both be made.
    const [one, two] = await Promise.all([
      collectAs({ amount: "80.000", customer_phone: "50005555" }),
      collectAs({ amount: "80.000", customer_phone: "50005555" }),
    ]);
    expect([one.status, two.status].sort()).toEqual([303, 400]);
    const refused = one.status === 400 ? one : two;
    expect(errorUnder(await refused.text(), "amount")).toBe(
      escape(
        text("en", "collect_public.errors.daily_cap", {
          cap: formatAmount(150_000, "KWD", "en"),
          left: formatAmount(70_000, "KWD", "en"),
        }),
      ),
    );
  });
});

/** The customer pays on their phone: an attempt started on the pay page, and the gateway's verified success. */
async function payWithSandbox(transactionId: string) {
  const started = await startAttempt(database.db, {
    plugins: ["payment_request"],
    transactionId,
    gatewayCode: "knet-sandbox",
    submissionToken: `pos-${transactionId}`,
    lang: "en",
    addresses: { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" },
  });
  if (!started.ok) throw new Error(`could not start: ${JSON.stringify(started)}`);
  await completeAttempt(database.db, started.attemptId, {
    status: "success",
    amount: (await transactionOf(transactionId)).amount,
    refs: { paymentId: "P100", tranId: "T200" },
  });
  const row = await transactionOf(transactionId);
  expect(row.state).toBe("paid");
  return row.paid_attempt_id!;
}
