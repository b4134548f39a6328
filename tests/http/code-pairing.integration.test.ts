import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import ar from "../../locales/ar/common.json";
import { IssueCodeSchema, issueCode } from "~/sections/code-pairing/domain/codes.server";
import { saveSite } from "~/sections/code-pairing/domain/sites.server";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// A customer types a code and its paired value on /cpr, or the merchant's site sends them to the API:
// the right pair lands on the pay page of a payment request made for that use; a wrong code and a
// wrong paired value read the same; failed tries are throttled, page and API alike; a code is never
// used more often than it may be, even when tries come at once.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;

const API = "/api/v1/plugins/code_pairing";
const ALPHA_SITE = "school.alpha.example";
const BETA_SITE = "shop.beta.example";
const catalogs = { en, ar } as const;

function text(lang: "en" | "ar", key: string, values: Record<string, string | number> = {}) {
  const found = key.split(".").reduce<any>((node, part) => node?.[part], catalogs[lang]);
  if (typeof found !== "string") throw new Error(`no text ${key}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
}
const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const errorUnder = (html: string, field: string) => new RegExp(`id="field-${field}-error">([^<]*)<`).exec(html)?.[1] ?? null;

let ipCounter = 0;
/** A fresh client address, so that one test's failed tries do not hold back another's. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function issue(merchant: { merchantId: number; admin: { id: number; username: string } }, values: Record<string, string>) {
  const issued = await issueCode(database.db, { merchantId: merchant.merchantId, actor: merchant.admin, values: IssueCodeSchema.parse({ amount: "12.500", currency_code: "KWD", ...values }) });
  if (!issued.ok) throw new Error(JSON.stringify(issued.errors));
  return issued.code;
}

const validate = (body: Record<string, unknown>, options: { ip?: string; lang?: "en" | "ar" } = {}) =>
  app.request(`${API}/validate`, { json: { referer: `https://${ALPHA_SITE}/fees`, ...body }, ip: options.ip ?? freshIp(), headers: { "Accept-Language": options.lang ?? "en" } });

const transactionOf = (id: string) => database.db.selectFrom("transactions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  for (const [merchant, host, label_en, label_ar] of [
    [alpha, ALPHA_SITE, "Civil ID", "الرقم المدني"],
    [beta, BETA_SITE, "Booking number", "رقم الحجز"],
  ] as const) {
    const saved = await saveSite(database.db, { merchantId: merchant.merchantId, actor: merchant.admin, host, label_en, label_ar });
    if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  }
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

describe("verify-referer", () => {
  it("answers the site's paired field label in the caller's language, and 404 for a site no merchant has", async () => {
    const english = await app.request(`${API}/verify-referer`, { json: { referer: `https://www.${ALPHA_SITE}/pay?x=1` }, headers: { "Accept-Language": "en" } });
    expect(english.status).toBe(200);
    expect((await english.json()).field_label).toBe("Civil ID");
    const arabic = await app.request(`${API}/verify-referer`, { json: { referer: `https://${ALPHA_SITE}/` }, headers: { "Accept-Language": "ar" } });
    expect((await arabic.json()).field_label).toBe("الرقم المدني");
    const unknown = await app.request(`${API}/verify-referer`, { json: { referer: "https://nobody.example/" } });
    expect(unknown.status).toBe(404);
    const missing = await app.request(`${API}/verify-referer`, { json: {}, headers: { "Accept-Language": "ar" } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).referer).toEqual([text("ar", "errors.required")]);
  });
});

describe("validate", () => {
  it("answers the pay page of a new payment request for the code's amount, made by the code pairing", async () => {
    const code = await issue(alpha, { code: "fees-0417", pair: "298041501234", description: "Tuition, third term" });
    const response = await validate({ code: "FEES 0417", pair: "٢٩٨٠٤١٥٠١٢٣٤" });
    expect(response.status).toBe(200);
    const { redirect_url, transaction_id } = await response.json();
    expect(redirect_url).toMatch(new RegExp(`/en/pay/${transaction_id}$`));
    const transaction = await transactionOf(transaction_id);
    expect(transaction.merchant_id).toBe(alpha.merchantId);
    expect(transaction.plugin).toBe("payment_request");
    expect(transaction.amount).toBe(12_500);
    expect(transaction.description).toBe("Tuition, third term");
    expect(JSON.parse(transaction.extra ?? "{}").source).toBe("code_pairing");
    expect(code.code).toBe("FEES0417");
    // The pay page it names is the payment's.
    const pay = await app.requestPayPage(new URL(redirect_url).pathname);
    expect(pay.status).toBe(200);
    expect(await pay.text()).toContain("Tuition, third term");
  });

  it("gives a wrong code and a wrong paired value the same answer", async () => {
    await issue(alpha, { code: "SAME-ANSWER", pair: "111" });
    const wrongPair = await validate({ code: "SAME-ANSWER", pair: "112" }, { lang: "ar" });
    const wrongCode = await validate({ code: "SAME-ANSWEX", pair: "111" }, { lang: "ar" });
    expect(wrongPair.status).toBe(400);
    expect(wrongCode.status).toBe(400);
    const [pairBody, codeBody] = [await wrongPair.json(), await wrongCode.json()];
    expect(pairBody).toEqual(codeBody);
    expect(pairBody).toEqual({ code: [text("ar", "cpr_public.errors.no_match")] });
  });

  it("asks for both fields, under each", async () => {
    const response = await validate({ code: " ", pair: "" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: [text("en", "errors.required")], pair: [text("en", "errors.required")] });
  });

  it("refuses a code of merchant A on merchant B's site", async () => {
    await issue(alpha, { code: "ALPHA-ONLY", pair: "555" });
    const onBeta = await app.request(`${API}/validate`, { json: { referer: `https://${BETA_SITE}/`, code: "ALPHA-ONLY", pair: "555" }, ip: freshIp() });
    expect(onBeta.status).toBe(400);
    expect(await onBeta.json()).toEqual({ code: [text("en", "cpr_public.errors.no_match")] });
    const unknownSite = await app.request(`${API}/validate`, { json: { referer: "https://nobody.example/", code: "ALPHA-ONLY", pair: "555" }, ip: freshIp() });
    expect(unknownSite.status).toBe(400);
    expect(Object.keys(await unknownSite.json())).toEqual(["referer"]);
  });

  it("refuses an expired or deactivated code once the pair is right", async () => {
    await issue(alpha, { code: "OLD-CODE", pair: "777" });
    await database.db.updateTable("code_pairing_codes").set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).where("code", "=", "OLDCODE").execute();
    expect(await (await validate({ code: "OLD-CODE", pair: "777" })).json()).toEqual({ code: [text("en", "cpr_public.errors.expired")] });
    await issue(alpha, { code: "STOPPED", pair: "778" });
    await database.db.updateTable("code_pairing_codes").set({ is_active: 0 }).where("code", "=", "STOPPED").execute();
    expect(await (await validate({ code: "STOPPED", pair: "778" })).json()).toEqual({ code: [text("en", "cpr_public.errors.inactive")] });
    // The wrong pair on them still reads as any wrong pair.
    expect(await (await validate({ code: "STOPPED", pair: "779" })).json()).toEqual({ code: [text("en", "cpr_public.errors.no_match")] });
  });

  it("lets a single-use code through once when ten tries come at once", async () => {
    await issue(alpha, { code: "ONCE-ONLY", pair: "42" });
    const responses = await Promise.all(Array.from({ length: 10 }, () => validate({ code: "ONCE-ONLY", pair: "42" })));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    const refused = await Promise.all(responses.filter((response) => response.status !== 200).map((response) => response.json()));
    expect(refused).toHaveLength(9);
    for (const body of refused) expect(body).toEqual({ code: [text("en", "cpr_public.errors.used")] });
    const uses = await database.db.selectFrom("code_pairing_uses").innerJoin("code_pairing_codes", "code_pairing_codes.id", "code_pairing_uses.code_id").select("code_pairing_uses.transaction_id").where("code_pairing_codes.code", "=", "ONCEONLY").execute();
    expect(uses).toHaveLength(1);
  });

  it("lets a code of several uses through at most its number of times, each its own payment request", async () => {
    await issue(alpha, { code: "BUS-2026", pair: "900", use: "multi", max_uses: "3" });
    const responses = await Promise.all(Array.from({ length: 8 }, () => validate({ code: "BUS-2026", pair: "900" })));
    const passed = await Promise.all(responses.filter((response) => response.status === 200).map((response) => response.json()));
    expect(passed).toHaveLength(3);
    expect(new Set(passed.map((body) => body.transaction_id)).size).toBe(3);
    const row = await database.db.selectFrom("code_pairing_codes").select(["uses", "max_uses"]).where("code", "=", "BUS2026").executeTakeFirstOrThrow();
    expect(Number(row.uses)).toBe(3);
  });
});

