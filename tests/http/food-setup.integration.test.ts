import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { insertFoodBranch, insertFoodOrder } from "../support/food-fixtures-fsetup";
import { loadApp, type TestApp } from "../support/http-app";

// A merchant sets up food ordering: the menu (categories, dishes with sizes, add-ons and options),
// branches with their working hours and delivery areas, vouchers and the menu settings, by the
// management API (`/api/v1/plugins/food_ordering/dashboard/...`) and by the dashboard's forms
// without JavaScript; another merchant's records are never seen or touched.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let adminToken: string;
let betaToken: string;
let viewerToken: string;
let staffToken: string;

const API = "/api/v1/plugins/food_ordering/dashboard";

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await createUser(database.db, alpha.merchantId, {
    username: "alpha-cook",
    email: "cook@alpha.example",
    firstName: "Cook",
    lastName: "Viewer",
    permissions: ["view_order"],
  });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  adminToken = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
  betaToken = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
  viewerToken = (await app.apiToken("alpha-cook", DEMO_PASSWORD)).access;
  staffToken = (await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

type Json = Record<string, any>;

async function call(
  path: string,
  options: { token?: string; json?: unknown; method?: string; headers?: Record<string, string> } = {},
) {
  const response = await app.request(`${API}/${path}`, {
    method: options.method,
    json: options.json,
    headers: { Authorization: `Bearer ${options.token ?? adminToken}`, ...options.headers },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
}

describe("vouchers by API", () => {
  const welcome = {
    code: "WELCOME10",
    discount_type: "percentage",
    amount: "10",
    valid_from: "2026-01-01",
    valid_to: "2099-12-31",
    min_total: "5.000",
    max_uses: 100,
    max_uses_per_customer: 1,
  };

  it("creates the issue's voucher: 10 is 10%, dates are Kuwait days, the minimum in the currency", async () => {
    const { status, body } = await call("vouchers", { json: welcome, headers: { "Idempotency-Key": "welcome-1" } });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      id: expect.any(Number),
      code: "WELCOME10",
      discount_type: "percentage",
      amount: "10",
      min_total: "5.000",
      max_uses: 100,
      max_uses_per_customer: 1,
      used: 0,
      is_active: true,
    });
    expect(body.valid_from).toBe("2025-12-31T21:00:00.000Z");
    expect(body.valid_to).toBe("2099-12-31T20:59:59.999Z");
    const row = await database.db
      .selectFrom("offer_codes")
      .select(["amount", "min_total", "code_lc"])
      .where("id", "=", body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ amount: 1000, min_total: 5000, code_lc: "welcome10" });
    // The same request sent again with its key creates nothing more.
    const again = await call("vouchers", { json: welcome, headers: { "Idempotency-Key": "welcome-1" } });
    expect(again.body.id).toBe(body.id);
    const audit = await database.db
      .selectFrom("audit_log")
      .select("description")
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "=", "food_voucher_created")
      .execute();
    expect(audit).toEqual([{ description: "Created the voucher WELCOME10" }]);
  });

  it("refuses a code the merchant already has in any case, a percentage above 100 and dates the wrong way round", async () => {
    const { status, body } = await call("vouchers", {
      json: { ...welcome, code: "welcome10", amount: "150", valid_from: "2027-01-02", valid_to: "2027-01-01" },
    });
    expect(status).toBe(400);
    expect(body).toEqual({
      code: ["You already have a voucher with this code."],
      amount: ["Enter a percentage above 0 and at most 100."],
      valid_to: ["The end of validity must come after its start."],
    });
    const arabic = await call("vouchers", {
      json: { code: "", discount_type: "half" },
      headers: { "Accept-Language": "ar" },
    });
    expect(arabic.status).toBe(400);
    expect(arabic.body.discount_type).toEqual(["اختر نسبة مئوية أو مبلغًا ثابتًا."]);
  });

  it("takes a fixed amount in the currency and lets another merchant use the same code", async () => {
    const fixed = await call("vouchers", { json: { code: "FLAT", discount_type: "fixed", amount: "1.500" } });
    expect(fixed.status).toBe(201);
    expect(fixed.body).toMatchObject({ amount: "1.500", min_total: "0.000", max_uses: null, valid_from: null });
    const patched = await call(`vouchers/${fixed.body.id}`, { method: "PATCH", json: { amount: "2", max_uses: 3 } });
    expect(patched.body).toMatchObject({ code: "FLAT", amount: "2.000", max_uses: 3 });
    expect((await call("vouchers", { token: betaToken, json: { ...welcome } })).status).toBe(201);
    expect((await call(`vouchers/${fixed.body.id}`, { token: betaToken })).status).toBe(404);
    const betaList = await call("vouchers", { token: betaToken });
    expect(betaList.body.results.map((voucher: Json) => voucher.code)).toEqual(["WELCOME10"]);
  });
});

