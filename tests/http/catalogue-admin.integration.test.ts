import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import {
  catalogueApiKey,
  insertCatalogueOrder,
  insertCatalogueProduct,
  PNG,
  removeCatalogueFeature,
} from "../support/cadmin-fixtures";
import { loadApp, type TestApp } from "../support/http-app";

// A merchant manages its shop: products with pictures, stores, discount codes and the shop's
// settings, on the dashboard's forms without JavaScript and by the management API
// (`/api/v1/plugins/catalogue/dashboard/...`, bearer token or Api-Key); another merchant's records
// are never seen or touched.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let gamma: Awaited<ReturnType<typeof seedMerchant>>;
let uploads: string;
const tokens: Record<string, string> = {};
const cookies: Record<string, string> = {};

const API = "/api/v1/plugins/catalogue/dashboard";
type Json = Record<string, any>;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  gamma = await seedMerchant(database.db, "Gamma");
  await createUser(database.db, alpha.merchantId, {
    username: "alpha-clerk",
    email: "clerk@alpha.example",
    firstName: "Clerk",
    lastName: "Viewer",
    permissions: ["view_product"],
  });
  await removeCatalogueFeature(database.db, gamma.merchantId, "products");
  uploads = fs.mkdtempSync(path.join(os.tmpdir(), "catalogue-admin-"));
  app = await loadApp({ ...database.env, SEED_DEMO: "0", UPLOADS_DIR: uploads });
  for (const user of [
    alpha.admin.username,
    beta.admin.username,
    gamma.admin.username,
    alpha.staff.username,
    "alpha-clerk",
  ]) {
    tokens[user] = (await app.apiToken(user, DEMO_PASSWORD)).access;
    cookies[user] = await app.signIn(user, DEMO_PASSWORD);
  }
});
afterAll(async () => {
  await database?.destroy();
  if (uploads) fs.rmSync(uploads, { recursive: true, force: true });
});

