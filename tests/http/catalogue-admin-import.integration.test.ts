import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { insertCatalogueProduct, removeCatalogueFeature } from "../support/cadmin-fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { XlsxWriter, type XlsxCell } from "~/domain/reporting/xlsx-writer.server";
import { parseCsv, readXlsx } from "~/lib/spreadsheet.server";

// Product import: one CSV or XLSX creates new products and changes those whose slug the shop has,
// all or nothing; one bad cell and nothing is written, each bad cell named with the error report.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
const tokens: Record<string, string> = {};
const cookies: Record<string, string> = {};

const UPLOAD = "/api/v1/plugins/catalogue/dashboard/upload/product";
const HEADER = "slug,name_en,name_ar,price,description_en,description_ar,discounted_price,inventory,sku,active";

function upload(user: string, file: Blob, name: string, headers: Record<string, string> = {}) {
  const body = new FormData();
  body.set("file", file, name);
  return app.request(UPLOAD, {
    method: "POST",
    body,
    headers: { Authorization: `Bearer ${tokens[user]}`, ...headers },
  });
}

const csv = (text: string) => new Blob([text], { type: "text/csv" });

async function xlsx(header: string[], rows: XlsxCell[][]) {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  const writer = new XlsxWriter(output);
  await writer.start({ sheetName: "Products", rightToLeft: false, header });
  await writer.writeRows(rows);
  await writer.finish();
  return new Blob([new Uint8Array(Buffer.concat(chunks))]);
}

const productsOf = (merchantId: number) =>
  database.db
    .selectFrom("catalogue_products")
    .select([
      "slug",
      "name_en",
      "name_ar",
      "description_en",
      "price",
      "discounted_price",
      "inventory",
      "sku",
      "is_active",
    ])
    .where("merchant_id", "=", merchantId)
    .orderBy("slug")
    .execute();

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await insertCatalogueProduct(database.db, beta.merchantId, {
    slug: "oud-perfume",
    price: 15000,
    sku: "OUD-1",
    inventory: 4,
  });
  await insertCatalogueProduct(database.db, beta.merchantId, { slug: "musk", price: 5000, sku: "MSK-1" });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  for (const user of [alpha.admin.username, beta.admin.username, beta.staff.username]) {
    tokens[user] = (await app.apiToken(user, DEMO_PASSWORD)).access;
    cookies[user] = await app.signIn(user, DEMO_PASSWORD);
  }
});
afterAll(async () => database?.destroy());

