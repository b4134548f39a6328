import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await database.db
    .updateTable("merchants")
    .set({ subheader: "Gifts and flowers", admin_url: "https://admin.alpha.example" })
    .where("id", "=", alpha.merchantId)
    .execute();
  await database.db
    .updateTable("units")
    .set({ header_color: "#0a3d62", instagram_url: "https://instagram.com/beta", show_unit_title: 0 })
    .where("merchant_id", "=", beta.merchantId)
    .execute();
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await database?.destroy();
});

const get = async (path: string, username?: string) => {
  const headers: Record<string, string> = {};
  if (username) headers.Authorization = `Bearer ${(await app.apiToken(username, DEMO_PASSWORD)).access}`;
  return app.request(path, { headers });
};

describe("GET /api/v1/config/", () => {
  it("answers the signed-in user's merchant details, and no other merchant's", async () => {
    const alphaConfig = await get("/api/v1/config/", alpha.staff.username);
    expect(alphaConfig.status).toBe(200);
    expect(await alphaConfig.json()).toEqual({
      admin_url: "https://admin.alpha.example",
      logo_url: "/brand/demo-logo.svg",
      favicon_url: "/favicon.svg",
      title: "Alpha Store",
      title_en: "Alpha Store",
      title_ar: "متجر Alpha",
      subheader: "Gifts and flowers",
      ws_notify_url: "http://localhost/api/v1/notifications/live",
    });
    const betaConfig = (await (await get("/api/v1/config/", beta.admin.username)).json()) as Record<string, unknown>;
    expect(betaConfig).toMatchObject({ title_en: "Beta Store", subheader: null, admin_url: null });
  });

  it("refuses a caller without a token", async () => {
    const answer = await get("/api/v1/config/");
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ detail: "Authentication credentials were not provided." });
  });
});

describe("GET /api/v1/unit/default", () => {
  it("answers the merchant's default unit with its branding", async () => {
    const answer = await get("/api/v1/unit/default", beta.staff.username);
    expect(answer.status).toBe(200);
    const unit = (await answer.json()) as Record<string, unknown>;
    expect(unit).toMatchObject({
      name: "Beta Store",
      title_en: "Beta Store",
      title_ar: "متجر Beta",
      header_color: "#0a3d62",
      instagram_url: "https://instagram.com/beta",
      show_unit_title: false,
      is_default: true,
    });
    expect(typeof unit.terms_en).toBe("string");
    const alphaUnit = (await (await get("/api/v1/unit/default", alpha.staff.username)).json()) as Record<
      string,
      unknown
    >;
    expect(alphaUnit).toMatchObject({ title_en: "Alpha Store", header_color: "#ffffff", show_unit_title: true });
  });

  it("refuses a caller without a token", async () => {
    expect((await get("/api/v1/unit/default")).status).toBe(401);
  });
});
