import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let manager: { id: number; username: string };

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  const id = await createUser(database.db, alpha.merchantId, {
    username: "alpha-manager",
    email: "manager@alpha.example",
    firstName: "Maha",
    lastName: "Manager",
    permissions: ["manage_merchant"],
  });
  manager = { id, username: "alpha-manager" };
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await database?.destroy();
});

/** Every field of the page's form, as a browser sends it. */
const fullForm = (changes: Record<string, string> = {}) => ({
  title_en: "Alpha Flowers",
  title_ar: "زهور ألفا",
  subheader: "Fresh every morning",
  website_url: "https://alpha.example",
  contact_email: "hello@alpha.example",
  contact_phone: "+965 2222 3333",
  unit_title_en: "Alpha Flowers",
  unit_title_ar: "زهور ألفا",
  header_color: "#0A3D62",
  show_unit_title: "on",
  unit_website: "",
  instagram_url: "https://instagram.com/alphaflowers",
  twitter_url: "",
  facebook_url: "",
  terms_en: "Flowers are delivered the same day.",
  terms_ar: "تُسلَّم الزهور في اليوم نفسه.",
  ...changes,
});

const merchantRow = (id: number) =>
  database.db.selectFrom("merchants").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const unitRow = (id: number) =>
  database.db.selectFrom("units").selectAll().where("merchant_id", "=", id).executeTakeFirstOrThrow();
const profileEntries = (merchantId: number) =>
  database.db
    .selectFrom("audit_log")
    .select(["actor_name", "description", "params"])
    .where("merchant_id", "=", merchantId)
    .where("action", "=", "merchant_profile_changed")
    .orderBy("id")
    .execute();