describe("importing a good file", () => {
  it("creates new products and changes those the shop has by slug, writing only the file's columns", async () => {
    const text = [
      "slug,name_en,name_ar,price,inventory",
      "oud-perfume,Oud perfume 50 ml,عطر عود ٥٠ مل,18.500,",
      "dates-box,Dates box,علبة تمر,7.250,12",
      "",
    ].join("\r\n");
    const response = await upload(beta.admin.username, csv(`\ufeff${text}`), "products.csv");
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ created: 1, updated: 1 });
    const products = await productsOf(beta.merchantId);
    expect(products).toEqual([
      {
        slug: "dates-box",
        name_en: "Dates box",
        name_ar: "علبة تمر",
        description_en: "",
        price: 7250,
        discounted_price: null,
        inventory: 12,
        sku: null,
        is_active: 1,
      },
      {
        slug: "musk",
        name_en: "Product musk",
        name_ar: "منتج musk",
        description_en: "",
        price: 5000,
        discounted_price: null,
        inventory: null,
        sku: "MSK-1",
        is_active: 1,
      },
      // Changed: a blank inventory is unlimited; its SKU, not in the file, is kept.
      {
        slug: "oud-perfume",
        name_en: "Oud perfume 50 ml",
        name_ar: "عطر عود ٥٠ مل",
        description_en: "",
        price: 18500,
        discounted_price: null,
        inventory: null,
        sku: "OUD-1",
        is_active: 1,
      },
    ]);
    const audit = await database.db
      .selectFrom("audit_log")
      .select("description")
      .where("merchant_id", "=", beta.merchantId)
      .where("action", "=", "catalogue_products_imported")
      .execute();
    expect(audit).toEqual([{ description: "Imported products: 1 created, 1 changed" }]);
  });

  it("reads an XLSX, numbers and texts alike, every column", async () => {
    const file = await xlsx(HEADER.split(","), [
      [
        "rose-water",
        "Rose water",
        "ماء ورد",
        { number: "2.5", decimals: 3 },
        "Taif roses",
        "ورد طائفي",
        "2",
        { number: "30", decimals: 0 },
        "RW-1",
        "no",
      ],
      ["incense", "Incense", "بخور", "4.000", "", "", "", "", "", "yes"],
    ]);
    const response = await upload(alpha.admin.username, file, "products.xlsx");
    expect(response.status).toBe(201);
    const products = await productsOf(alpha.merchantId);
    expect(products.find((product) => product.slug === "rose-water")).toMatchObject({
      description_en: "Taif roses",
      price: 2500,
      discounted_price: 2000,
      inventory: 30,
      sku: "RW-1",
      is_active: 0,
    });
    expect(products.find((product) => product.slug === "incense")).toMatchObject({
      price: 4000,
      inventory: null,
      is_active: 1,
    });
  });

  it("imports 5,000 rows at once", async () => {
    const merchant = await seedMerchant(database.db, "Delta");
    const token = (await app.apiToken(merchant.admin.username, DEMO_PASSWORD)).access;
    const lines = [HEADER];
    for (let index = 0; index < 5000; index++)
      lines.push(`item-${index},Item ${index},صنف ${index},${(index % 9) + 1}.250,,,,${index % 50},SKU-${index},yes`);
    const body = new FormData();
    body.set("file", csv(lines.join("\n")), "big.csv");
    const response = await app.request(UPLOAD, { method: "POST", body, headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ created: 5000, updated: 0 });
    const row = await database.db
      .selectFrom("catalogue_products")
      .select(["price", "inventory"])
      .where("merchant_id", "=", merchant.merchantId)
      .where("slug", "=", "item-4321")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ price: 2250, inventory: 21 });
  });
});

describe("importing a file with a bad cell", () => {
  it("writes nothing, names each bad cell by row and column, and gives the file back with an error column", async () => {
    const before = await productsOf(beta.merchantId);
    const text = [
      HEADER,
      "new-candle,Candle,شمعة,3.000,,,,,CND-1,yes",
      "musk,Musk,مسك,5.0005,,,,ten,OUD-1,maybe",
      "Bad Slug,Lamp,,1.000,,,2.000,,,",
      "new-candle,Candle again,شمعة,3.000,,,,,CND-1,",
    ].join("\n");
    const response = await upload(beta.admin.username, csv(text), "products.csv", { "Accept-Language": "ar" });
    expect(response.status).toBe(400);
    const answer = await response.json();
    const errors = answer.rows as { row: number; column: string; message: string }[];
    expect(errors.map((error) => `${error.row}:${error.column}`)).toEqual([
      "3:price",
      "3:inventory",
      "3:sku",
      "3:active",
      "4:slug",
      "4:name_ar",
      "4:discounted_price",
      "5:slug",
      "5:sku",
    ]);
    expect(errors.find((error) => error.row === 3 && error.column === "sku")?.message).toBe(
      "رمز المنتج هذا مستخدم لمنتج آخر من منتجاتك.",
    );
    expect(errors.find((error) => error.row === 5 && error.column === "slug")?.message).toBe(
      "هذا المعرّف موجود في الصف 2.",
    );
    expect(answer.rows_checked).toBe(4);
    const report = parseCsv(answer.error_report);
    expect(report[0]).toEqual([...HEADER.split(","), "error"]);
    expect(report[1].at(-1)).toBe("");
    expect(report[2][0]).toBe("musk");
    expect(report[2].at(-1)).toContain("price: ");
    expect(report[2].at(-1)).toContain("inventory: ");
    expect(report[3].at(-1)).toContain("discounted_price: ");
    expect(await productsOf(beta.merchantId)).toEqual(before);
  });

  it("shows the errors on the page after a form upload, with the report to download, and writes nothing", async () => {
    const body = new FormData();
    body.set("file", csv([HEADER, "lamp,Lamp,مصباح,1.500,,,1.750,,,"].join("\n")), "products.csv");
    const page = await app.request("/en/catalogue/products/upload", {
      method: "POST",
      body,
      cookie: cookies[alpha.admin.username],
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain("Nothing was imported");
    expect(html).toContain("The discounted price cannot be above the price.");
    expect(html).toContain('download="products-error-report.csv"');
    expect(
      await database.db.selectFrom("catalogue_products").select("id").where("slug", "=", "lamp").execute(),
    ).toEqual([]);
  });

  it("refuses a file without the required columns, one that is not a spreadsheet, and one too long", async () => {
    const missing = await upload(alpha.admin.username, csv("name_en,price\nTea,0.250\n"), "products.csv");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ file: ["The file lacks the columns: slug, name_ar"] });
    const broken = await upload(
      alpha.admin.username,
      new Blob([Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])]),
      "products.xlsx",
    );
    expect(await broken.json()).toEqual({ file: ["The file cannot be read as CSV or XLSX."] });
    const lines = [HEADER, ...Array.from({ length: 10_001 }, (_, index) => `p-${index},P,ب,1,,,,,,`)];
    const tooLong = await upload(alpha.admin.username, csv(lines.join("\n")), "products.csv");
    expect(await tooLong.json()).toEqual({ file: ["The file may have at most 10000 rows."] });
  });
});

