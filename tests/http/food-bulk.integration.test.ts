import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { insertBulkCategory, insertBulkItem, menuOf, removeFoodFeature } from "../support/food-fixtures-bulk";
import { loadApp, type TestApp } from "../support/http-app";
import { XlsxWriter, type XlsxCell } from "~/domain/reporting/xlsx-writer.server";
import { parseCsv, readXlsx } from "~/lib/spreadsheet.server";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let gamma: Awaited<ReturnType<typeof seedMerchant>>;
const tokens: Record<string, string> = {};
const cookies: Record<string, string> = {};

const HEADER =
  "category,name_en,name_ar,price,description_en,description_ar,discounted_price,quantity,sku,available,promoted,sizes,add_ons";

function upload(user: string, file: Blob, name: string, headers: Record<string, string> = {}) {
  const body = new FormData();
  body.set("file", file, name);
  return app.request("/api/v1/plugins/food_ordering/upload/product", {
    method: "POST",
    body,
    headers: { Authorization: `Bearer ${tokens[user]}`, ...headers },
  });
}

const csv = (text: string) => new Blob([text], { type: "text/csv" });

async function xlsx(rows: XlsxCell[][]) {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  const writer = new XlsxWriter(output);
  await writer.start({ sheetName: "Menu", rightToLeft: false, header: HEADER.split(",") });
  await writer.writeRows(rows);
  await writer.finish();
  return new Blob([new Uint8Array(Buffer.concat(chunks))]);
}

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  gamma = await seedMerchant(database.db, "Gamma");
  await createUser(database.db, alpha.merchantId, {
    username: "Alpha-viewer",
    email: "viewer@alpha.example",
    firstName: "V",
    lastName: "W",
    permissions: ["view_order"],
  });
  await createUser(database.db, alpha.merchantId, {
    username: "Alpha-cook",
    email: "cook@alpha.example",
    firstName: "C",
    lastName: "K",
    permissions: ["view_order", "change_order"],
  });
  const grills = await insertBulkCategory(database.db, beta.merchantId, "Grills");
  await insertBulkItem(database.db, beta.merchantId, grills, "GR-TAKEN");
  await removeFoodFeature(database.db, gamma.merchantId, "product_bulk_create");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  for (const user of [alpha.admin.username, beta.admin.username, gamma.admin.username, "Alpha-viewer", "Alpha-cook"]) {
    tokens[user] = (await app.apiToken(user, DEMO_PASSWORD)).access;
    cookies[user] = await app.signIn(user, DEMO_PASSWORD);
  }
});

afterAll(async () => {
  await database?.destroy();
});

describe("uploading a good file", () => {
  it("creates every row of a CSV: new categories, prices in fils, sizes, add-ons, unlimited and limited quantities", async () => {
    const text =
      `\ufeff${HEADER}\r\n` +
      `Grills,Chicken Tikka,تكا دجاج,2.750,"Boneless, grilled on ""charcoal""\nserved hot",دجاج مشوي,2.500,,GR-1,yes,yes,Half:2.750|Full:4.500,Garlic sauce:0.200|Bread:0.150\r\n` +
      `Drinks,Karak Tea,شاي كرك,0.350,,,,40,DR-1,,no,,\r\n` +
      `Drinks,Lemon Mint,ليمون نعناع,1.250,,,,,,no,,,\r\n` +
      `,,,,,,,,,,,,\r\n`;
    const response = await upload("Alpha-cook", csv(text), "menu.csv");
    expect(response.status).toBe(201);
    const answer = await response.json();
    expect(answer).toMatchObject({ created: 3, categories_created: 2 });
    expect(answer.message).toContain("3");
    const menu = await menuOf(database.db, alpha.merchantId);
    expect(menu).toHaveLength(3);
    expect(menu[0]).toMatchObject({
      category: "Grills",
      name_en: "Chicken Tikka",
      name_ar: "تكا دجاج",
      price: 2750,
      discounted_price: 2500,
      quantity: null,
      sku: "GR-1",
      is_promoted: 1,
      sizes: ["Half:2750", "Full:4500"],
      addOns: ["Garlic sauce:200", "Bread:150"],
    });
    const description = await database.db
      .selectFrom("food_items")
      .select("description_en")
      .where("id", "=", menu[0].id)
      .executeTakeFirstOrThrow();
    expect(description.description_en).toBe('Boneless, grilled on "charcoal"\nserved hot');
    expect(menu[1]).toMatchObject({ category: "Drinks", price: 350, quantity: 40, is_available: 1, is_promoted: 0 });
    expect(menu[2]).toMatchObject({ category: "Drinks", sku: null, is_available: 0 });
  });

  it("creates every row of an XLSX, numbers and texts alike, into the categories that exist", async () => {
    const file = await xlsx([
      [
        "Grills",
        "Lamb Kebab",
        "كباب لحم",
        { number: "3.5", decimals: 3 },
        "",
        "",
        "",
        { number: "12", decimals: 0 },
        "GR-2",
        "",
        "",
        "",
        "",
      ],
      [
        "Desserts",
        "Luqaimat",
        "لقيمات",
        "1.250",
        "Date syrup & sesame <crisp>",
        "",
        "",
        "",
        "",
        "TRUE",
        "",
        "",
        "Ice cream:0.500",
      ],
    ]);
    const response = await upload(beta.admin.username, file, "menu.xlsx");
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ created: 2, categories_created: 1 });
    const menu = await menuOf(database.db, beta.merchantId);
    const kebab = menu.find((item) => item.name_en === "Lamb Kebab");
    expect(kebab).toMatchObject({ category: "Grills", price: 3500, quantity: 12, sku: "GR-2" });
    expect(menu.find((item) => item.name_en === "Luqaimat")).toMatchObject({
      category: "Desserts",
      price: 1250,
      addOns: ["Ice cream:500"],
    });
    const categories = await database.db
      .selectFrom("food_categories")
      .select("name_en")
      .where("merchant_id", "=", beta.merchantId)
      .execute();
    expect(categories.map((row) => row.name_en).sort()).toEqual(["Desserts", "Grills"]);
  });

  it("creates 5,000 rows in one upload", async () => {
    const lines = [HEADER];
    for (let index = 0; index < 5000; index++)
      lines.push(
        `Bulk ${index % 20},Dish ${index},طبق ${index},${(index % 9) + 1}.500,,,,,BULK-${index},,,Small:1.000|Large:2.000,Cheese:0.250`,
      );
    const merchant = await seedMerchant(database.db, "Delta");
    const token = (await app.apiToken(merchant.admin.username, DEMO_PASSWORD)).access;
    const body = new FormData();
    body.set("file", csv(lines.join("\n")), "big.csv");
    const created = await app.request("/api/v1/plugins/food_ordering/upload/product", {
      method: "POST",
      body,
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ created: 5000, categories_created: 20 });
    const count = await database.db
      .selectFrom("food_items")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("merchant_id", "=", merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(5000);
    const sizes = await database.db
      .selectFrom("food_item_sizes")
      .innerJoin("food_items", "food_items.id", "food_item_sizes.item_id")
      .select(["food_items.sku", "food_item_sizes.price"])
      .where("food_items.merchant_id", "=", merchant.merchantId)
      .where("food_items.sku", "=", "BULK-4321")
      .execute();
    expect(sizes.map((size) => size.price).sort()).toEqual([1000, 2000]);
  });
});