describe("throttling", () => {
  it("stops an address after ten failed tries, on the page and the API alike, saying how long to wait", async () => {
    await issue(alpha, { code: "GUESS-ME", pair: "31337" });
    const ip = freshIp();
    for (let attempt = 0; attempt < 6; attempt++) expect((await validate({ code: `WRONG${attempt}X`, pair: "1" }, { ip })).status).toBe(400);
    for (let attempt = 0; attempt < 4; attempt++) {
      const page = await app.request(`/en/cpr?site=${ALPHA_SITE}`, { form: { site: ALPHA_SITE, code: `NOPE${attempt}X`, pair: "1" }, ip });
      expect(page.status).toBe(400);
    }
    // Even the right pair is held back now, on both.
    const api = await validate({ code: "GUESS-ME", pair: "31337" }, { ip });
    expect(api.status).toBe(429);
    expect((await api.json()).detail).toBe(text("en", "cpr_public.errors.throttled", { minutes: 15 }));
    const page = await app.request(`/ar/cpr?site=${ALPHA_SITE}`, { form: { site: ALPHA_SITE, code: "GUESS-ME", pair: "31337" }, ip });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain(escape(text("ar", "cpr_public.errors.throttled", { minutes: 15 })));
    // Another address is not held back.
    expect((await validate({ code: "GUESS-ME", pair: "31337" })).status).toBe(200);
  });

  it("stops guessing one code's paired value from many addresses after five failures", async () => {
    await issue(alpha, { code: "TARGET-1", pair: "123456" });
    for (let attempt = 0; attempt < 5; attempt++) expect((await validate({ code: "TARGET-1", pair: `00000${attempt}` })).status).toBe(400);
    expect((await validate({ code: "TARGET-1", pair: "123456" })).status).toBe(429);
  });
});

