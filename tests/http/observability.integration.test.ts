import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";

/**
 * What an operator reads (decision 0043): one JSON line per request, named by the id the response
 * carries and the audit entry keeps; the gateway's calls; no secret or person's data in any line;
 * and /metrics only for the scraper it is meant for.
 */
let database: TestDatabase;
let server: ServerProcess;
let guarded: ServerProcess;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const CARD = "8888880000000001";
const PIN = "4729";
const EMAIL = "layla.alsabah@example.com";
const METRICS_TOKEN = "scrape-token-0123456789abcdef";

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Watch");
  server = await startServerProcess({ ...database.env, SANDBOX: "1", LOG_LEVEL: "info" });
  guarded = await startServerProcess({ ...database.env, SANDBOX: "1", METRICS_TOKEN });
}, 60_000);

afterAll(async () => {
  server?.child.kill("SIGTERM");
  guarded?.child.kill("SIGTERM");
  await database?.destroy();
});

const manual = { redirect: "manual" as const };
const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { Origin: new URL(url).origin, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
    ...manual,
  });

/** The log lines printed so far, parsed (stdout's; what Node itself says on stderr is left aside). */
function lines() {
  return server.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith('{"level":'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The first log line that `matches`, once the server has written it (its output arrives in chunks). */
async function lineWhere(matches: (entry: Record<string, unknown>) => boolean) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const found = lines().find(matches);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

async function payWithKnet() {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount: "4.500", pg_codes: "knet-sandbox", customer_email: EMAIL }),
    baseUrl: server.url,
    lang: "en",
  });
  if (!created.ok) throw new Error("could not create");
  const id = created.transaction.id;
  const started = await form(`${server.url}/en/pay/${id}`, {
    gateway_code: "knet-sandbox",
    submission_token: `${id}-watch`,
  });
  const init = await fetch(started.headers.get("Location")!, manual);
  const page = new URL(init.headers.get("Location")!, started.headers.get("Location")!).toString();
  const submitted = await form(
    page,
    { intent: "submit", cardNumber: CARD, expiry: "09/2021", pin: PIN },
    { Origin: new URL(page).origin },
  );
  expect(submitted.status).toBe(303);
  return id;
}