describe("uploading a file with a bad row", () => {
  it("creates nothing, names the row and the column, and gives the file back with an error column", async () => {
    const text = [
      HEADER,
      "Soups,Lentil Soup,شوربة عدس,1.250,,,,,SP-1,,,,",
      "Soups,Harees,هريس,1.2505,,,2.000,ten,GR-TAKEN,maybe,,Small-1.000,",
      "Soups,Orzo Soup,,1.000,,,,,SP-1,,,,",
    ].join("\r\n");
    const response = await upload(beta.admin.username, csv(text), "menu.csv", { "Accept-Language": "ar" });
    expect(response.status).toBe(400);
    const answer = await response.json();
    const errors = answer.rows as { row: number; column: string; message: string }[];
    expect(errors.map((error) => `${error.row}:${error.column}`)).toEqual([
      "3:price",
      "3:quantity",
      "3:sku",
      "3:available",
      "3:sizes",
      "4:name_ar",
      "4:sku",
    ]);
    expect(errors.find((error) => error.column === "sku" && error.row === 4)?.message).toBe(
      "هذا الرمز مستخدم في الصف 2 من الملف.",
    );
    const report = parseCsv(answer.error_report);
    expect(report[0]).toEqual([...HEADER.split(","), "error"]);
    expect(report[1].at(-1)).toBe("");
    expect(report[2][1]).toBe("Harees");
    expect(report[2].at(-1)).toContain("quantity: ");
    expect(report[3].at(-1)).toContain("name_ar: ");
    const soups = await database.db
      .selectFrom("food_categories")
      .select("id")
      .where("merchant_id", "=", beta.merchantId)
      .where("name_en", "=", "Soups")
      .execute();
    expect(soups).toEqual([]);
    expect((await menuOf(database.db, beta.merchantId)).map((item) => item.name_en)).not.toContain("Lentil Soup");
  });

  it("shows the errors on the page after a form upload, with the report to download, and creates nothing", async () => {
    const body = new FormData();
    body.set("file", csv([HEADER, "Salads,Fattoush,فتوش,1.500,,,1.750,,,,,,"].join("\n")), "menu.csv");
    const page = await app.request("/en/food-ordering/bulk-create", {
      method: "POST",
      body,
      cookie: cookies[alpha.admin.username],
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain("Nothing was created");
    expect(html).toContain("The discounted price cannot be above the price.");
    expect(html).toContain('download="menu-items-error-report.csv"');
    const salads = await database.db
      .selectFrom("food_categories")
      .select("id")
      .where("merchant_id", "=", alpha.merchantId)
      .where("name_en", "=", "Salads")
      .execute();
    expect(salads).toEqual([]);
  });

  it("refuses a file without the required columns, and one that is not a spreadsheet", async () => {
    const missing = await upload(alpha.admin.username, csv("name_en,price\nTea,0.250\n"), "menu.csv");
    expect(missing.status).toBe(400);
    expect((await missing.json()).file[0]).toContain("category, name_ar");
    const broken = await upload(
      alpha.admin.username,
      new Blob([Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])]),
      "menu.xlsx",
    );
    expect(broken.status).toBe(400);
    expect((await broken.json()).file).toEqual(["The file could not be read as CSV or XLSX."]);
  });
});

