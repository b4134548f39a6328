import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { catalogueApiKey, insertCatalogueProduct } from "../support/cadmin-fixtures";
import { loadApp, type TestApp } from "../support/http-app";

// API keys for the set-up APIs (the catalogue's products, food ordering's menu, events) carry
// scopes of their own, and a key never does more than its creator may do now: a permission taken
// from the creator, or the creator deactivated, refuses the key with a coded 403 and changes nothing.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
const tokens: Record<string, string> = {};
type Json = Record<string, any>;

const voucher = (code: string) => ({
  code,
  discount_type: "percentage",
  amount: "10",
  valid_from: "2026-01-01",
  valid_to: "2099-12-31",
  min_total: "5.000",
  max_uses: 100,
  max_uses_per_customer: 1,
});

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  const people = {
    // Holds every transaction permission but not change_product.
    "alpha-seller": [
      "manage_merchant",
      "view_paymenttransaction",
      "search_paymenttransaction",
      "view_paymenttransaction_statistics",
      "add_paymenttransaction",
      "change_paymenttransaction",
      "delete_paymenttransaction",
    ],
    "alpha-chef": ["manage_merchant", "view_order", "change_order"],
    "alpha-cashier": ["manage_merchant", "view_paymenttransaction"],
  };
  for (const [username, permissions] of Object.entries(people)) {
    await createUser(database.db, alpha.merchantId, {
      username,
      email: `${username}@alpha.example`,
      firstName: "A",
      lastName: "B",
      permissions,
    });
  }
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  for (const username of [...Object.keys(people), alpha.admin.username])
    tokens[username] = (await app.apiToken(username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

async function call(path: string, options: { token?: string; apiKey?: string; json?: unknown; method?: string } = {}) {
  const authorization = options.apiKey ? `Api-Key ${options.apiKey}` : `Bearer ${options.token}`;
  const response = await app.request(path, {
    method: options.method,
    json: options.json,
    headers: { Authorization: authorization },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
}

const userId = async (username: string) =>
  (await database.db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
const count = async (table: "catalogue_products" | "offer_codes") =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .where("merchant_id", "=", alpha.merchantId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const productRow = (id: number) =>
  database.db
    .selectFrom("catalogue_products")
    .select(["name_en", "price", "updated_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("API keys on the set-up APIs", () => {
  it("a catalogue:write key of a creator without change_product changes no product", async () => {
    // Made by the creator today: refused, as it would do more than they may.
    const made = await call("/api/v1/admin/api-keys", {
      token: tokens["alpha-seller"],
      json: { name: "Shop", scopes: ["catalogue:write"] },
    });
    expect(made.status).toBe(403);
    expect(Object.keys(made.body)).toEqual(["scopes"]);
    // A key that exists anyway (made before this rule) is checked against its creator when used.
    const seller = { id: await userId("alpha-seller"), username: "alpha-seller" };
    const key = await catalogueApiKey(database.db, alpha.merchantId, seller, ["catalogue:write"]);
    const productId = await insertCatalogueProduct(database.db, alpha.merchantId, { slug: "kept", price: 1000 });
    const before = { products: await count("catalogue_products"), product: await productRow(productId) };

    const created = await call("/api/v1/plugins/catalogue/dashboard/products", {
      apiKey: key,
      json: { slug: "by-key", name_en: "Key", name_ar: "مفتاح", price: "1" },
    });
    expect(created).toEqual({
      status: 403,
      body: {
        detail: "The person who created this API key no longer has this permission, so the key may not do this.",
        code: "api_key_creator_lacks_permission",
      },
    });
    const changed = await call("/api/v1/plugins/catalogue/dashboard/products/kept", {
      apiKey: key,
      method: "PATCH",
      json: { name_en: "Changed", price: "9" },
    });
    expect(changed.status).toBe(403);
    expect(changed.body.code).toBe("api_key_creator_lacks_permission");
    expect(
      (await call("/api/v1/plugins/catalogue/dashboard/products/kept", { apiKey: key, method: "DELETE" })).status,
    ).toBe(403);
    expect({ products: await count("catalogue_products"), product: await productRow(productId) }).toEqual(before);
  });

  it("a menu-scoped key works on the food set-up API when its creator holds the food permission, and not otherwise", async () => {
    const made = await call("/api/v1/admin/api-keys", {
      token: tokens["alpha-chef"],
      json: { name: "Kitchen", scopes: ["menu:read", "menu:write"] },
    });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    const created = await call("/api/v1/plugins/food_ordering/dashboard/vouchers", {
      apiKey: key,
      json: voucher("CHEF10"),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code: "CHEF10" });
    const listed = await call("/api/v1/plugins/food_ordering/dashboard/vouchers", { apiKey: key });
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((row: Json) => row.code)).toEqual(["CHEF10"]);

    // A creator without the food permission: refused when making the key, and a key of theirs is refused when used.
    expect(
      (
        await call("/api/v1/admin/api-keys", {
          token: tokens["alpha-cashier"],
          json: { name: "Kitchen", scopes: ["menu:write"] },
        })
      ).status,
    ).toBe(403);
    const cashier = { id: await userId("alpha-cashier"), username: "alpha-cashier" };
    const theirs = await catalogueApiKey(database.db, alpha.merchantId, cashier, ["menu:write"]);
    const before = await count("offer_codes");
    const refused = await call("/api/v1/plugins/food_ordering/dashboard/vouchers", {
      apiKey: theirs,
      json: voucher("CASHIER10"),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("api_key_creator_lacks_permission");
    expect(await count("offer_codes")).toBe(before);

    // A key without a menu scope: the transactions' scopes on food ordering do not reach its set-up.
    const transactionsOnly = await call("/api/v1/admin/api-keys", {
      token: tokens[alpha.admin.username],
      json: { name: "Orders", scopes: ["food_ordering"] },
    });
    expect(
      (
        await call("/api/v1/plugins/food_ordering/dashboard/vouchers", {
          apiKey: transactionsOnly.body.key,
          json: voucher("ORDERS10"),
        })
      ).status,
    ).toBe(403);
    expect(await count("offer_codes")).toBe(before);
  });

  it("a permission taken from the creator after the key was made is taken from the key; a deactivated creator's key is refused", async () => {
    await createUser(database.db, alpha.merchantId, {
      username: "alpha-sous",
      email: "sous@alpha.example",
      firstName: "S",
      lastName: "C",
      permissions: ["manage_merchant", "view_order", "change_order", "view_booking"],
    });
    const sous = (await app.apiToken("alpha-sous", DEMO_PASSWORD)).access;
    const made = await call("/api/v1/admin/api-keys", {
      token: sous,
      json: { name: "Sous", scopes: ["menu", "events:read"] },
    });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect(
      (await call("/api/v1/plugins/food_ordering/dashboard/vouchers", { apiKey: key, json: voucher("SOUS10") })).status,
    ).toBe(201);
    expect((await call("/api/v1/plugins/event/dashboard/events", { apiKey: key })).status).toBe(200);

    const sousId = await userId("alpha-sous");
    await database.db
      .deleteFrom("user_permissions")
      .where("user_id", "=", sousId)
      .where("permission", "=", "change_order")
      .execute();
    const before = await count("offer_codes");
    const refused = await call("/api/v1/plugins/food_ordering/dashboard/vouchers", {
      apiKey: key,
      json: voucher("SOUS20"),
    });
    expect(refused).toEqual({
      status: 403,
      body: {
        detail: "The person who created this API key no longer has this permission, so the key may not do this.",
        code: "api_key_creator_lacks_permission",
      },
    });
    expect(await count("offer_codes")).toBe(before);
    // What the creator still holds still works.
    expect((await call("/api/v1/plugins/food_ordering/dashboard/vouchers", { apiKey: key })).status).toBe(200);

    await database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", sousId).execute();
    const inactive = await app.request("/api/v1/plugins/event/dashboard/events", {
      headers: { Authorization: `Api-Key ${key}`, "Accept-Language": "ar" },
    });
    expect(inactive.status).toBe(403);
    expect(await inactive.json()).toEqual({
      detail: "لم يعد بإمكان من أنشأ مفتاح API هذا تسجيل الدخول، لذلك يُرفض المفتاح. أنشئ مفتاحًا جديدًا.",
      code: "api_key_creator_inactive",
    });
    expect(
      (await call("/api/v1/plugins/food_ordering/dashboard/vouchers", { apiKey: key, json: voucher("SOUS30") })).status,
    ).toBe(403);
    expect(await count("offer_codes")).toBe(before);
  });

  it("the API keys page offers the set-up scopes in both languages", async () => {
    for (const [lang, label] of [
      ["en", "Food ordering set-up: menu, branches, delivery areas and vouchers"],
      ["ar", "إعداد طلب الطعام: القائمة والفروع ومناطق التوصيل والقسائم"],
    ] as const) {
      const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
      const page = await (await app.request(`/${lang}/admin/api-keys`, { cookie })).text();
      for (const scope of ["menu:read", "menu:write", "events:read", "events:write", "catalogue:write"])
        expect(page).toContain(`value="${scope}"`);
      expect(page).toContain(label);
    }
  });
});