describe("the log", () => {
  it("writes one JSON line per request, named by the id sent back and kept on the audit entry", async () => {
    const signedIn = await form(`${server.url}/en/login`, {
      intent: "login",
      username: shop.admin.username,
      password: DEMO_PASSWORD,
    });
    expect(signedIn.status).toBe(302);
    const requestId = signedIn.headers.get("X-Request-Id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineWhere((entry) => entry.request_id === requestId && entry.msg === "request");
    expect(line).toMatchObject({ level: "info", method: "POST", route: "routes/auth/login", status: 302 });
    expect(typeof line!.time).toBe("string");
    expect(typeof line!.duration_ms).toBe("number");
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "request_id"])
      .where("action", "=", "sign_in")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.request_id).toBe(requestId);
  });

  it("names the merchant a request acted for, and each call to a gateway with its outcome and time", async () => {
    const token = await fetch(`${server.url}/api/v1/user/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: shop.admin.username, password: DEMO_PASSWORD }),
    });
    const { access } = (await token.json()) as { access: string };
    const listed = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/`, {
      headers: { Authorization: `Bearer ${access}` },
    });
    await payWithKnet();
    expect(
      await lineWhere((entry) => entry.request_id === listed.headers.get("X-Request-Id") && entry.msg === "request"),
    ).toMatchObject({ merchant_id: shop.merchantId, status: 200 });
    expect(await lineWhere((entry) => entry.msg === "gateway call" && entry.operation === "start")).toMatchObject({
      gateway: "knet",
      outcome: "ok",
    });
  });

  it("writes what a wallet's payment sheet reports (a cancel), without the pay link", async () => {
    const created = await createPaymentRequest(database.db, {
      merchantId: shop.merchantId,
      user: shop.admin,
      request: PaymentRequestSchema.parse({ amount: "2.000", pg_codes: "knet-sandbox" }),
      baseUrl: server.url,
      lang: "en",
    });
    if (!created.ok) throw new Error("could not create");
    const id = created.transaction.id;
    const logged = await fetch(`${server.url}/en/pay/${id}/wallet/log`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ provider: "apple_pay", event: "cancel", detail: `closed by the payer ${id.slice(0, 6)}` }),
    });
    expect(logged.status).toBe(204);
    const line = await lineWhere(
      (entry) => entry.msg === "wallet" && entry.detail === `closed by the payer ${id.slice(0, 6)}`,
    );
    expect(line).toMatchObject({ level: "info", provider: "apple_pay", event: "cancel" });
    // The pay link's id opens the customer's page: never written.
    expect(server.output.join("")).not.toContain(id);
  });

  it("never carries a password, card number, PIN, token, API key or e-mail address", async () => {
    const token = await fetch(`${server.url}/api/v1/user/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: shop.admin.username, password: DEMO_PASSWORD }),
    });
    const { access } = (await token.json()) as { access: string };
    await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/`, {
      headers: { Authorization: "Api-Key kp_live_abcdefghijklmnopqrstuvwxyz012345" },
    });
    await form(`${server.url}/en/login`, {
      intent: "login",
      username: shop.admin.username,
      password: "Wrong-Secret-Pass!9",
    });
    await payWithKnet();
    // Once the last request's line is out, everything before it is too.
    await lineWhere(
      (entry) => entry.msg === "request" && entry.route === "sandbox-knet-payment-page" && entry.method === "POST",
    );
    const text = server.output.join("");
    for (const secret of [
      DEMO_PASSWORD,
      "Wrong-Secret-Pass!9",
      CARD,
      `pin=${PIN}`,
      access,
      "kp_live_abcdefghijklmnopqrstuvwxyz012345",
      EMAIL,
      "trandata=",
    ])
      expect(text).not.toContain(secret);
    expect(lines().length).toBeGreaterThan(5);
  });
});

describe("/metrics", () => {
  it("counts requests and payments for a scraper on this host, and refuses one behind a proxy", async () => {
    const scraped = await fetch(`${server.url}/metrics`);
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toMatch(
      /kp_http_request_duration_seconds_count\{route="routes\/auth\/login",method="POST",status="302"\} \d+/,
    );
    expect(text).toMatch(/kp_payments_started_total\{gateway="knet"\} [1-9]/);
    expect(text).toMatch(/kp_payments_completed_total\{gateway="knet",result="success"\} [1-9]/);
    expect(text).toMatch(
      /kp_gateway_call_duration_seconds_count\{gateway="knet",operation="start",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(/kp_jobs_waiting/);
    expect(text).toMatch(/kp_reconciliation_open_differences \d+/);
    expect(text).toMatch(/kp_webhook_oldest_undelivered_seconds \d+/);
    expect((await fetch(`${server.url}/metrics`, { headers: { "X-Forwarded-For": "127.0.0.1" } })).status).toBe(403);
    // The dashboard in the repository draws only what is exported.
    const dashboard = fs.readFileSync(path.join(process.cwd(), "ops/grafana/platform-dashboard.json"), "utf8");
    const drawn = new Set(
      [...dashboard.matchAll(/\bkp_[a-z_]+/g)].map(([name]) => name.replace(/_(bucket|count|sum)$/, "")),
    );
    expect(drawn.size).toBeGreaterThan(8);
    // Postgres's pool is exported where there is one.
    if (!database.env.DATABASE_URL) drawn.delete("kp_db_pool_connections");
    for (const name of drawn) expect(text, name).toContain(`# TYPE ${name} `);
  });

  it("answers only the bearer of METRICS_TOKEN when it is set", async () => {
    expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/metrics`, { headers: { Authorization: "Bearer wrong-token" } })).status).toBe(
      401,
    );
    const scraped = await fetch(`${guarded.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("Content-Type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});