describe("the page, its permissions and the example files", () => {
  it("imports from the page's form and says how many products were created and changed", async () => {
    const body = new FormData();
    body.set("file", csv([HEADER, "musk,Musk,مسك,5.500,,,,,,"].join("\n")), "products.csv");
    const posted = await app.request("/en/catalogue/products/upload", {
      method: "POST",
      body,
      cookie: cookies[beta.admin.username],
    });
    expect(posted.status).toBe(303);
    const location = posted.headers.get("Location")!;
    expect(location).toBe("/en/catalogue/products/upload?created=0&updated=1");
    const page = await (await app.request(location, { cookie: cookies[beta.admin.username] })).text();
    expect(page).toContain("Products created: 0; changed: 1.");
    const arabic = await (
      await app.request(location.replace("/en/", "/ar/"), { cookie: cookies[beta.admin.username] })
    ).text();
    expect(arabic).toContain("المنتجات المُنشأة: 0؛ المعدّلة: 1.");
  });

  it("is refused without change_product and hidden from a merchant without the feature", async () => {
    expect((await app.request("/en/catalogue/products/upload", { cookie: cookies[beta.staff.username] })).status).toBe(
      403,
    );
    expect((await upload(beta.staff.username, csv(HEADER), "products.csv")).status).toBe(403);
    await removeCatalogueFeature(database.db, alpha.merchantId, "product_upload");
    expect((await app.request("/en/catalogue/products/upload", { cookie: cookies[alpha.admin.username] })).status).toBe(
      404,
    );
    expect((await upload(alpha.admin.username, csv(HEADER), "products.csv")).status).toBe(404);
  });

  it("downloads the example files as CSV and XLSX, both accepted by the import", async () => {
    const required = await app.request(
      "/api/v1/plugins/catalogue/dashboard/upload/product/example?type=required_fields&format=csv",
    );
    expect(required.status).toBe(200);
    expect(required.headers.get("Content-Disposition")).toContain("products-required-fields.csv");
    const requiredText = await required.text();
    expect(parseCsv(requiredText)[0]).toEqual(["slug", "name_en", "name_ar", "price"]);
    const all = await app.request(
      "/api/v1/plugins/catalogue/dashboard/upload/product/example?type=all_fields&format=xlsx",
    );
    const bytes = Buffer.from(await all.arrayBuffer());
    expect(readXlsx(bytes)[0]).toEqual(HEADER.split(","));
    const merchant = await seedMerchant(database.db, "Echo");
    tokens.echo = (await app.apiToken(merchant.admin.username, DEMO_PASSWORD)).access;
    expect((await upload("echo", new Blob([new Uint8Array(bytes)]), "example.xlsx")).status).toBe(201);
    expect((await upload("echo", csv(requiredText), "example.csv")).status).toBe(201);
    expect(await productsOf(merchant.merchantId)).toHaveLength(2);
    const wrong = await app.request("/api/v1/plugins/catalogue/dashboard/upload/product/example?type=some&format=pdf");
    expect(await wrong.json()).toEqual({
      type: ["Choose required_fields or all_fields."],
      format: ["Choose csv or xlsx."],
    });
  });
});
