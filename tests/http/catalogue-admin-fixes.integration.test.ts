import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { insertCatalogueProduct, PNG } from "../support/cadmin-fixtures";
import { loadApp, type TestApp } from "../support/http-app";

// The shop's management holds up against what staff and API callers may send: hostile field names,
// a required field cleared, wrong types, units sold while a form was open, a store whose chosen
// products all went, searches with wildcards, an import lowering a discounted product's price,
// pictures of products not on sale, a settings form refused after a banner was chosen.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let uploads: string;
const tokens: Record<string, string> = {};
const cookies: Record<string, string> = {};

const API = "/api/v1/plugins/catalogue/dashboard";
type Json = Record<string, any>;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  uploads = fs.mkdtempSync(path.join(os.tmpdir(), "catalogue-fixes-"));
  app = await loadApp({ ...database.env, SEED_DEMO: "0", UPLOADS_DIR: uploads });
  for (const user of [alpha.admin.username, beta.admin.username]) {
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
  options: { token?: string; json?: unknown; method?: string; headers?: Record<string, string> } = {},
) {
  const response = await app.request(`${API}/${pathname}`, {
    method: options.method,
    json: options.json,
    headers: { Authorization: `Bearer ${options.token ?? tokens[alpha.admin.username]}`, ...options.headers },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
}

function multipart(
  pathname: string,
  cookie: string,
  fields: [string, string][],
  files: { field: string; bytes: Buffer; name: string }[] = [],
) {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  for (const file of files) body.append(file.field, new File([new Uint8Array(file.bytes)], file.name));
  return app.request(pathname, { method: "POST", body, cookie });
}

const productBySlug = (slug: string) =>
  database.db
    .selectFrom("catalogue_products")
    .selectAll()
    .where("merchant_id", "=", alpha.merchantId)
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();

describe("hostile field names", () => {
  it("never reach Object.prototype from the product form: the product saves and every merchant's pages still answer", async () => {
    const saved = await multipart("/en/catalogue/products/new", cookies[alpha.admin.username], [
      ["intent", "save"],
      ["name_en", "Rose water"],
      ["name_ar", "ماء ورد"],
      ["price", "2.500"],
      ["constructor[prototype][polluted]", "yes"],
      ["images[0][__proto__][polluted]", "yes"],
      ["__proto__[isAdmin]", "true"],
    ]);
    expect(saved.status).toBe(302);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect((await productBySlug("rose-water")).price).toBe(2500);
    expect((await app.request("/en/catalogue/products", { cookie: cookies[beta.admin.username] })).status).toBe(200);
  });
});

describe("products", () => {
  it("refuses a price cleared when editing, under the price, and keeps the stored one", async () => {
    const product = await productBySlug("rose-water");
    const refused = await multipart(`/en/catalogue/products/${product.id}`, cookies[alpha.admin.username], [
      ["intent", "save"],
      ["name_en", "Rose water"],
      ["name_ar", "ماء ورد"],
      ["price", ""],
    ]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toMatch(/id="f-price"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="f-price"/);
    expect(html).toContain("This field is required");
    expect((await productBySlug("rose-water")).price).toBe(2500);
    expect((await call("products/rose-water", { method: "PATCH", json: { price: "" } })).body).toEqual({
      price: ["This field is required"],
    });
  });

  it("answers after units were sold with the inventory left now, so saving the same form again applies what was typed", async () => {
    const cookie = cookies[alpha.admin.username];
    const id = await insertCatalogueProduct(database.db, alpha.merchantId, {
      slug: "candle",
      price: 3000,
      inventory: 10,
    });
    await database.db.updateTable("catalogue_products").set({ inventory: 8 }).where("id", "=", id).execute();
    const refused = await multipart(`/en/catalogue/products/${id}`, cookie, [
      ["intent", "save"],
      ["slug", "candle"],
      ["inventory", "25"],
      ["inventory_shown", "10"],
      ["is_active", "on"],
    ]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Units were sold while you edited");
    expect(html).toContain('name="inventory_shown" value="8"');
    expect(html).toMatch(/name="inventory"[^>]*value="25"|value="25"[^>]*name="inventory"/);
    const again = await multipart(`/en/catalogue/products/${id}`, cookie, [
      ["intent", "save"],
      ["slug", "candle"],
      ["inventory", "25"],
      ["inventory_shown", "8"],
      ["is_active", "on"],
    ]);
    expect(again.status).toBe(302);
    expect((await productBySlug("candle")).inventory).toBe(25);
  });

  it("refuses an inventory_shown that is not a number as a field error", async () => {
    const { status, body } = await call("products/candle", {
      method: "PATCH",
      json: { inventory: 5, inventory_shown: "abc" },
    });
    expect(status).toBe(400);
    expect(body).toEqual({ inventory_shown: ["Enter a whole number from 0, or leave it empty for unlimited."] });
    expect((await productBySlug("candle")).inventory).toBe(25);
  });

  it("answers values of the wrong type in the caller's language, never zod's English", async () => {
    const english = await call("products", {
      json: { slug: "typed", name_en: "Typed", name_ar: "مكتوب", price: true, description_en: 5, is_active: "maybe" },
    });
    expect(english).toEqual({
      status: 400,
      body: {
        price: ["Enter a valid value."],
        description_en: ["Enter a valid value."],
        is_active: ["Enter a valid value."],
      },
    });
    const arabic = await call("products", {
      json: { slug: "typed", name_en: "Typed", name_ar: "مكتوب", price: { amount: 1 } },
      headers: { "Accept-Language": "ar" },
    });
    expect(arabic).toEqual({ status: 400, body: { price: ["أدخل قيمة صحيحة."] } });
  });

  it("finds %, _ and \\ as themselves", async () => {
    await insertCatalogueProduct(database.db, alpha.merchantId, { slug: "sale-50", price: 1000, sku: "OFF50%" });
    await insertCatalogueProduct(database.db, alpha.merchantId, { slug: "musk-oil", price: 1000, sku: "MUSK_OIL" });
    await insertCatalogueProduct(database.db, alpha.merchantId, { slug: "amber", price: 1000, sku: "AMB\\1" });
    const skus = async (search: string) =>
      ((await call(`products?search=${encodeURIComponent(search)}`)).body.results as { sku: string }[])
        .map((row) => row.sku)
        .sort();
    expect(await skus("%")).toEqual(["OFF50%"]);
    expect(await skus("_")).toEqual(["MUSK_OIL"]);
    expect(await skus("\\")).toEqual(["AMB\\1"]);
    const page = await (
      await app.request(`/en/catalogue/products?search=${encodeURIComponent("_")}`, {
        cookie: cookies[alpha.admin.username],
      })
    ).text();
    expect(page).toContain("MUSK_OIL");
    expect(page).not.toContain("OFF50%");
  });

  it("serves an inactive product's pictures only to the merchant's staff", async () => {
    const cookie = cookies[alpha.admin.username];
    const saved = await multipart(
      "/en/catalogue/products/new",
      cookie,
      [
        ["intent", "save"],
        ["name_en", "Hidden gift"],
        ["name_ar", "هدية"],
        ["price", "4"],
        ["is_active", "on"],
      ],
      [{ field: "new_images", bytes: PNG, name: "gift.png" }],
    );
    expect(saved.status).toBe(302);
    const product = await productBySlug("hidden-gift");
    const image = await database.db
      .selectFrom("catalogue_product_images")
      .select("id")
      .where("product_id", "=", product.id)
      .executeTakeFirstOrThrow();
    const publicUrl = `/api/v1/plugins/catalogue/product-image/${image.id}`;
    const staffUrl = `/en/catalogue/products/${product.id}/images/${image.id}`;
    expect((await app.request(publicUrl)).status).toBe(200);
    await database.db.updateTable("catalogue_products").set({ is_active: 0 }).where("id", "=", product.id).execute();
    expect((await app.request(publicUrl)).status).toBe(404);
    const own = await app.request(staffUrl, { cookie });
    expect(own.status).toBe(200);
    expect(own.headers.get("Content-Type")).toBe("image/png");
    expect(own.headers.get("Cache-Control")).toBe("private, max-age=86400");
    expect(Buffer.from(await own.arrayBuffer()).equals(PNG)).toBe(true);
    expect(await (await app.request(`/en/catalogue/products/${product.id}`, { cookie })).text()).toContain(
      `src="${staffUrl}"`,
    );
    expect(
      (
        await app.request(`/en/catalogue/products/${product.id}/images/${image.id}`, {
          cookie: cookies[beta.admin.username],
        })
      ).status,
    ).toBe(404);
    expect((await app.request(staffUrl)).status).toBe(302);
  });
});

describe("stores", () => {
  it("carries nothing, not everything, once its last chosen product is deleted, and refuses an empty choice", async () => {
    await insertCatalogueProduct(database.db, alpha.merchantId, { slug: "kept-everywhere", price: 1000 });
    await insertCatalogueProduct(database.db, alpha.merchantId, { slug: "only-here", price: 1000 });
    const store = await call("stores", { json: { name_en: "Kiosk", name_ar: "كشك", products: ["only-here"] } });
    expect(store.status).toBe(201);
    const everywhere = await call("stores", { json: { name_en: "Mall", name_ar: "مول", products: null } });
    expect((await call("products/only-here", { method: "DELETE" })).status).toBe(204);

    expect((await call(`stores/${store.body.id}`)).body.products).toEqual([]);
    const publicStores = await app.request(
      `/api/v1/plugins/catalogue/stores?merchant=${alpha.merchantId}&product_slugs=kept-everywhere`,
    );
    const listed = ((await publicStores.json()) as { id: number }[]).map((row) => row.id);
    expect(listed).toContain(everywhere.body.id);
    expect(listed).not.toContain(store.body.id);
    const list = await (await app.request("/en/catalogue/stores", { cookie: cookies[alpha.admin.username] })).text();
    expect(list).toContain("Chosen products: 0");

    expect(await call(`stores/${store.body.id}`, { method: "PATCH", json: { products: [] } })).toEqual({
      status: 400,
      body: { products: ["Tick the products this store carries, or choose Every product."] },
    });
    const all = await call(`stores/${store.body.id}`, { method: "PATCH", json: { products: null } });
    expect(all.body.products).toBeNull();
  });
});

describe("discounts", () => {
  it("refuses an amount cleared when editing, and lists validity in each language's date and time", async () => {
    const created = await call("discounts", {
      json: { code: "NEWYEAR", discount_type: "percentage", amount: "10", valid_from: "2026-01-01" },
    });
    expect(created.status).toBe(201);
    const cookie = cookies[alpha.admin.username];
    const refused = await app.request(`/en/catalogue/discounts/${created.body.id}`, {
      cookie,
      form: { intent: "save", code: "NEWYEAR", discount_type: "percentage", amount: "", is_active: "on" },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("This field is required");
    expect(
      (
        await database.db
          .selectFrom("offer_codes")
          .select("amount")
          .where("id", "=", created.body.id)
          .executeTakeFirstOrThrow()
      ).amount,
    ).toBe(1000);

    const english = await (await app.request("/en/catalogue/discounts", { cookie })).text();
    expect(english).toContain("01 Jan 2026, 12:00 AM");
    expect(english).not.toContain("2026-01-01 00:00");
    const arabic = await (await app.request("/ar/catalogue/discounts", { cookie })).text();
    expect(arabic).toContain("01 يناير 2026، 12:00 ص");
  });
});

describe("the product import", () => {
  const upload = (text: string) => {
    const body = new FormData();
    body.set("file", new Blob([text], { type: "text/csv" }), "products.csv");
    return app.request(`${API}/upload/product`, {
      method: "POST",
      body,
      headers: { Authorization: `Bearer ${tokens[beta.admin.username]}` },
    });
  };

  it("names the price cell when a file without discounted prices lowers a price below the product's, and writes nothing", async () => {
    const id = await insertCatalogueProduct(database.db, beta.merchantId, { slug: "gift-box", price: 10000 });
    await database.db.updateTable("catalogue_products").set({ discounted_price: 8000 }).where("id", "=", id).execute();
    const refused = await upload("slug,name_en,name_ar,price\ngift-box,Gift box,علبة هدية,7.000\nnew-one,New,جديد,1\n");
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as Json;
    expect(body.rows).toEqual([
      {
        row: 2,
        column: "price",
        message:
          "The price cannot be below the product's discounted price (8.000); add a discounted_price column to change both.",
      },
    ]);
    expect(
      await database.db
        .selectFrom("catalogue_products")
        .select(["price", "discounted_price"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ price: 10000, discounted_price: 8000 });
    expect(
      await database.db.selectFrom("catalogue_products").select("id").where("slug", "=", "new-one").execute(),
    ).toEqual([]);
    const fine = await upload("slug,name_en,name_ar,price\ngift-box,Gift box,علبة هدية,9.000\n");
    expect(fine.status).toBe(201);
  });

  it("says how large a file may be when it is too large", async () => {
    const response = await app.request(`${API}/upload/product`, {
      method: "POST",
      body: "x",
      headers: {
        Authorization: `Bearer ${tokens[beta.admin.username]}`,
        "Content-Type": "multipart/form-data; boundary=x",
        "Content-Length": String(11 * 1024 * 1024),
      },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ file: ["The file may be at most 10 MB."] });
  });
});

describe("the shop's settings", () => {
  it("keeps a chosen banner picture when the form is refused, and saves it once corrected", async () => {
    const cookie = cookies[alpha.admin.username];
    const fields: [string, string][] = [
      ["currency", "KWD"],
      ["decimal_places", ""],
      ["banner_title_en", "Eid"],
    ];
    const refused = await multipart(
      "/en/catalogue/settings",
      cookie,
      [...fields, ["banner_link", "javascript:alert(1)"]],
      [{ field: "banner_image", bytes: PNG, name: "banner.png" }],
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Enter an https address or a path of this site.");
    const key = /name="_pending_banner" value="([^"]+)"/.exec(html)?.[1];
    expect(key).toMatch(new RegExp(`^catalogue/${alpha.merchantId}/banner-[\\w-]{12}\\.png$`));
    expect(html).toContain("The new picture you chose, saved with the form");

    // A key of another merchant's folder is never taken.
    const foreign = await multipart("/en/catalogue/settings", cookie, [
      ...fields,
      ["banner_link", ""],
      ["_pending_banner", `catalogue/${beta.merchantId}/banner-aaaaaaaaaaaa.png`],
    ]);
    expect(foreign.status).toBe(302);
    const stored = async () =>
      JSON.parse(
        (
          await database.db
            .selectFrom("catalogue_settings")
            .select("data")
            .where("merchant_id", "=", alpha.merchantId)
            .executeTakeFirstOrThrow()
        ).data,
      );
    expect((await stored()).banner.image).toBeNull();

    const saved = await multipart("/en/catalogue/settings", cookie, [
      ...fields,
      ["banner_link", ""],
      ["_pending_banner", key!],
    ]);
    expect(saved.status).toBe(302);
    const image = (await stored()).banner.image as string;
    expect(image).toBe(`/api/v1/plugins/catalogue/banner-image/${alpha.merchantId}/${key!.split("/")[2]}`);
    expect((await app.request(image)).status).toBe(200);
  });
});
