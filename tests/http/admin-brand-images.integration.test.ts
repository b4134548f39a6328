import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

/** The merchant's logo and favicon, uploaded from the panel and shown on its customer pages. */
let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;

// The smallest PNG there is: 1×1, transparent.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  app = await loadApp({
    ...database.env,
    SEED_DEMO: "0",
    UPLOADS_DIR: `${database.env.SQLITE_PATH ?? "/tmp/kp-uploads-x"}.uploads`,
  });
});
afterAll(async () => database?.destroy());

function upload(
  path: string,
  headers: Record<string, string>,
  bytes: Buffer,
  fields: Record<string, string> = {},
  name = "logo.png",
) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  body.set("file", new File([new Uint8Array(bytes)], name));
  return app.request(path, { method: "POST", headers, body });
}

describe("the logo and the favicon", () => {
  it("are uploaded without JavaScript, served to anyone, and the customer pages show the logo", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const done = await upload("/en/admin/profile/images", { Cookie: cookie }, PNG, { image: "logo" });
    expect(done.status).toBe(302);
    const merchant = await database.db
      .selectFrom("merchants")
      .select(["logo_url"])
      .where("id", "=", alpha.merchantId)
      .executeTakeFirstOrThrow();
    expect(merchant.logo_url).toMatch(new RegExp(`^/media/brand/${alpha.merchantId}/logo-[\\w-]{12}\\.png$`));
    const unit = await database.db
      .selectFrom("units")
      .select("logo_url")
      .where("merchant_id", "=", alpha.merchantId)
      .where("is_default", "=", 1)
      .executeTakeFirstOrThrow();
    expect(unit.logo_url).toBe(merchant.logo_url);
    const served = await app.request(merchant.logo_url!);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Cache-Control")).toContain("immutable");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const headers = { Authorization: `Bearer ${(await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access}` };
    const created = await app.request("/api/v1/plugins/payment_request/transaction", {
      headers,
      json: { amount: "2.000", currency_code: "KWD", pg_codes: ["knet-sandbox"] },
    });
    const page = await (await app.requestPayPage(`/en/pay/${(await created.json()).id}`)).text();
    expect(page).toContain(merchant.logo_url);

    const favicon = await upload("/api/v1/admin/merchant/favicon", headers, PNG, {}, "icon.png");
    expect(favicon.status).toBe(200);
    expect((await favicon.json()).favicon_url).toMatch(/^\/media\/brand\/\d+\/favicon-/);
  });

  it("refuse an SVG, a file too large and anything but an image, in the caller's language, and change nothing", async () => {
    const headers = {
      Authorization: `Bearer ${(await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access}`,
      "Accept-Language": "ar",
    };
    const before = await database.db
      .selectFrom("merchants")
      .select(["logo_url"])
      .where("id", "=", alpha.merchantId)
      .executeTakeFirstOrThrow();
    const svg = await upload("/api/v1/admin/merchant/logo", headers, SVG, {}, "logo.svg");
    expect(svg.status).toBe(400);
    expect(await svg.json()).toEqual({ file: ["ارفع صورة PNG أو JPEG أو WebP."] });
    const large = Buffer.concat([PNG, Buffer.alloc(600 * 1024)]);
    expect((await upload("/api/v1/admin/merchant/logo", headers, large)).status).toBe(400);
    const after = await database.db
      .selectFrom("merchants")
      .select(["logo_url"])
      .where("id", "=", alpha.merchantId)
      .executeTakeFirstOrThrow();
    expect(after.logo_url).toBe(before.logo_url);
    expect((await app.request("/media/brand/1/../../etc/passwd")).status).toBe(404);
    expect((await app.request(`/media/brand/${alpha.merchantId}/logo-aaaaaaaaaaaa.png`)).status).toBe(404);
  });

  it("belong to the merchant of whoever uploads them, who needs manage_merchant", async () => {
    const beforeBeta = await database.db
      .selectFrom("merchants")
      .select(["logo_url"])
      .where("id", "=", beta.merchantId)
      .executeTakeFirstOrThrow();
    await createUser(database.db, alpha.merchantId, {
      username: "alpha-viewer",
      email: "v@alpha.example",
      firstName: "V",
      lastName: "V",
      permissions: ["view_paymenttransaction"],
    });
    const viewer = { Authorization: `Bearer ${(await app.apiToken("alpha-viewer", DEMO_PASSWORD)).access}` };
    expect((await upload("/api/v1/admin/merchant/logo", viewer, PNG)).status).toBe(403);
    const afterBeta = await database.db
      .selectFrom("merchants")
      .select(["logo_url"])
      .where("id", "=", beta.merchantId)
      .executeTakeFirstOrThrow();
    expect(afterBeta.logo_url).toBe(beforeBeta.logo_url);
  });
});