async function call(
  pathname: string,
  options: { token?: string; apiKey?: string; json?: unknown; method?: string; headers?: Record<string, string> } = {},
) {
  const authorization = options.apiKey
    ? `Api-Key ${options.apiKey}`
    : `Bearer ${options.token ?? tokens[alpha.admin.username]}`;
  const response = await app.request(`${API}/${pathname}`, {
    method: options.method,
    json: options.json,
    headers: { Authorization: authorization, ...options.headers },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
}

/** The product form posted as a browser without JavaScript posts it (multipart, with its pictures). */
function postProduct(
  pathname: string,
  cookie: string,
  fields: Record<string, string | string[]>,
  pictures: { bytes: Buffer; name: string }[] = [],
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  for (const picture of pictures) body.append("new_images", new File([new Uint8Array(picture.bytes)], picture.name));
  if (!pictures.length) body.append("new_images", new File([], ""));
  return app.request(pathname, { method: "POST", body, cookie });
}

describe("products on the dashboard, without JavaScript", () => {
  it("creates a product with a picture and a slug made from its English name, lists it with its thumbnail and Unlimited, and serves the picture to anyone", async () => {
    const cookie = cookies[alpha.admin.username];
    const saved = await postProduct(
      "/en/catalogue/products/new",
      cookie,
      {
        intent: "save",
        name_en: "Oud Perfume 50ml",
        name_ar: "عطر عود",
        slug: "",
        price: "18.500",
        discounted_price: "",
        inventory: "",
        sku: "OUD-1",
        unit: "",
        position: "",
        is_active: "on",
      },
      [{ bytes: PNG, name: "oud.png" }],
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/en/catalogue/products");
    const product = await database.db
      .selectFrom("catalogue_products")
      .selectAll()
      .where("merchant_id", "=", alpha.merchantId)
      .where("sku", "=", "OUD-1")
      .executeTakeFirstOrThrow();
    expect(product).toMatchObject({
      slug: "oud-perfume-50ml",
      name_ar: "عطر عود",
      price: 18500,
      discounted_price: null,
      inventory: null,
      is_active: 1,
    });
    const images = await database.db
      .selectFrom("catalogue_product_images")
      .select(["id", "path"])
      .where("product_id", "=", product.id)
      .execute();
    expect(images).toHaveLength(1);
    expect(images[0].path).toMatch(new RegExp(`^catalogue/${alpha.merchantId}/product-[\\w-]{12}\\.png$`));

    const list = await (await app.request("/en/catalogue/products", { cookie })).text();
    expect(list).toContain("Oud Perfume 50ml");
    expect(list).toContain(`src="/en/catalogue/products/${product.id}/images/${images[0].id}"`);
    expect(list).toContain("KWD\u00a018.500");
    expect(list).toContain("Unlimited");

    const picture = await app.request(`/api/v1/plugins/catalogue/product-image/${images[0].id}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("Content-Type")).toBe("image/png");
    expect(picture.headers.get("Cache-Control")).toBe("public, max-age=86400");
    expect(Buffer.from(await picture.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await app.request("/api/v1/plugins/catalogue/product-image/999999")).status).toBe(404);

    const audit = await database.db
      .selectFrom("audit_log")
      .select("description")
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "=", "catalogue_product_created")
      .execute();
    expect(audit).toEqual([{ description: "Created the product Oud Perfume 50ml (oud-perfume-50ml)" }]);
  });

  it("refuses bad values under their fields in the reader's language, keeps what was typed and the picture sent, and saves once corrected", async () => {
    const cookie = cookies[alpha.admin.username];
    const fields = {
      intent: "save",
      name_en: "Dates box",
      name_ar: "علبة تمر",
      slug: "Dates Box",
      price: "7.2505",
      discounted_price: "9",
      inventory: "-3",
      sku: "oud-1",
    };
    const refused = await postProduct("/en/catalogue/products/new", cookie, fields, [
      { bytes: PNG, name: "dates.png" },
    ]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Use only lower-case Latin letters, digits and hyphens (a-z, 0-9, -).");
    expect(html).toContain("Enter a whole number from 0, or leave it empty for unlimited.");
    expect(html).toContain('value="Dates box"');
    expect(html).toContain('value="7.2505"');
    const pending = /name="_pending_images" value="([^"]+)"/.exec(html)?.[1];
    expect(pending).toMatch(new RegExp(`^catalogue/${alpha.merchantId}/product-`));

    const second = await postProduct("/en/catalogue/products/new", cookie, {
      ...fields,
      slug: "dates-box",
      inventory: "12",
      _pending_images: pending!,
    });
    expect(second.status).toBe(400);
    const secondHtml = await second.text();
    expect(secondHtml).toContain("Too many decimal places for this currency");
    expect(secondHtml).toContain("Another of your products has this SKU.");
    expect(secondHtml).toContain(pending!);

    const arabic = await postProduct("/ar/catalogue/products/new", cookies[alpha.admin.username], {
      ...fields,
      slug: "dates-box",
      price: "7.250",
      inventory: "12",
      sku: "",
    });
    expect(arabic.status).toBe(400);
    expect(await arabic.text()).toContain("لا يمكن أن يكون السعر بعد الخصم أعلى من السعر.");

    const saved = await postProduct("/en/catalogue/products/new", cookie, {
      ...fields,
      slug: "dates-box",
      price: "7.250",
      discounted_price: "6.500",
      inventory: "12",
      sku: "DAT-1",
      _pending_images: pending!,
    });
    expect(saved.status).toBe(302);
    const product = await database.db
      .selectFrom("catalogue_products")
      .select(["id", "price", "discounted_price", "inventory"])
      .where("merchant_id", "=", alpha.merchantId)
      .where("slug", "=", "dates-box")
      .executeTakeFirstOrThrow();
    expect(product).toMatchObject({ price: 7250, discounted_price: 6500, inventory: 12 });
    const images = await database.db
      .selectFrom("catalogue_product_images")
      .select("path")
      .where("product_id", "=", product.id)
      .execute();
    expect(images).toEqual([{ path: pending }]);
  });

  it("refuses a file that is not a picture, and a sixth picture", async () => {
    const cookie = cookies[alpha.admin.username];
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    const refused = await postProduct(
      "/en/catalogue/products/new",
      cookie,
      { intent: "save", name_en: "Candle", name_ar: "شمعة", price: "3" },
      [{ bytes: svg, name: "candle.png" }],
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Choose a JPEG, PNG or WebP picture.");
    const six = Array.from({ length: 6 }, (_, index) => ({ bytes: PNG, name: `c${index}.png` }));
    const tooMany = await postProduct(
      "/en/catalogue/products/new",
      cookie,
      { intent: "save", name_en: "Candle", name_ar: "شمعة", price: "3" },
      six,
    );
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain("A product may have at most 5 pictures.");
    expect(
      await database.db.selectFrom("catalogue_products").select("id").where("slug", "=", "candle").execute(),
    ).toEqual([]);
  });

  it("reorders and removes pictures, and keeps sales made while the form was open", async () => {
    const cookie = cookies[alpha.admin.username];
    const product = await database.db
      .selectFrom("catalogue_products")
      .select("id")
      .where("slug", "=", "dates-box")
      .executeTakeFirstOrThrow();
    const page = `/en/catalogue/products/${product.id}`;
    const added = await postProduct(page, cookie, { intent: "save", inventory: "12", inventory_shown: "12" }, [
      { bytes: PNG, name: "second.png" },
    ]);
    expect(added.status).toBe(302);
    const before = await database.db
      .selectFrom("catalogue_product_images")
      .select(["id", "position"])
      .where("product_id", "=", product.id)
      .orderBy("position")
      .execute();
    expect(before).toHaveLength(2);
    // Two units sold meanwhile: the form still shows 12, unchanged, so the 10 left stand.
    await database.db.updateTable("catalogue_products").set({ inventory: 10 }).where("id", "=", product.id).execute();
    const reordered = await postProduct(page, cookie, {
      intent: "save",
      inventory: "12",
      inventory_shown: "12",
      "images[0].id": String(before[0].id),
      "images[0].position": "2",
      "images[1].id": String(before[1].id),
      "images[1].position": "1",
    });
    expect(reordered.status).toBe(302);
    const after = await database.db
      .selectFrom("catalogue_product_images")
      .select("id")
      .where("product_id", "=", product.id)
      .orderBy("position")
      .execute();
    expect(after.map((image) => image.id)).toEqual([before[1].id, before[0].id]);
    expect(
      (
        await database.db
          .selectFrom("catalogue_products")
          .select("inventory")
          .where("id", "=", product.id)
          .executeTakeFirstOrThrow()
      ).inventory,
    ).toBe(10);
    // A changed inventory while units were sold is refused rather than overwriting the sales.
    const changed = await postProduct(page, cookie, { intent: "save", inventory: "20", inventory_shown: "12" });
    expect(changed.status).toBe(400);
    expect(await changed.text()).toContain("Units were sold while you edited: the inventory was not changed.");
    const removed = await postProduct(page, cookie, {
      intent: "save",
      "images[0].id": String(before[1].id),
      "images[0].remove": "on",
      "images[1].id": String(before[0].id),
    });
    expect(removed.status).toBe(302);
    expect(
      await database.db
        .selectFrom("catalogue_product_images")
        .select("id")
        .where("product_id", "=", product.id)
        .execute(),
    ).toEqual([{ id: before[0].id }]);
  });

  it("lets view_product look but not change, refuses staff without it, sends strangers to sign in, and hides the pages of a merchant without the feature", async () => {
    const product = await database.db
      .selectFrom("catalogue_products")
      .select("id")
      .where("slug", "=", "dates-box")
      .executeTakeFirstOrThrow();
    const clerkList = await app.request("/en/catalogue/products", { cookie: cookies["alpha-clerk"] });
    expect(clerkList.status).toBe(200);
    expect(await clerkList.text()).not.toContain('href="/en/catalogue/products/new"');
    const clerkPost = await postProduct(`/en/catalogue/products/${product.id}`, cookies["alpha-clerk"], {
      intent: "save",
      price: "1",
    });
    expect(clerkPost.status).toBe(403);
    expect((await app.request("/en/catalogue/products", { cookie: cookies[alpha.staff.username] })).status).toBe(403);
    expect((await app.request("/en/catalogue/discounts", { cookie: cookies[alpha.staff.username] })).status).toBe(403);
    const stranger = await app.request("/en/catalogue/products");
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("Location")).toBe("/en/login?redirectTo=%2Fen%2Fcatalogue%2Fproducts");
    expect((await app.request("/en/catalogue/products", { cookie: cookies[gamma.admin.username] })).status).toBe(404);
    expect((await call("products", { token: tokens[gamma.admin.username] })).status).toBe(404);
  });

  it("never shows nor changes another merchant's product", async () => {
    const product = await database.db
      .selectFrom("catalogue_products")
      .select("id")
      .where("slug", "=", "dates-box")
      .executeTakeFirstOrThrow();
    const betaCookie = cookies[beta.admin.username];
    expect((await app.request(`/en/catalogue/products/${product.id}`, { cookie: betaCookie })).status).toBe(404);
    expect((await postProduct(`/en/catalogue/products/${product.id}`, betaCookie, { intent: "delete" })).status).toBe(
      404,
    );
    expect(await (await app.request("/en/catalogue/products", { cookie: betaCookie })).text()).not.toContain(
      "Dates box",
    );
    expect((await call("products/dates-box", { token: tokens[beta.admin.username] })).status).toBe(404);
  });

  it("finds products by name, slug or SKU", async () => {
    const cookie = cookies[alpha.admin.username];
    const found = await (await app.request("/en/catalogue/products?search=ES-BO", { cookie })).text();
    expect(found).toContain("Dates box");
    expect(found).not.toContain("Oud Perfume 50ml");
    const bySku = await (await app.request("/en/catalogue/products?search=oud-1", { cookie })).text();
    expect(bySku).toContain("Oud Perfume 50ml");
    expect(bySku).not.toContain("Dates box");
    const arabic = await (
      await app.request(`/ar/catalogue/products?search=${encodeURIComponent("عطر")}`, { cookie })
    ).text();
    expect(arabic).toContain("عطر عود");
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).not.toContain("علبة تمر");
  });
});

describe("the products API", () => {
  const perfume = {
    slug: "amber-musk",
    name_en: "Amber musk",
    name_ar: "مسك العنبر",
    price: "12.500",
    discounted_price: "10.000",
    inventory: 30,
  };

  it("creates a product with the issue's fields and answers it with prices in the shop's currency", async () => {
    const { status, body } = await call("products", {
      json: { ...perfume, description_en: "Warm", sku: "AM-1" },
      headers: { "Idempotency-Key": "amber-1" },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      slug: "amber-musk",
      name_en: "Amber musk",
      name_ar: "مسك العنبر",
      price: "12.500",
      discounted_price: "10.000",
      inventory: 30,
      sku: "AM-1",
      description_en: "Warm",
      is_active: true,
      currency: "KWD",
      images: [],
    });
    const again = await call("products", {
      json: { ...perfume, description_en: "Warm", sku: "AM-1" },
      headers: { "Idempotency-Key": "amber-1" },
    });
    expect(again.body.id).toBe(body.id);
    const listed = await call("products?search=amber");
    expect(listed.body.count).toBe(1);
    expect(listed.body.results[0].slug).toBe("amber-musk");
    expect((await call("products/amber-musk")).body).toMatchObject({ id: body.id, inventory: 30 });
  });

  it("answers bad fields DRF-style in English and in Arabic", async () => {
    const { status, body } = await call("products", {
      json: { ...perfume, name_ar: "", price: "12.5555", inventory: "many" },
    });
    expect(status).toBe(400);
    expect(body).toEqual({
      name_ar: ["This field is required"],
      inventory: ["Enter a whole number from 0, or leave it empty for unlimited."],
    });
    const second = await call("products", { json: { ...perfume, price: "12.5555" } });
    expect(second.body).toEqual({
      slug: ["Another of your products has this slug."],
      price: ["Too many decimal places for this currency"],
    });
    const arabic = await call("products", {
      json: { ...perfume, slug: "amber-2", discounted_price: "20" },
      headers: { "Accept-Language": "ar" },
    });
    expect(arabic.body).toEqual({ discounted_price: ["لا يمكن أن يكون السعر بعد الخصم أعلى من السعر."] });
  });

  it("changes only the fields sent, unlimited inventory is null, and a product orders name is only deactivated", async () => {
    const patched = await call("products/amber-musk", {
      method: "PATCH",
      json: { inventory: null, discounted_price: null, slug: "amber-musk-100ml" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      slug: "amber-musk-100ml",
      price: "12.500",
      discounted_price: null,
      inventory: null,
      name_en: "Amber musk",
    });
    expect((await call("products/amber-musk")).status).toBe(404);
    const spare = await call("products", { json: { slug: "spare", name_en: "Spare", name_ar: "احتياطي", price: 1 } });
    expect(spare.body.price).toBe("1.000");
    expect((await call("products/spare", { method: "DELETE" })).status).toBe(204);
    expect((await call("products/spare")).status).toBe(404);
    await insertCatalogueOrder(database.db, alpha.merchantId, { productId: patched.body.id });
    expect(await call("products/amber-musk-100ml", { method: "DELETE" })).toEqual({
      status: 200,
      body: { deactivated: true },
    });
    expect((await call("products/amber-musk-100ml")).body.is_active).toBe(false);
  });

  it("takes an API key: catalogue:read reads, catalogue:write changes, a key for another section finds nothing", async () => {
    const reader = await catalogueApiKey(database.db, alpha.merchantId, alpha.admin, ["catalogue:read"]);
    const writer = await catalogueApiKey(database.db, alpha.merchantId, alpha.admin, ["catalogue"]);
    const other = await catalogueApiKey(database.db, alpha.merchantId, alpha.admin, ["payment_request"]);
    expect((await call("products", { apiKey: reader })).status).toBe(200);
    expect(
      await call("products", {
        apiKey: reader,
        json: { slug: "by-key", name_en: "Key", name_ar: "مفتاح", price: "1" },
      }),
    ).toEqual({ status: 403, body: { detail: "You do not have permission to perform this action." } });
    const created = await call("products", {
      apiKey: writer,
      json: { slug: "by-key", name_en: "Key", name_ar: "مفتاح", price: "1" },
    });
    expect(created.status).toBe(201);
    expect((await call("products", { apiKey: other })).status).toBe(404);
    expect((await call("products", { apiKey: "not-a-key" })).status).toBe(401);
    expect((await app.request(`${API}/products`)).status).toBe(401);
    const audit = await database.db
      .selectFrom("audit_log")
      .select("actor_name")
      .where("action", "=", "catalogue_product_created")
      .where("object_id", "=", String(created.body.id))
      .executeTakeFirstOrThrow();
    expect(audit.actor_name).toMatch(/^api-key:/);
  });

  it("needs view_product to read and change_product to write", async () => {
    expect((await call("products", { token: tokens["alpha-clerk"] })).status).toBe(200);
    expect(
      (
        await call("products", {
          token: tokens["alpha-clerk"],
          json: { slug: "no", name_en: "No", name_ar: "لا", price: "1" },
        })
      ).status,
    ).toBe(403);
    expect((await call("products", { token: tokens[alpha.staff.username] })).status).toBe(403);
  });
});

describe("stores", () => {
  it("creates a store carrying chosen products by API, refuses an unknown slug, and lists every product for a store carrying all", async () => {
    await insertCatalogueProduct(database.db, beta.merchantId, { slug: "beta-only", price: 1000 });
    const refused = await call("stores", {
      json: { name_en: "Avenues", name_ar: "الأفنيوز", products: ["dates-box", "beta-only"] },
    });
    expect(refused).toEqual({ status: 400, body: { products: ["These products are not in your shop: beta-only"] } });
    const { status, body } = await call("stores", {
      json: { name_en: "Avenues", name_ar: "الأفنيوز", phone: "+965 2222 3333", products: ["dates-box"] },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name_en: "Avenues",
      phone: "+965 2222 3333",
      is_active: true,
      products: ["dates-box"],
    });
    const all = await call(`stores/${body.id}`, { method: "PATCH", json: { products: null } });
    expect(all.body.products).toBeNull();
    expect((await call(`stores/${body.id}`, { token: tokens[beta.admin.username] })).status).toBe(404);
  });

  it("saves a store from its form, with the products ticked, and asks for a product when none is", async () => {
    const cookie = cookies[alpha.admin.username];
    const form = {
      intent: "save",
      name_en: "Salmiya",
      name_ar: "السالمية",
      address_en: "Salem St",
      address_ar: "شارع سالم",
      phone: "22223333",
      position: "",
      is_active: "on",
      carries: "chosen",
    };
    const refused = await app.request("/en/catalogue/stores/new", { cookie, form });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Tick the products this store carries, or choose Every product.");
    expect(html).toContain(">Salem St</textarea>");
    const body = new URLSearchParams({ ...form });
    body.append("products", "dates-box");
    body.append("products", "oud-perfume-50ml");
    const saved = await app.request("/en/catalogue/stores/new", {
      cookie,
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      method: "POST",
    });
    expect(saved.status).toBe(302);
    const store = await database.db
      .selectFrom("catalogue_stores")
      .select("id")
      .where("name_en", "=", "Salmiya")
      .executeTakeFirstOrThrow();
    const carried = await database.db
      .selectFrom("catalogue_store_products")
      .select("product_id")
      .where("store_id", "=", store.id)
      .execute();
    expect(carried).toHaveLength(2);
    const list = await (await app.request("/en/catalogue/stores", { cookie })).text();
    expect(list).toContain("Chosen products: 2");
    expect(list).toContain("All products");
  });
});

describe("discounts", () => {
  it("creates a discount code by API and refuses a code the merchant has in any case, a percentage above 100 and dates the wrong way round", async () => {
    const created = await call("discounts", {
      json: {
        code: "EID10",
        discount_type: "percentage",
        amount: "10",
        valid_from: "2026-01-01",
        valid_to: "2099-12-31",
        min_total: "5",
        max_uses: 100,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: "EID10",
      discount_type: "percentage",
      amount: "10",
      min_total: "5.000",
      max_uses: 100,
      used: 0,
      is_active: true,
      valid_from: "2025-12-31T21:00:00.000Z",
    });
    const refused = await call("discounts", {
      json: {
        code: "eid10",
        discount_type: "percentage",
        amount: "150",
        valid_from: "2027-01-02",
        valid_to: "2027-01-01",
      },
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        code: ["You already have a discount with this code."],
        amount: ["Enter a percentage above 0 and at most 100."],
        valid_to: ["The end of validity must come after its start."],
      },
    });
    const fixed = await call("discounts", {
      json: { code: "FLAT", discount_type: "fixed", amount: "0.0005" },
      headers: { "Accept-Language": "ar" },
    });
    expect(fixed.body).toEqual({ amount: ["عدد الخانات العشرية أكبر مما تسمح به هذه العملة"] });
    expect(
      (
        await call("discounts", {
          token: tokens[beta.admin.username],
          json: { code: "EID10", discount_type: "fixed", amount: "1" },
        })
      ).status,
    ).toBe(201);
  });

  it("never lowers the limit below the uses orders made, and never lets a form write the uses", async () => {
    const discount = await database.db
      .selectFrom("offer_codes")
      .select("id")
      .where("merchant_id", "=", alpha.merchantId)
      .where("code", "=", "EID10")
      .executeTakeFirstOrThrow();
    await database.db.updateTable("offer_codes").set({ used: 4 }).where("id", "=", discount.id).execute();
    const cookie = cookies[alpha.admin.username];
    const refused = await app.request(`/en/catalogue/discounts/${discount.id}`, {
      cookie,
      form: {
        intent: "save",
        code: "EID10",
        discount_type: "percentage",
        amount: "10",
        max_uses: "3",
        used: "0",
        is_active: "on",
      },
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Orders have already used it 4 times: the limit cannot be lower.");
    expect(html).toContain('value="3"');
    const saved = await app.request(`/en/catalogue/discounts/${discount.id}`, {
      cookie,
      form: {
        intent: "save",
        code: "EID10",
        discount_type: "percentage",
        amount: "12.5",
        max_uses: "4",
        used: "0",
        is_active: "on",
      },
    });
    expect(saved.status).toBe(302);
    expect(
      await database.db
        .selectFrom("offer_codes")
        .select(["amount", "max_uses", "used"])
        .where("id", "=", discount.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ amount: 1250, max_uses: 4, used: 4 });
    const list = await (await app.request("/en/catalogue/discounts", { cookie })).text();
    expect(list).toContain("12.5%");
    expect(list).toContain("4 / 4");
    // Used by an order: deleting only deactivates it.
    const product = await database.db
      .selectFrom("catalogue_products")
      .select("id")
      .where("slug", "=", "dates-box")
      .executeTakeFirstOrThrow();
    await insertCatalogueOrder(database.db, alpha.merchantId, { productId: product.id, discountId: discount.id });
    const removed = await app.request(`/en/catalogue/discounts/${discount.id}`, { cookie, form: { intent: "delete" } });
    expect(removed.status).toBe(302);
    expect(
      (
        await database.db
          .selectFrom("offer_codes")
          .select("is_active")
          .where("id", "=", discount.id)
          .executeTakeFirstOrThrow()
      ).is_active,
    ).toBe(0);
  });
});

describe("the shop's settings", () => {
  it("saves the configuration and the banner with its picture, and the shop's settings read them back", async () => {
    const cookie = cookies[beta.admin.username];
    const body = new FormData();
    for (const [name, value] of Object.entries({
      currency: "KWD",
      show_banner: "on",
      label_store_en: "Pick-up store",
      label_store_ar: "متجر الاستلام",
      decimal_places: "",
      terms_en: "No returns",
      terms_ar: "لا استرجاع",
      banner_title_en: "Eid sale",
      banner_title_ar: "تخفيضات العيد",
      banner_subtitle_en: "",
      banner_subtitle_ar: "",
      banner_link: "/en/catalogue/product-list",
    }))
      body.append(name, value);
    body.append("banner_image", new File([new Uint8Array(PNG)], "banner.png"));
    const saved = await app.request("/en/catalogue/settings", { method: "POST", body, cookie });
    expect(saved.status).toBe(302);
    const row = await database.db
      .selectFrom("catalogue_settings")
      .select("data")
      .where("merchant_id", "=", beta.merchantId)
      .executeTakeFirstOrThrow();
    const data = JSON.parse(row.data);
    expect(data).toMatchObject({
      currency: "KWD",
      show_banner: true,
      label_store_en: "Pick-up store",
      label_store_ar: "متجر الاستلام",
      decimal_places: null,
      terms_ar: "لا استرجاع",
    });
    expect(data.banner).toMatchObject({
      title_en: "Eid sale",
      title_ar: "تخفيضات العيد",
      link: "/en/catalogue/product-list",
    });
    expect(data.banner.image).toMatch(
      new RegExp(`^/api/v1/plugins/catalogue/banner-image/${beta.merchantId}/banner-[\\w-]{12}\\.png$`),
    );
    const picture = await app.request(data.banner.image);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("Content-Type")).toBe("image/png");
    const page = await (await app.request("/en/catalogue/settings", { cookie })).text();
    expect(page).toContain('value="Pick-up store"');
    expect(page).toContain(data.banner.image);
  });

  it("refuses fewer decimals than a price has, a link elsewhere, and a currency the merchant does not take", async () => {
    const cookie = cookies[beta.admin.username];
    await insertCatalogueProduct(database.db, beta.merchantId, { slug: "odd-price", price: 1255 });
    const refused = await app.request("/en/catalogue/settings", {
      cookie,
      form: { currency: "KWD", decimal_places: "2", banner_link: "javascript:alert(1)" },
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Enter an https address or a path of this site.");
    const places = await app.request("/en/catalogue/settings", {
      cookie,
      form: { currency: "KWD", decimal_places: "2", banner_link: "" },
    });
    expect(places.status).toBe(400);
    expect(await places.text()).toContain("Some prices or discounts have more decimals than that: change them first.");
    const currency = await app.request("/ar/catalogue/settings", {
      cookie,
      form: { currency: "JPY", decimal_places: "" },
    });
    expect(currency.status).toBe(400);
    expect(await currency.text()).toContain("اختر إحدى عملاتك.");
    await database.db.updateTable("catalogue_products").set({ price: 1250 }).where("slug", "=", "odd-price").execute();
    const saved = await app.request("/en/catalogue/settings", {
      cookie,
      form: { currency: "KWD", decimal_places: "2" },
    });
    expect(saved.status).toBe(302);
    // The shop now shows two decimals: a price with a third is refused.
    const product = await call("products", {
      token: tokens[beta.admin.username],
      json: { slug: "fils", name_en: "Fils", name_ar: "فلس", price: "1.255" },
    });
    expect(product.body).toEqual({
      price: ["The shop shows prices with 2 decimal places; write the amount with no more."],
    });
  });
});
