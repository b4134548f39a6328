import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import ece from "http_ece";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createNotifications } from "~/domain/messaging/notifications.server";
import { runReadyJobs } from "~/lib/jobs.server";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Web Push end to end: a browser's subscription registered through the API, a notice for its user,
 * and the push service on loopback receiving it encrypted for that browser and signed with the
 * installation's VAPID key, as a real push service (FCM, Mozilla's, Apple's) would.
 */
let database: TestDatabase;
let server: TestHttpServer;
let pushService: http.Server;
let pushUrl: string;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;

type Delivery = { path: string; headers: http.IncomingHttpHeaders; body: Buffer };
const deliveries: Delivery[] = [];
/** What the push service answers next: 201, or 410 for a subscription the browser dropped. */
let answer = 201;

beforeAll(async () => {
  pushService = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      deliveries.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", resolve));
  pushUrl = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  // The push service is on loopback here; in production a private address is refused, as for webhooks.
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0", WEBHOOK_ALLOW_PRIVATE: "1" });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.destroy();
  await new Promise((resolve) => pushService?.close(resolve));
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
});

beforeEach(() => {
  deliveries.length = 0;
  answer = 201;
});

/** A browser's push keys, as PushManager.subscribe makes them. */
function browserSubscription(name: string) {
  const keys = crypto.createECDH("prime256v1");
  keys.generateKeys();
  const auth = crypto.randomBytes(16);
  const json = {
    endpoint: `${pushUrl}/push/${name}`,
    expirationTime: null,
    keys: { p256dh: keys.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
  };
  return {
    json,
    keys,
    auth,
    read: (body: Buffer) =>
      JSON.parse(ece.decrypt(body, { version: "aes128gcm", privateKey: keys, authSecret: auth }).toString("utf8")),
  };
}

async function tokenOf(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

function register(token: string, body: unknown, method = "POST", lang = "en") {
  return fetch(`${server.url}/api/v1/register-notif-token/`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Accept-Language": lang },
    body: JSON.stringify(body),
  });
}

describe("browser push notifications", () => {
  it("refuses a caller without a token, and what is not a browser's push subscription, with a translated error", async () => {
    const anonymous = await fetch(`${server.url}/api/v1/register-notif-token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(anonymous.status).toBe(401);
    const token = await tokenOf(alpha.admin.username);
    const broken = await register(token, { registration_id: "not a subscription", type: "web" }, "POST", "ar");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ registration_id: ["هذا ليس اشتراك إشعارات متصفح."] });
    const other = await register(token, { registration_id: browserSubscription("x").json, type: "apns" });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ type: ["Only web push is supported."] });
  });

  it("sends a registered browser its user's notice, encrypted for it, in its language, signed with the installation's VAPID key", async () => {
    const token = await tokenOf(alpha.admin.username);
    const browser = browserSubscription("admin-phone");
    const saved = await register(token, { registration_id: JSON.stringify(browser.json), type: "web" }, "POST", "ar");
    expect(saved.status).toBe(201);
    const vapid = (await (
      await fetch(`${server.url}/api/v1/register-notif-token/`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { vapid_public_key: string };
    expect(vapid.vapid_public_key).toMatch(/^[A-Za-z0-9_-]{80,90}$/);

    // Another user's notice goes nowhere near this browser.
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.staff.id],
      kind: "report_exported",
      lang: "en",
      link: "/en/generated-reports?id=3",
    });
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.admin.id],
      kind: "report_exported",
      lang: "en",
      link: "/en/generated-reports?id=4",
    });
    await runReadyJobs(database.db);

    expect(deliveries.map((delivery) => delivery.path)).toEqual(["/push/admin-phone"]);
    const [delivery] = deliveries;
    expect(delivery.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(delivery.headers.ttl)).toBeGreaterThan(0);
    expect(delivery.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.vapid_public_key}$`),
    );
    // The JWT names the push service as its audience, as RFC 8292 asks.
    const claims = JSON.parse(
      Buffer.from(String(delivery.headers.authorization).split(/[ ,]/)[1].slice(2).split(".")[1], "base64url").toString(
        "utf8",
      ),
    ) as { aud: string; exp: number };
    expect(claims.aud).toBe(pushUrl);
    // Only this browser can read it: in Arabic, the language it subscribed in, with the report's page.
    expect(browser.read(delivery.body)).toMatchObject({
      title: "تم تصدير التقرير",
      url: "/ar/generated-reports?id=4",
      lang: "ar",
      dir: "rtl",
    });
  });

  it("forgets a browser the push service no longer knows (410), and one the user turned off", async () => {
    const token = await tokenOf(alpha.staff.username);
    const gone = browserSubscription("staff-laptop");
    const kept = browserSubscription("staff-phone");
    for (const browser of [gone, kept])
      expect((await register(token, { registration_id: browser.json, type: "web" })).status).toBe(201);
    answer = 410;
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.staff.id],
      kind: "permission_request",
      lang: "en",
      link: null,
    });
    await runReadyJobs(database.db);
    expect(deliveries).toHaveLength(2);
    expect(
      await database.db
        .selectFrom("push_subscriptions")
        .select("endpoint")
        .where("user_id", "=", alpha.staff.id)
        .execute(),
    ).toEqual([]);

    answer = 201;
    deliveries.length = 0;
    expect((await register(token, { registration_id: kept.json, type: "web" })).status).toBe(201);
    expect((await register(token, { registration_id: kept.json, type: "web" }, "DELETE")).status).toBe(204);
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.staff.id],
      kind: "permission_request",
      lang: "en",
      link: null,
    });
    await runReadyJobs(database.db);
    expect(deliveries).toEqual([]);
  });

  it("keeps merchants apart: another merchant's user cannot turn off a browser of alpha's, and alpha's notices never reach a browser now registered to them", async () => {
    const alphaToken = await tokenOf(alpha.staff.username);
    const betaToken = await tokenOf(beta.admin.username);
    const browser = browserSubscription("shared-tablet");
    expect((await register(alphaToken, { registration_id: browser.json, type: "web" })).status).toBe(201);
    const ownerOf = async () =>
      (await database.db
        .selectFrom("push_subscriptions")
        .select(["merchant_id", "user_id"])
        .where("endpoint", "=", browser.json.endpoint)
        .executeTakeFirst()) ?? null;

    // Beta's DELETE of that browser removes nothing of alpha's.
    expect((await register(betaToken, { registration_id: browser.json, type: "web" }, "DELETE")).status).toBe(204);
    expect(await ownerOf()).toEqual({ merchant_id: alpha.merchantId, user_id: alpha.staff.id });
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.staff.id],
      kind: "report_exported",
      lang: "en",
      link: "/en/generated-reports?id=3",
    });
    await runReadyJobs(database.db);
    expect(deliveries).toHaveLength(1);
    expect(browser.read(deliveries[0]!.body)).toMatchObject({ url: "/en/generated-reports?id=3" });

    // The same browser signed in to beta is beta's from then on: alpha's notices stop there, beta's arrive.
    deliveries.length = 0;
    expect((await register(betaToken, { registration_id: browser.json, type: "web" })).status).toBe(201);
    expect(await ownerOf()).toEqual({ merchant_id: beta.merchantId, user_id: beta.admin.id });
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.staff.id],
      kind: "report_exported",
      lang: "en",
      link: "/en/generated-reports?id=4",
    });
    await runReadyJobs(database.db);
    expect(deliveries).toEqual([]);
    await createNotifications(database.db, {
      merchantId: beta.merchantId,
      userIds: [beta.admin.id],
      kind: "report_exported",
      lang: "en",
      link: "/en/generated-reports?id=5",
    });
    await runReadyJobs(database.db);
    expect(deliveries).toHaveLength(1);
    expect(browser.read(deliveries[0]!.body)).toMatchObject({ url: "/en/generated-reports?id=5" });
  });

  it("stops at once for a browser whose sign-in ended", async () => {
    const token = await tokenOf(alpha.staff.username);
    const browser = browserSubscription("counter-pc");
    expect((await register(token, { registration_id: browser.json, type: "web" })).status).toBe(201);
    const logout = await fetch(`${server.url}/api/v1/user/logout/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(logout.status).toBeLessThan(300);
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.staff.id],
      kind: "report_exported",
      lang: "en",
      link: "/en/generated-reports?id=9",
    });
    await runReadyJobs(database.db);
    expect(deliveries).toEqual([]);
  });
});