describe("the /cpr page", () => {
  it("labels the paired field by the referring site, in English and Arabic, as plain HTML", async () => {
    const english = await app.request(`/en/cpr`, { headers: { Referer: `https://${ALPHA_SITE}/fees` } });
    expect(english.status).toBe(200);
    const html = await english.text();
    expect(html).toContain(">Civil ID<");
    expect(html).toContain(`name="site" value="${ALPHA_SITE}"`);
    expect(html).not.toMatch(/<script[^>]*src=/);
    const arabic = await (await app.request(`/ar/cpr?site=${BETA_SITE}`)).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain(">رقم الحجز<");
    const nowhere = await app.request(`/en/cpr`);
    expect(nowhere.status).toBe(404);
    expect(await nowhere.text()).toContain(escape(text("en", "cpr_public.unknown_site")));
  });

  it("says what is missing under each field, keeps what was typed, and sends the right pair to the pay page", async () => {
    await issue(alpha, { code: "PAGE-CODE", pair: "246810" });
    const empty = await app.request(`/ar/cpr?site=${ALPHA_SITE}`, { form: { site: ALPHA_SITE, code: "PAGE-CODE", pair: "" }, ip: freshIp() });
    expect(empty.status).toBe(400);
    const html = await empty.text();
    expect(errorUnder(html, "pair")).toBe(escape(text("ar", "errors.required")));
    expect(html).toContain('value="PAGE-CODE"');
    const done = await app.request(`/ar/cpr?site=${ALPHA_SITE}`, { form: { site: ALPHA_SITE, code: "page-code", pair: "246 810" }, ip: freshIp() });
    expect(done.status).toBe(303);
    const location = done.headers.get("Location")!;
    const id = /^\/ar\/pay\/([\w-]+)$/.exec(location)?.[1];
    expect(id).toBeTruthy();
    expect((await transactionOf(id!)).merchant_id).toBe(alpha.merchantId);
  });
});

describe("the dashboard", () => {
  it("issues a code with a plain form, errors under the fields, and lists it with its uses", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const refused = await app.request(`/en/code-pairing/codes/new`, { cookie, form: { code: "", pair: "", amount: "abc", currency_code: "KWD", use: "multi", max_uses: "1" } });
    expect(refused.status).toBe(400);
    const form = await refused.text();
    expect(form).toContain(escape(text("en", "code_pairing.errors.max_uses")));
    const issued = await app.request(`/en/code-pairing/codes/new`, { cookie, form: { code: "DASH-7", pair: "5551234", amount: "7.250", currency_code: "KWD", use: "single", description: "Dashboard code" } });
    expect(issued.status).toBe(303);
    expect((await validate({ code: "DASH7", pair: "5551234" })).status).toBe(200);
    const list = await (await app.request(`/en/code-pairing/codes`, { cookie })).text();
    expect(list).toContain(">DASH7<");
    expect(list).toContain(">1 of 1<");
    // Another merchant's staff never see it.
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    expect(await (await app.request(`/en/code-pairing/codes`, { cookie: betaCookie })).text()).not.toContain(">DASH7<");
    // Staff who may only view are refused the form.
    const viewer = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request(`/en/code-pairing/codes/new`, { cookie: viewer, form: { code: "X1234", pair: "1", amount: "1.000", use: "single" } })).status).toBe(403);
  });
});