describe("the merchant profile page (/:lang/admin/profile)", () => {
  it("is only for users who may manage the merchant", async () => {
    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/admin/profile", { cookie: staff })).status).toBe(403);
    expect((await app.request("/en/admin/profile", { cookie: staff, form: fullForm() })).status).toBe(403);
    expect((await merchantRow(alpha.merchantId)).title_en).toBe("Alpha Store");
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const page = await app.request("/en/admin/profile", { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="Alpha Store"');
    // /admin opens the panel on the profile, and the account menu links there.
    expect((await app.request("/en/admin", { cookie })).headers.get("Location")).toBe("/en/admin/profile");
    expect(await (await app.request("/en", { cookie })).text()).toContain('href="/en/admin"');
  });

  it("saves a plain form post, customers' pages follow it, and the audit log names what changed, not the values", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const saved = await app.request("/en/admin/profile", { cookie, form: fullForm() });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/en/admin/profile");
    expect(await merchantRow(alpha.merchantId)).toMatchObject({
      title: "Alpha Flowers",
      title_en: "Alpha Flowers",
      title_ar: "زهور ألفا",
      subheader: "Fresh every morning",
      website_url: "https://alpha.example",
      contact_email: "hello@alpha.example",
      contact_phone: "+965 2222 3333",
    });
    expect(await unitRow(alpha.merchantId)).toMatchObject({
      title_ar: "زهور ألفا",
      header_color: "#0a3d62",
      show_unit_title: 1,
      instagram_url: "https://instagram.com/alphaflowers",
      terms_en: "Flowers are delivered the same day.",
    });
    const [entry] = await profileEntries(alpha.merchantId);
    expect(entry.actor_name).toBe("alpha-manager");
    expect(entry.description).toContain("Name (English)");
    expect(entry.description).toContain("Contact e-mail");
    expect(entry.description).not.toContain("hello@alpha.example");
    expect(entry.params).not.toContain("+965");

    // Emptying a field clears it; the same form again changes nothing and writes no entry.
    await app.request("/en/admin/profile", { cookie, form: fullForm({ subheader: "" }) });
    expect((await merchantRow(alpha.merchantId)).subheader).toBeNull();
    expect((await unitRow(alpha.merchantId)).show_unit_title).toBe(1);
    const withoutBox = fullForm({ subheader: "" }) as Record<string, string>;
    delete withoutBox.show_unit_title;
    await app.request("/en/admin/profile", { cookie, form: withoutBox });
    expect((await unitRow(alpha.merchantId)).show_unit_title).toBe(0);
    const before = (await profileEntries(alpha.merchantId)).length;
    await app.request("/en/admin/profile", { cookie, form: withoutBox });
    expect((await profileEntries(alpha.merchantId)).length).toBe(before);
  });

  it("refuses bad values with translated errors, keeps what was typed and changes nothing", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD, "ar");
    const before = await merchantRow(alpha.merchantId);
    const refused = await app.request("/ar/admin/profile", {
      cookie,
      form: fullForm({
        title_en: "",
        website_url: "javascript:alert(1)",
        header_color: "red",
        contact_email: "not-an-email",
        subheader: "Kept as typed",
      }),
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("هذا الحقل مطلوب");
    expect(html).toContain("أدخل عنوانًا يبدأ بـ https://");
    expect(html).toContain("أدخل اللون بعلامة #");
    expect(html).toContain('value="Kept as typed"');
    expect(await merchantRow(alpha.merchantId)).toEqual(before);
  });
});

describe("GET and PATCH /api/v1/admin/merchant", () => {
  const bearer = async (username: string) => ({
    Authorization: `Bearer ${(await app.apiToken(username, DEMO_PASSWORD)).access}`,
  });

  it("answers and changes only the caller's merchant, and only what it is sent", async () => {
    const headers = await bearer(beta.admin.username);
    const read = await app.request("/api/v1/admin/merchant", { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ title_en: "Beta Store", header_color: "#ffffff", show_unit_title: true });
    const patched = await app.request("/api/v1/admin/merchant", {
      method: "PATCH",
      headers,
      json: { header_color: "transparent", contact_phone: "+96599998888" },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      title_en: "Beta Store",
      header_color: "transparent",
      contact_phone: "+96599998888",
    });
    expect((await unitRow(beta.merchantId)).header_color).toBe("transparent");
    // Alpha's profile is untouched by Beta's administrator.
    expect((await unitRow(alpha.merchantId)).header_color).toBe("#0a3d62");
  });

  it("refuses bad fields DRF-style in the caller's language, unknown fields too, and changes nothing", async () => {
    const headers = { ...(await bearer(beta.admin.username)), "Accept-Language": "ar" };
    const before = await merchantRow(beta.merchantId);
    const refused = await app.request("/api/v1/admin/merchant", {
      method: "PATCH",
      headers,
      json: { title_ar: "", twitter_url: "ftp://x.example", is_active: false },
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as Record<string, string[]>;
    expect(body.title_ar).toEqual(["هذا الحقل مطلوب"]);
    expect(body.twitter_url[0]).toContain("https://");
    expect(Object.keys(body).sort()).toEqual(["is_active", "title_ar", "twitter_url"]);
    expect(await merchantRow(beta.merchantId)).toEqual(before);
  });

  it("is refused to users without manage_merchant and to callers without a token", async () => {
    const staff = await bearer(beta.staff.username);
    expect((await app.request("/api/v1/admin/merchant", { headers: staff })).status).toBe(403);
    expect(
      (await app.request("/api/v1/admin/merchant", { method: "PATCH", headers: staff, json: { title_en: "Taken" } }))
        .status,
    ).toBe(403);
    expect((await app.request("/api/v1/admin/merchant")).status).toBe(401);
    expect((await merchantRow(beta.merchantId)).title_en).toBe("Beta Store");
  });
});

describe("the merchant's country, currency and disclaimer, and a request's unit", () => {
  let gamma: Awaited<ReturnType<typeof seedMerchant>>;
  let token: string;
  const createRequest = (body: Record<string, unknown>, lang = "en") =>
    app.request("/api/v1/plugins/payment_request/transaction", {
      json: { amount: "4.000", pg_codes: ["mpgs-sandbox"], ...body },
      headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang },
    });

  beforeAll(async () => {
    gamma = await seedMerchant(database.db, "Gamma");
    token = (await app.apiToken(gamma.admin.username, DEMO_PASSWORD)).access;
  });

  it("are saved from the page; new requests take the currency and the phone's country, and customers read the merchant's own disclaimer", async () => {
    const cookie = await app.signIn(gamma.admin.username, DEMO_PASSWORD, "ar");
    const refused = await app.request("/ar/admin/profile", {
      cookie,
      form: fullForm({ country_code: "XX", currency_code: "BTC" }),
    });
    expect(refused.status).toBe(400);
    const refusedText = await refused.text();
    expect(refusedText).toContain("اختر دولة من القائمة");
    expect(refusedText).toContain("اختر عملة من القائمة");

    const form = fullForm({
      country_code: "SA",
      currency_code: "USD",
      disclaimer_en: "Payments are settled by Gamma Pay.",
      disclaimer_ar: "تُسوّى المدفوعات عبر جاما باي.",
    });
    expect((await app.request("/ar/admin/profile", { cookie, form })).status).toBe(302);
    expect(await merchantRow(gamma.merchantId)).toMatchObject({
      country_code: "SA",
      currency_code: "USD",
      disclaimer_en: "Payments are settled by Gamma Pay.",
    });
    const page = await (await app.request("/en/admin/profile", { cookie })).text();
    expect(page).toContain("Saudi Arabia");

    // No currency named: the merchant's; a phone without its code: the merchant's country.
    const created = await createRequest({ customer_phone: "501234567" });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect(
      await database.db
        .selectFrom("transactions")
        .select(["currency_code", "customer_phone"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ currency_code: "USD", customer_phone: "+966501234567" });
    const createPage = await (
      await app.request("/en/payment-request/create", { cookie: await app.signIn(gamma.admin.username, DEMO_PASSWORD) })
    ).text();
    expect(createPage).toMatch(/<option[^>]*value="USD"[^>]*selected|<option[^>]*selected[^>]*value="USD"/);

    expect(await (await app.requestPayPage(`/en/pay/${id}`)).text()).toContain("Payments are settled by Gamma Pay.");
    expect(await (await app.requestPayPage(`/ar/pay/${id}`)).text()).toContain("تُسوّى المدفوعات عبر جاما باي.");
    const view = await (
      await app.request(`/api/v1/plugins/payment_request/transaction/pay/${id}`, {
        headers: { "Accept-Language": "ar" },
      })
    ).json();
    expect(view).toMatchObject({ country_code: "SA", disclaimer_message: "تُسوّى المدفوعات عبر جاما باي." });

    // Cleared, the platform's own words come back.
    await app.request("/ar/admin/profile", { cookie, form: { ...form, disclaimer_en: "", disclaimer_ar: "" } });
    const cleared = await (await app.requestPayPage(`/en/pay/${id}`)).text();
    expect(cleared).not.toContain("Gamma Pay");
    const platformWords = (await (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${id}`)).json())
      .disclaimer_message;
    expect(platformWords).toContain("never reach this merchant");
    expect(cleared).toContain("never reach this merchant");
  });

  it("a request names one of the merchant's units, never another merchant's; the create page offers them when there are several", async () => {
    const now = new Date().toISOString();
    const { id: kiosk } = await database.db
      .insertInto("units")
      .values({
        merchant_id: gamma.merchantId,
        name: "Airport kiosk",
        title_en: "Gamma Airport",
        title_ar: "جاما المطار",
        logo_url: null,
        header_color: "#ffffff",
        website: null,
        instagram_url: null,
        twitter_url: null,
        facebook_url: null,
        show_unit_title: 1,
        is_default: 0,
        terms_en: null,
        terms_ar: null,
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const betaUnit = await unitRow(beta.merchantId);

    const foreign = await createRequest({ unit: betaUnit.id }, "ar");
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toEqual({ unit: ["اختر إحدى وحداتك."] });
    // Not an id the database could hold, nor a made-up one: refused in words, never a server error.
    for (const unit of ["kiosk", "0", 0, "9999999999", 99_999_999_999, 2_147_483_647]) {
      const refused = await createRequest({ unit });
      expect([unit, refused.status]).toEqual([unit, 400]);
      expect(await refused.json()).toEqual({ unit: ["Choose one of your units."] });
    }

    const { id } = await (await createRequest({ unit: kiosk })).json();
    expect(
      (await database.db.selectFrom("transactions").select("unit_id").where("id", "=", id).executeTakeFirstOrThrow())
        .unit_id,
    ).toBe(kiosk);
    expect(await (await app.requestPayPage(`/en/pay/${id}`)).text()).toContain("Gamma Airport");
    const { id: plain } = await (await createRequest({})).json();
    expect(
      (await database.db.selectFrom("transactions").select("unit_id").where("id", "=", plain).executeTakeFirstOrThrow())
        .unit_id,
    ).toBe(
      (
        await database.db
          .selectFrom("units")
          .select("id")
          .where("merchant_id", "=", gamma.merchantId)
          .where("is_default", "=", 1)
          .executeTakeFirstOrThrow()
      ).id,
    );

    // From the page, without JavaScript.
    const cookie = await app.signIn(gamma.admin.username, DEMO_PASSWORD);
    const page = await (await app.request("/en/payment-request/create", { cookie })).text();
    expect(page).toContain('name="unit"');
    expect(page).toContain("Airport kiosk");
    const posted = await app.request("/en/payment-request/create", {
      cookie,
      form: {
        amount: "2.500",
        currency_code: "KWD",
        pg_codes: "mpgs-sandbox",
        delivery_mode: "none",
        unit: String(kiosk),
      },
    });
    expect(posted.status).toBe(302);
    const madeId = posted.headers.get("Location")!.split("/").pop()!;
    expect(
      (
        await database.db
          .selectFrom("transactions")
          .select("unit_id")
          .where("id", "=", madeId)
          .executeTakeFirstOrThrow()
      ).unit_id,
    ).toBe(kiosk);
  });
});