describe("the menu by API", () => {
  let categoryId: number;
  let itemId: number;

  it("creates a category and a dish with sizes, add-ons and an option group; quantity null is unlimited", async () => {
    const category = await call("categories", { json: { name_en: "Grills", name_ar: "مشاوي", position: 1 } });
    expect(category.status).toBe(201);
    categoryId = category.body.id;
    const { status, body } = await call("menu-items", {
      json: {
        category: categoryId,
        sku: "KEB-1",
        name_en: "Kebab",
        name_ar: "كباب",
        price: "2.750",
        discounted_price: "2.500",
        quantity: null,
        sizes: [
          { name_en: "Small", name_ar: "صغير", price: "2.000" },
          { name_en: "Large", name_ar: "كبير", price: "3.500" },
        ],
        add_ons: [{ name_en: "Bread", name_ar: "خبز", price: "0.250" }],
        option_groups: [
          {
            name_en: "Sauce",
            name_ar: "صلصة",
            min_choices: 1,
            max_choices: 1,
            choices: [
              { name_en: "Garlic", name_ar: "ثوم", price: "0" },
              { name_en: "Chili", name_ar: "حار", price: "0.100" },
            ],
          },
        ],
      },
    });
    expect(status).toBe(201);
    itemId = body.id;
    expect(body).toMatchObject({
      category: categoryId,
      name: "Kebab",
      price: "2.750",
      discounted_price: "2.500",
      quantity: null,
      is_available: true,
      is_promoted: false,
    });
    expect(body.sizes.map((size: Json) => [size.name_en, size.price])).toEqual([
      ["Small", "2.000"],
      ["Large", "3.500"],
    ]);
    expect(body.add_ons[0]).toMatchObject({ name_ar: "خبز", price: "0.250" });
    expect(body.option_groups[0]).toMatchObject({ name_en: "Sauce", min_choices: 1, max_choices: 1 });
    expect(body.option_groups[0].choices.map((choice: Json) => choice.price)).toEqual(["0.000", "0.100"]);
    const listed = await call(`menu-items?category=${categoryId}`);
    expect(listed.body.count).toBe(1);
  });

  it("names each wrong value by its place in the lists sent", async () => {
    const { status, body } = await call("menu-items", {
      json: {
        category: categoryId,
        name_en: "Soup",
        name_ar: "شوربة",
        price: "1.000",
        discounted_price: "1.500",
        quantity: -2,
        sizes: [{ name_en: "Bowl", name_ar: "وعاء", price: "1.2345" }],
        option_groups: [
          {
            name_en: "Bread",
            name_ar: "خبز",
            min_choices: 0,
            max_choices: 3,
            choices: [{ name_en: "White", name_ar: "أبيض" }],
          },
        ],
      },
    });
    expect(status).toBe(400);
    expect(body).toEqual({ quantity: ["Enter a whole number from 0, or leave it empty for unlimited."] });
    const second = await call("menu-items", {
      json: {
        category: categoryId,
        name_en: "Soup",
        name_ar: "شوربة",
        price: "1.000",
        discounted_price: "1.500",
        sizes: [{ name_en: "Bowl", name_ar: "وعاء", price: "1.2345" }],
        option_groups: [
          {
            name_en: "Bread",
            name_ar: "خبز",
            min_choices: 0,
            max_choices: 3,
            choices: [{ name_en: "White", name_ar: "أبيض" }],
          },
        ],
      },
    });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      discounted_price: ["The discounted price cannot be above the price."],
      "sizes.0.price": ["Too many decimal places for this currency"],
      "option_groups.0.max_choices": ["The group has only 1 choices."],
    });
  });

  it("keeps the ids of sizes by their place on a PATCH and sets a quantity left", async () => {
    const before = (await call(`menu-items/${itemId}`)).body;
    const { body } = await call(`menu-items/${itemId}`, {
      method: "PATCH",
      json: { quantity: 5, sizes: [{ name_en: "Small", name_ar: "صغير", price: "2.250" }] },
    });
    expect(body.quantity).toBe(5);
    expect(body.sizes).toEqual([
      { id: before.sizes[0].id, name: "Small", name_en: "Small", name_ar: "صغير", price: "2.250" },
    ]);
    expect(body.add_ons).toHaveLength(1);
  });

  it("deletes a dish never ordered, and only makes an ordered one unavailable", async () => {
    const spare = await call("menu-items", {
      json: { category: categoryId, name_en: "Salad", name_ar: "سلطة", price: "1" },
    });
    const removed = await call(`menu-items/${spare.body.id}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    expect((await call(`menu-items/${spare.body.id}`)).status).toBe(404);
    const branchId = await insertFoodBranch(database.db, alpha.merchantId, { name: "Ordered" });
    await insertFoodOrder(database.db, alpha.merchantId, { branchId, itemId, categoryId });
    const kept = await call(`menu-items/${itemId}`, { method: "DELETE" });
    expect(kept).toEqual({ status: 200, body: { deactivated: true } });
    expect((await call(`menu-items/${itemId}`)).body.is_available).toBe(false);
    const category = await call(`categories/${categoryId}`, { method: "DELETE" });
    expect(category.body).toEqual({ deactivated: true });
    expect((await call(`categories/${categoryId}`)).body.is_active).toBe(false);
  });

  it("refuses a category of another merchant for a dish", async () => {
    const { status, body } = await call("menu-items", {
      token: betaToken,
      json: { category: categoryId, name_en: "X", name_ar: "س", price: "1" },
    });
    expect(status).toBe(400);
    expect(body.category).toEqual(["Choose one of the menu's categories."]);
  });
});

describe("branches and delivery areas by API", () => {
  let branchId: number;

  it("keeps only the harmless tags of the address and answers the spec's Branch with its hours", async () => {
    const { status, body } = await call("branches", {
      json: {
        name_en: "Salmiya",
        name_ar: "السالمية",
        email: "salmiya@alpha.example",
        phone: "+965 2222 3333",
        address:
          '<p onclick="steal()">Block 10, <b style="x">Salem St</b><script>alert(1)</script><br><a href="javascript:x">Tower</a> & sons <img src=x onerror=alert(2)></p>',
        minimum_order_sum: "3.500",
        delivery_time: 40,
        lat: 29.33,
        lng: 48.07,
        hours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, opens: "00:00", closes: "23:59" })),
      },
    });
    expect(status).toBe(201);
    branchId = body.id;
    expect(body).toMatchObject({
      id: branchId,
      name: "Salmiya",
      email: "salmiya@alpha.example",
      phone: "+965 2222 3333",
      minimum_order_sum: "3.500",
      delivery_time: 40,
      image: null,
    });
    expect(body.address).toBe("<p>Block 10, <b>Salem St</b><br>Tower &amp; sons </p>");
    expect(body.hours).toHaveLength(7);
  });

  it("refuses an interval that closes before it opens or overlaps another of its day", async () => {
    const { status, body } = await call(`branches/${branchId}`, {
      method: "PATCH",
      json: {
        hours: [
          { weekday: 1, opens: "12:00", closes: "09:00" },
          { weekday: 2, opens: "09:00", closes: "14:00" },
          { weekday: 2, opens: "13:00", closes: "18:00" },
          { weekday: 8, opens: "25:00", closes: "10:00" },
        ],
      },
    });
    expect(status).toBe(400);
    expect(body).toEqual({
      "hours.3.weekday": ["Choose a weekday from 1 (Monday) to 7 (Sunday)."],
      "hours.3.opens": ["Enter a time as 09:30."],
    });
    const second = await call(`branches/${branchId}`, {
      method: "PATCH",
      json: {
        hours: [
          { weekday: 1, opens: "12:00", closes: "09:00" },
          { weekday: 2, opens: "09:00", closes: "14:00" },
          { weekday: 2, opens: "13:00", closes: "18:00" },
        ],
      },
    });
    expect(second.body).toEqual({
      "hours.0.closes": ["The closing time must come after the opening time."],
      "hours.2.opens": ["This interval overlaps another of the same day."],
    });
    const closed = await call(`branches/${branchId}`, { method: "PATCH", json: { hours: [] } });
    expect(closed.body).toMatchObject({ hours: [], is_open: false });
  });

  it("adds Kuwait areas once per branch, by their English or Arabic name", async () => {
    const area = await call("delivery-areas", {
      json: { branch: branchId, area: "السالمية", zone: "A", charge: "0.500", min_order: "5" },
    });
    expect(area.status).toBe(201);
    expect(area.body).toMatchObject({
      branch: branchId,
      area: "Salmiya",
      area_ar: "السالمية",
      zone: "A",
      charge: "0.500",
      min_order: "5.000",
      is_active: true,
    });
    const again = await call("delivery-areas", { json: { branch: branchId, area: "Salmiya" } });
    expect(again.body).toEqual({ area: ["This branch already delivers to this area."] });
    const unknown = await call("delivery-areas", { json: { branch: branchId, area: "Atlantis", charge: "x" } });
    expect(unknown.body).toEqual({
      area: ["Choose one of Kuwait's areas."],
      charge: ["Must be valid positive number"],
    });
    expect((await call(`delivery-areas?branch=${branchId}`)).body.count).toBe(1);
  });

  it("never shows nor changes a branch of another merchant", async () => {
    expect((await call(`branches/${branchId}`, { token: betaToken })).status).toBe(404);
    expect(
      (await call(`branches/${branchId}`, { token: betaToken, method: "PATCH", json: { name_en: "Taken" } })).status,
    ).toBe(404);
    expect((await call(`branches/${branchId}`, { token: betaToken, method: "DELETE" })).status).toBe(404);
    expect((await call("branches", { token: betaToken })).body.results).toEqual([]);
    const area = await call("delivery-areas", { token: betaToken, json: { branch: branchId, area: "Salmiya" } });
    expect(area.body).toEqual({ branch: ["Choose one of the restaurant's branches."] });
  });

  it("lets view_order read, needs change_order to write and a user to ask", async () => {
    expect((await call("branches", { token: viewerToken })).status).toBe(200);
    const refused = await call("branches", { token: viewerToken, json: { name_en: "No", name_ar: "لا" } });
    expect(refused).toEqual({ status: 403, body: { detail: "You do not have permission to perform this action." } });
    expect((await call("vouchers", { token: staffToken })).status).toBe(403);
    const anonymous = await app.request(`${API}/branches`);
    expect(anonymous.status).toBe(401);
  });
});

describe("the set-up pages, without JavaScript", () => {
  it("list branches 10 a page, with New branch for who may change orders", async () => {
    for (let index = 0; index < 11; index++)
      await insertFoodBranch(database.db, beta.merchantId, { name: `Beta ${String(index).padStart(2, "0")}` });
    const staff = await app.signIn(beta.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/food-ordering/branches", { cookie: staff })).status).toBe(403);
    const cookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    const first = await (await app.request("/en/food-ordering/branches", { cookie })).text();
    expect(first).toContain("New branch");
    expect(first).toContain("Beta 09");
    expect(first).not.toContain("Beta 10");
    expect(first).not.toContain("Salmiya");
    const second = await (await app.request("/en/food-ordering/branches?page=2", { cookie })).text();
    expect(second).toContain("Beta 10");
    expect(second).not.toContain("Beta 09");
  });

  it("create a branch with its week's hours, refuse hours that cannot be read and add a delivery area", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const form = {
      intent: "save",
      name_en: "Jahra",
      name_ar: "الجهراء",
      address: "<b>Main road</b>",
      minimum_order_sum: "2",
      delivery_time: "30",
      offers_pickup: "on",
      is_active: "on",
      hours_1: "09:00-13:00, 16:00-23:00",
      hours_2: "nine to five",
    };
    const refused = await app.request("/en/food-ordering/branches/new", { cookie, form });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Write the intervals as 09:00-13:00, 16:00-23:00.");
    expect(html).toContain('value="Jahra"');
    const saved = await app.request("/en/food-ordering/branches/new", { cookie, form: { ...form, hours_2: "" } });
    expect(saved.status).toBe(302);
    const location = saved.headers.get("Location")!;
    const branch = await database.db
      .selectFrom("food_branches")
      .selectAll()
      .where("name_en", "=", "Jahra")
      .executeTakeFirstOrThrow();
    expect(location).toBe(`/en/food-ordering/branches/${branch.id}`);
    expect(branch).toMatchObject({
      merchant_id: alpha.merchantId,
      min_order: 2000,
      delivery_minutes: 30,
      offers_pickup: 1,
      offers_delivery: 0,
      address_html: "<b>Main road</b>",
    });
    const hours = await database.db
      .selectFrom("food_branch_hours")
      .select(["weekday", "opens", "closes"])
      .where("branch_id", "=", branch.id)
      .orderBy("opens")
      .execute();
    expect(hours).toEqual([
      { weekday: 1, opens: "09:00", closes: "13:00" },
      { weekday: 1, opens: "16:00", closes: "23:00" },
    ]);
    const added = await app.request(location, {
      cookie,
      form: { intent: "add_area", area: "Jahra", zone: "North", charge: "1", min_order: "4", is_active: "on" },
    });
    expect(added.status).toBe(302);
    const details = await (await app.request(location, { cookie })).text();
    expect(details).toContain("Minimum order sum");
    expect(details).toContain("30 min");
    expect(details).toContain("North");
    const arabic = await (await app.request(location.replace("/en/", "/ar/"), { cookie })).text();
    expect(arabic).toContain("الجهراء");
    expect(arabic).toContain("مناطق التوصيل");
    // Another merchant's branch answers as if it did not exist.
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    expect((await app.request(location, { cookie: betaCookie })).status).toBe(404);
    expect((await app.request(location, { cookie: betaCookie, form })).status).toBe(404);
  });

  it("save a dish with its rows, and answer More rows with a blank row more", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const category = await app.request("/en/food-ordering/menu/categories/new", {
      cookie,
      form: { intent: "save", name_en: "Drinks", name_ar: "مشروبات", position: "2", min_plates: "0", is_active: "on" },
    });
    expect(category.status).toBe(302);
    const { id: categoryId } = await database.db
      .selectFrom("food_categories")
      .select("id")
      .where("name_en", "=", "Drinks")
      .executeTakeFirstOrThrow();
    const form = {
      category: String(categoryId),
      name_en: "Lemon mint",
      name_ar: "ليمون بالنعناع",
      price: "1.250",
      "sizes[0].name_en": "Cup",
      "sizes[0].name_ar": "كوب",
      "sizes[0].price": "1.250",
      "sizes[1].name_en": "",
      "sizes[1].name_ar": "",
      "sizes[1].price": "",
      is_available: "on",
    };
    const more = await app.request("/en/food-ordering/menu/items/new", { cookie, form: { ...form, intent: "more" } });
    expect(more.status).toBe(200);
    const moreHtml = await more.text();
    expect(moreHtml).toContain('name="sizes[2].name_en"');
    expect(moreHtml).toContain('value="Cup"');
    const saved = await app.request("/en/food-ordering/menu/items/new", { cookie, form: { ...form, intent: "save" } });
    expect(saved.status).toBe(302);
    const menu = await (await app.request("/en/food-ordering/menu", { cookie })).text();
    expect(menu).toContain("Lemon mint");
    expect(menu).toContain("Drinks");
  });

  it("create a voucher and keep the menu settings", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const refused = await app.request("/en/food-ordering/vouchers/new", {
      cookie,
      form: { intent: "save", code: "welcome10", discount_type: "percentage", amount: "10" },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("You already have a voucher with this code.");
    const saved = await app.request("/en/food-ordering/vouchers/new", {
      cookie,
      form: {
        intent: "save",
        code: "SUMMER",
        discount_type: "fixed",
        amount: "0.750",
        valid_to: "2099-06-30T23:00",
        is_active: "on",
      },
    });
    expect(saved.status).toBe(302);
    const list = await (await app.request("/en/food-ordering/vouchers", { cookie })).text();
    expect(list).toContain("SUMMER");
    expect(list).toContain("2099-06-30 23:00");
    const settings = await app.request("/en/food-ordering/settings", {
      cookie,
      form: {
        menu_title_en: "Our menu",
        menu_title_ar: "قائمتنا",
        show_images: "on",
        banner_text_en: "Free delivery",
        banner_text_ar: "توصيل مجاني",
        "banners[0].image": "https://cdn.example/b.png",
        "banners[0].title_en": "Eid",
        "banners[0].title_ar": "العيد",
      },
    });
    expect(settings.status).toBe(302);
    const row = await database.db
      .selectFrom("food_settings")
      .select("data")
      .where("merchant_id", "=", alpha.merchantId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.data)).toEqual({
      menu_page: { title_en: "Our menu", title_ar: "قائمتنا", show_images: true },
      header: { banner_text_en: "Free delivery", banner_text_ar: "توصيل مجاني" },
      banners: [{ image: "https://cdn.example/b.png", title_en: "Eid", title_ar: "العيد" }],
    });
    const page = await (await app.request("/en/food-ordering/settings", { cookie })).text();
    expect(page).toContain('value="Free delivery"');
  });
});