describe("the page and the example files", () => {
  it("creates from the page's form and says how many rows were created", async () => {
    const body = new FormData();
    body.set("file", csv([HEADER, "Bakery,Zaatar Manakish,مناقيش زعتر,0.750,,,,,,,,,"].join("\n")), "menu.csv");
    const posted = await app.request("/en/food-ordering/bulk-create", {
      method: "POST",
      body,
      cookie: cookies["Alpha-cook"],
    });
    expect(posted.status).toBe(303);
    const location = posted.headers.get("Location")!;
    expect(location).toBe("/en/food-ordering/bulk-create?created=1&categories=1");
    const page = await app.request(location, { cookie: cookies["Alpha-cook"] });
    expect(await page.text()).toContain("Menu items created: 1");
  });

  it("downloads the example files as CSV and XLSX, both readable by the upload", async () => {
    const required = await app.request(
      "/api/v1/plugins/food_ordering/upload/product/example?type=required_fields&format=csv",
    );
    expect(required.status).toBe(200);
    expect(required.headers.get("Content-Disposition")).toContain("menu-items-required-fields.csv");
    expect(parseCsv(await required.text())[0]).toEqual(["category", "name_en", "name_ar", "price"]);
    const all = await app.request("/api/v1/plugins/food_ordering/upload/product/example?type=all_fields&format=xlsx");
    expect(all.status).toBe(200);
    const rows = readXlsx(Buffer.from(await all.arrayBuffer()));
    expect(rows[0]).toEqual(HEADER.split(","));
    expect(rows[1].slice(0, 4)).toEqual(["Grills", "Chicken Tikka", "تكا دجاج", "2.750"]);
    expect(
      (await app.request("/api/v1/plugins/food_ordering/upload/product/example?type=everything&format=pdf")).status,
    ).toBe(400);

    const page = await (
      await app.request("/en/food-ordering/bulk-create", { cookie: cookies[alpha.admin.username] })
    ).text();
    expect(page).toContain("/api/v1/plugins/food_ordering/upload/product/example?type=required_fields&amp;format=csv");
    expect(page).toContain("/api/v1/plugins/food_ordering/upload/product/example?type=all_fields&amp;format=xlsx");

    const example = await (
      await app.request("/api/v1/plugins/food_ordering/upload/product/example?type=all_fields&format=xlsx")
    ).arrayBuffer();
    const uploaded = await upload(alpha.admin.username, new Blob([new Uint8Array(example)]), "example.xlsx");
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toMatchObject({ created: 2 });
  });
});

describe("who may upload", () => {
  it("needs change_order and the feature; a file of one merchant never touches another's menu", async () => {
    const file = () => csv([HEADER, "Grills,Shish Tawook,شيش طاووق,2.000,,,,,,,,,"].join("\n"));
    expect((await upload("Alpha-viewer", file(), "menu.csv")).status).toBe(403);
    expect((await app.request("/en/food-ordering/bulk-create", { cookie: cookies["Alpha-viewer"] })).status).toBe(403);
    expect((await upload(gamma.admin.username, file(), "menu.csv")).status).toBe(404);
    expect((await app.request("/en/food-ordering/bulk-create", { cookie: cookies[gamma.admin.username] })).status).toBe(
      404,
    );
    const anonymous = new FormData();
    anonymous.set("file", file(), "menu.csv");
    expect(
      (await app.request("/api/v1/plugins/food_ordering/upload/product", { method: "POST", body: anonymous })).status,
    ).toBe(401);
    const page = await app.request("/en/food-ordering/bulk-create");
    expect(page.status).toBe(302);
    expect((await menuOf(database.db, alpha.merchantId)).map((item) => item.name_en)).not.toContain("Shish Tawook");
    expect((await menuOf(database.db, gamma.merchantId)).map((item) => item.name_en)).toEqual([]);
  });

  it("creates nothing twice for a retried upload with the same Idempotency-Key", async () => {
    const text = [HEADER, "Breakfast,Balaleet,بلاليط,1.750,,,,,,,,,"].join("\n");
    const first = await upload(alpha.admin.username, csv(text), "menu.csv", { "Idempotency-Key": "bulk-retry-1" });
    const again = await upload(alpha.admin.username, csv(text), "menu.csv", { "Idempotency-Key": "bulk-retry-1" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await menuOf(database.db, alpha.merchantId)).filter((item) => item.name_en === "Balaleet")).toHaveLength(1);
  });
});
