import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, sessionCookieFrom, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Alpha");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await database?.destroy();
});

describe("languages and unknown paths", () => {
  it("retries a path without a language with /en", async () => {
    const response = await app.request("/login?redirectTo=%2Fen%2Fhelp");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/en/login?redirectTo=%2Fen%2Fhelp");
    expect((await app.request("/")).headers.get("Location")).toBe("/en");
  });

  it("answers an unknown page with 404 'Page not found', in both languages", async () => {
    const english = await app.request("/en/no-such-page");
    expect(english.status).toBe(404);
    expect(await english.text()).toContain("Page not found");
    const arabic = await app.request("/ar/no-such-page/deeper");
    expect(arabic.status).toBe(404);
    const html = await arabic.text();
    expect(html).toContain('<html lang="ar" dir="rtl"');
    expect(html).toContain("الصفحة غير موجودة");
  });

  it("renders the login page right-to-left in Arabic", async () => {
    const html = await (await app.request("/ar/login")).text();
    expect(html).toContain('<html lang="ar" dir="rtl"');
    expect(html).toContain("اسم المستخدم");
  });

  it("sends security headers with a nonce-based CSP", async () => {
    const response = await app.request("/en/login");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(await response.text()).toContain(`nonce="${nonce}"`);
  });
});

describe("sign-in", () => {
  it("sets a random HttpOnly, SameSite=Lax session id and a new one at every sign-in", async () => {
    const response = await app.request("/en/login", {
      form: { intent: "login", username: shop.admin.username, password: DEMO_PASSWORD },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/en");
    const header = response.headers.getSetCookie().find((value) => value.startsWith("kp_session="))!;
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    const first = sessionCookieFrom(response)!;
    expect(first.length - "kp_session=".length).toBeGreaterThanOrEqual(43);
    const second = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    expect(second).not.toBe(first);
  });

  it("refuses a wrong password with a message and no session", async () => {
    const response = await app.request("/en/login", {
      form: { intent: "login", username: shop.admin.username, password: "Wrong@2026!" },
    });
    expect(response.status).toBe(400);
    expect(sessionCookieFrom(response)).toBeNull();
    expect(await response.text()).toContain("Unable to log in with provided credentials.");
  });

  it("sends a signed-in user from the login page to the dashboard root", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD, "ar");
    const response = await app.request("/ar/login", { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/ar");
  });

  it("asks for a one-time code instead of signing in a user who needs one", async () => {
    const response = await app.request("/en/login", {
      form: { intent: "login", username: shop.otp.username, password: DEMO_PASSWORD },
    });
    expect(response.status).toBe(200);
    expect(sessionCookieFrom(response)).toBeNull();
    expect(await response.text()).toContain("Enter your one-time code");
  });
});

describe("sessions", () => {
  it("refuses a session id after logout", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    expect((await app.request("/en", { cookie })).status).toBe(200);
    const logout = await app.request("/en/logout", { method: "POST", cookie, form: {} });
    expect(logout.status).toBe(302);
    const after = await app.request("/en", { cookie });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/en\/login/);
  });

  it("ends a session idle for 20 minutes on the server", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    await app.request("/__test/clock", { json: { ms: 19 * 60_000 } });
    expect((await app.request("/en", { cookie })).status).toBe(200);
    await app.request("/__test/clock", { json: { ms: 19 * 60_000 } });
    expect((await app.request("/en", { cookie })).status).toBe(200);
    await app.request("/__test/clock", { json: { ms: 21 * 60_000 } });
    const expired = await app.request("/en", { cookie });
    expect(expired.status).toBe(302);
    expect(expired.headers.get("Location")).toMatch(/^\/en\/login/);
    // Still refused when the clock does not move any more: the session row is gone.
    expect((await app.request("/en", { cookie })).status).toBe(302);
  });

  it("survives a malformed cookie", async () => {
    const response = await app.request("/en/login", { cookie: "kp_session=%; kp_flash=%E0%A4%A" });
    expect(response.status).toBe(200);
  });

  it("refuses a made-up session id", async () => {
    const response = await app.request("/en/user", { cookie: "kp_session=" + "A".repeat(43) });
    expect(response.status).toBe(302);
  });
});

describe("cross-site requests", () => {
  it("refuses a forged cross-site POST and changes nothing", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const forged = await app.request("/en/user/password", {
      cookie,
      form: { old_password: DEMO_PASSWORD, new_password: "Forged#Pass99", repeat_password: "Forged#Pass99" },
      headers: { Origin: "https://attacker.example" },
    });
    // Refused before any action runs (React Router answers 400 to a foreign Origin on its own).
    expect([400, 403]).toContain(forged.status);
    // The old password still works and the new one does not.
    await expect(app.signIn(shop.admin.username, "Forged#Pass99")).rejects.toThrow();
    await app.signIn(shop.admin.username, DEMO_PASSWORD);

    const mailsBefore = await database.db.selectFrom("outgoing_mail").select("id").execute();
    const fetchSite = await app.request("/en/help", {
      cookie,
      form: { email: "a@b.example", subject: "feedback", email_message: "hi" },
      headers: { Origin: "", "Sec-Fetch-Site": "cross-site" },
    });
    expect(fetchSite.status).toBe(403);
    const mailsAfter = await database.db.selectFrom("outgoing_mail").select("id").execute();
    expect(mailsAfter.length).toBe(mailsBefore.length);
  });

  it("accepts the same POST from our own origin", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const response = await app.request("/en/help", {
      cookie,
      form: { email: "owner@alpha.example", subject: "feedback", email_message: "All good" },
    });
    expect(response.status).toBe(302);
    const mail = await database.db
      .selectFrom("outgoing_mail")
      .select(["merchant_id", "subject", "reply_to"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ merchant_id: shop.merchantId, reply_to: "owner@alpha.example" });
    expect(mail.subject).toContain("Feedback");
  });
});

describe("permissions", () => {
  it("answers 403 to staff on pages they lack", async () => {
    const cookie = await app.signIn(shop.staff.username, DEMO_PASSWORD);
    for (const path of ["/en/mailbox", "/en/payment-request/create", "/en/ticket/approve-refund-void"]) {
      const response = await app.request(path, { cookie });
      expect(response.status, path).toBe(403);
      expect(await response.text()).toContain("Access denied");
    }
    expect((await app.request("/en/help", { cookie })).status).toBe(200);
  });

  it("shows the merchant's recent actions only to those who see its statistics", async () => {
    const adminCookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const staffCookie = await app.signIn(shop.staff.username, DEMO_PASSWORD);
    const staffHome = await (await app.request("/en", { cookie: staffCookie })).text();
    expect(staffHome).toContain(`>${shop.staff.username}</td>`);
    expect(staffHome).not.toContain(`>${shop.admin.username}</td>`);
    const adminHome = await (await app.request("/en", { cookie: adminCookie })).text();
    expect(adminHome).toContain(`>${shop.staff.username}</td>`);
  });

  it("asks anonymous visitors to sign in first, coming back afterwards", async () => {
    const response = await app.request("/en/user");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/en/login?redirectTo=%2Fen%2Fuser");
  });

  it("answers 404 for a section the merchant does not have", async () => {
    await database.db
      .deleteFrom("merchant_features")
      .where("merchant_id", "=", shop.merchantId)
      .where("section", "=", "shopify")
      .execute();
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    expect((await app.request("/en/shopify/transactions", { cookie })).status).toBe(404);
    const home = await (await app.request("/en", { cookie })).text();
    expect(home).not.toContain('href="/en/shopify/transactions"');
    expect(home).toContain('href="/en/payment-request/transactions"');
  });
});
