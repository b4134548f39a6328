import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startHttpServer, type TestHttpServer } from "../../../../../tests/support/http-server";
import { createTestDatabase, type TestDatabase } from "../../../../../tests/support/test-database";
import { ensureSandboxAccounts, type SandboxAccounts } from "~/domain/sandbox/accounts.server";
import { CARD_NOTIFY_JOB } from "~/domain/sandbox/card-notifications.server";
import { advanceClock, now, resetClock } from "~/lib/clock.server";
import { enqueueJob, runReadyJobs } from "~/lib/jobs.server";
import type { AttemptForGateway, GatewayConfig } from "../gateway";
import { cardAdapter, verifyCardNotification } from "./card.server";
import { signCardPayload } from "./card-signature";

type Received = { headers: Headers; body: string };

let database: TestDatabase;
let server: TestHttpServer;
let accounts: SandboxAccounts;
const received: Received[] = [];
/** Status codes the merchant's notify endpoint answers next; 200 once they run out. */
const nextAnswers: number[] = [];

const PUBLIC_BASE = "https://pay.example.com/sandbox/card";

/** The platform's own routes, the only addresses the sandbox sends a customer or a notification to. */
const returnUrl = (attempt: AttemptForGateway) => `${server.url}/gateway/card/response/${attempt.id}`;
const notifyUrl = (attempt: AttemptForGateway) => `${server.url}/gateway/card/notify/${attempt.id}`;

beforeAll(async () => {
  database = await createTestDatabase();
  accounts = await ensureSandboxAccounts(database.db);
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  // The notifications are delivered from this process (runReadyJobs): they are caught here, as the
  // platform's notify route would receive them, and answered with the status the test chose.
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${server.url}/gateway/card/notify/`)) return realFetch(input, init);
    received.push({ headers: new Headers(init?.headers), body: String(init?.body) });
    return new Response(null, { status: nextAnswers.shift() ?? 200 });
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
  await database?.destroy();
});

afterEach(() => resetClock());

function configFor(captureMode: "auto" | "manual"): GatewayConfig {
  return {
    code: "card-test",
    kind: "card",
    credentials: { ...accounts.card },
    captureMode,
    endpoints: { browser: PUBLIC_BASE, server: `${server.url}/sandbox/card` },
  };
}

function newAttempt(overrides: Partial<AttemptForGateway> = {}): AttemptForGateway {
  return { id: `att_${randomBytes(6).toString("hex")}`, trackId: `C${randomBytes(8).toString("hex")}`, total: 10000, currency: "KWD", lang: "en", ...overrides };
}

const futureExpiry = () => `12/${String((now().getUTCFullYear() + 2) % 100).padStart(2, "0")}`;

/** Starts a payment and opens its hosted page, reached through the test server instead of the public host. */
async function openHostedPage(config: GatewayConfig, attempt: AttemptForGateway) {
  const started = await cardAdapter.start(config, attempt, {
    response: returnUrl(attempt),
    error: `${server.url}/gateway/card/error/${attempt.id}`,
    notify: notifyUrl(attempt),
  });
  if (started.kind !== "redirect") throw new Error("The card gateway must redirect");
  expect(started.url).toBe(`${PUBLIC_BASE}/pay/${started.gatewayReference}`);
  const pageUrl = started.url.replace(PUBLIC_BASE, `${server.url}/sandbox/card`);
  const page = await fetch(pageUrl);
  expect(page.status).toBe(200);
  return { pageUrl, html: await page.text(), gatewayReference: started.gatewayReference! };
}

function submitCard(pageUrl: string, card: { cardNumber: string; expiry?: string; cvv?: string }) {
  return fetch(pageUrl, {
    method: "POST",
    body: new URLSearchParams({ expiry: futureExpiry(), cvv: "123", ...card }),
    headers: { Origin: server.url },
    redirect: "manual",
  });
}

async function payWith(config: GatewayConfig, attempt: AttemptForGateway, cardNumber: string) {
  const { pageUrl, gatewayReference } = await openHostedPage(config, attempt);
  const response = await submitCard(pageUrl, { cardNumber });
  return { pageUrl, gatewayReference, response };
}

/** Delivers queued notifications and answers those that arrived for this payment id. */
async function deliver(gatewayReference: string) {
  await runReadyJobs(database.db);
  return received.filter((message) => (JSON.parse(message.body) as { id: string }).id === gatewayReference);
}

const withReference = (attempt: AttemptForGateway, gatewayReference: string) => ({ ...attempt, gatewayReference });

describe("card sandbox and adapter", () => {
  it("pays on the hosted page, returns the customer and sends a signed notification", async () => {
    const config = configFor("auto");
    const attempt = newAttempt();
    const { pageUrl, html, gatewayReference } = await openHostedPage(config, attempt);
    expect(gatewayReference).toMatch(/^pay_[\w-]{20,}$/);
    for (const text of ["Card number", "Expiry", "CVV", "Pay", "KWD"]) expect(html).toContain(text);

    const response = await submitCard(pageUrl, { cardNumber: "4111111111111111" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`${returnUrl(attempt)}?payment_id=${gatewayReference}`);

    const [message, ...others] = await deliver(gatewayReference);
    expect(others).toEqual([]);
    expect(message.headers.get("content-type")).toBe("application/json");
    const verified = verifyCardNotification(config, message.headers, message.body);
    expect(verified).toEqual({
      ok: true,
      reference: attempt.trackId,
      outcome: { status: "success", amount: 10000, refs: { paymentId: gatewayReference, resultCode: "captured", cardMasked: "411111******1111" } },
    });
    expect(JSON.parse(message.body)).toMatchObject({ event: "payment.updated", card: "411111******1111", currency: "KWD" });
    expect(await cardAdapter.inquire(config, withReference(attempt, gatewayReference))).toEqual(verified.ok && verified.outcome);

    const again = await submitCard(pageUrl, { cardNumber: "4111111111111111" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already been processed");
  });

  it("declines 4000000000000002 and any other card, notifying the merchant", async () => {
    const config = configFor("auto");
    for (const cardNumber of ["4000000000000002", "5555555555554444"]) {
      const attempt = newAttempt();
      const { gatewayReference, response } = await payWith(config, attempt, cardNumber);
      expect(response.status).toBe(303);
      const [message] = await deliver(gatewayReference);
      expect(verifyCardNotification(config, message.headers, message.body)).toMatchObject({ ok: true, outcome: { status: "failed" } });
      expect((await cardAdapter.inquire(config, withReference(attempt, gatewayReference))).status).toBe("failed");
    }
  });

  it("leaves 4000000000009995 pending, silent and closed to a second card", async () => {
    const config = configFor("auto");
    const attempt = newAttempt();
    const { pageUrl, gatewayReference, response } = await payWith(config, attempt, "4000000000009995");
    // The customer is sent back to the merchant, who is told nothing.
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toContain(`payment_id=${gatewayReference}`);
    expect(await (await fetch(pageUrl)).text()).toContain("being processed");
    const queued = await database.db.selectFrom("jobs").select("payload").where("type", "=", CARD_NOTIFY_JOB).execute();
    expect(queued.some((job) => job.payload.includes(gatewayReference))).toBe(false);
    expect(await deliver(gatewayReference)).toEqual([]);
    expect(await cardAdapter.inquire(config, withReference(attempt, gatewayReference))).toMatchObject({ status: "pending" });
    expect((await submitCard(pageUrl, { cardNumber: "4111111111111111" })).status).toBe(409);
  });

  it("checks card number, expiry (by the sandbox clock) and CVV on the page", async () => {
    const { pageUrl } = await openHostedPage(configFor("auto"), newAttempt());
    const response = await submitCard(pageUrl, { cardNumber: "4111 1111", expiry: "01/20", cvv: "12" });
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const text of ["Enter the 16 digits of the card number", "This card has expired", "Enter the 3-digit CVV"]) expect(html).toContain(text);
    const badFormat = await submitCard(pageUrl, { cardNumber: "4111111111111111", expiry: "13/30" });
    expect(await badFormat.text()).toContain("Enter the expiry as MM/YY");
    expect((await fetch(pageUrl)).status).toBe(200);
    expect((await fetch(`${server.url}/sandbox/card/pay/pay_unknown`)).status).toBe(404);
  });

  it("refuses notifications with a bad signature, from another secret, or older than five minutes", async () => {
    const config = configFor("auto");
    const attempt = newAttempt();
    const { gatewayReference } = await payWith(config, attempt, "4111111111111111");
    const [message] = await deliver(gatewayReference);
    expect(verifyCardNotification(config, message.headers, message.body).ok).toBe(true);

    const badSignature = new Headers(message.headers);
    badSignature.set("X-Sandbox-Signature", "0".repeat(64));
    expect(verifyCardNotification(config, badSignature, message.body)).toMatchObject({ ok: false });
    expect(verifyCardNotification(config, message.headers, message.body.replace('"captured"', '"authorized"')).ok).toBe(false);
    const otherSecret = { ...config, credentials: { ...config.credentials, webhookSecret: "whsec_someone_else" } };
    expect(verifyCardNotification(otherSecret, message.headers, message.body).ok).toBe(false);
    const unsigned = new Headers({ "Content-Type": "application/json" });
    expect(verifyCardNotification(config, unsigned, message.body).ok).toBe(false);

    advanceClock(5 * 60_000 + 1000);
    expect(verifyCardNotification(config, message.headers, message.body)).toEqual({ ok: false, reason: "Signature stale" });
    const timestamp = String(Math.floor(now().getTime() / 1000) - 301);
    const old = new Headers({
      "X-Sandbox-Timestamp": timestamp,
      "X-Sandbox-Signature": signCardPayload(accounts.card.webhookSecret, timestamp, message.body),
    });
    expect(verifyCardNotification(config, old, message.body)).toEqual({ ok: false, reason: "Signature stale" });
  });

  it("retries a notification the merchant does not acknowledge, with backoff", async () => {
    const config = configFor("auto");
    const { gatewayReference } = await payWith(config, newAttempt(), "4111111111111111");
    nextAnswers.push(500);
    expect(await deliver(gatewayReference)).toHaveLength(1);
    const job = () =>
      database.db
        .selectFrom("jobs")
        .select(["status", "attempts", "max_attempts", "last_error", "payload"])
        .where("type", "=", CARD_NOTIFY_JOB)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
    expect(await job()).toMatchObject({ status: "queued", attempts: 1, max_attempts: 8, last_error: expect.stringContaining("500") });
    expect(await deliver(gatewayReference)).toHaveLength(1);

    advanceClock(3000);
    const messages = await deliver(gatewayReference);
    expect(messages).toHaveLength(2);
    expect(messages[0].body).toBe(messages[1].body);
    for (const message of messages) expect(verifyCardNotification(config, message.headers, message.body).ok).toBe(true);
    expect(await job()).toMatchObject({ status: "done", attempts: 2 });
  });

  it("captures once up to the authorization, refunds in parts up to the capture, voids only an untouched authorization", async () => {
    const config = configFor("manual");
    const attempt = newAttempt();
    const { gatewayReference } = await payWith(config, attempt, "4111111111111111");
    const target = { gatewayReference, trackId: attempt.trackId, paymentId: gatewayReference };
    const [authorized] = await deliver(gatewayReference);
    expect(verifyCardNotification(config, authorized.headers, authorized.body)).toMatchObject({
      ok: true,
      outcome: { status: "authorized", amount: 10000 },
    });
    expect(await cardAdapter.refund(config, target, 100)).toMatchObject({ ok: false });
    expect(await cardAdapter.capture(config, target, 10001)).toMatchObject({ ok: false, message: expect.stringContaining("exceeds") });
    expect(await cardAdapter.capture(config, target, 6000)).toEqual({ ok: true, reference: gatewayReference });
    expect(await cardAdapter.capture(config, target, 1000)).toMatchObject({ ok: false });
    expect(await cardAdapter.void(config, target)).toMatchObject({ ok: false });

    expect(await cardAdapter.refund(config, target, 2000)).toMatchObject({ ok: true });
    expect(await cardAdapter.refund(config, target, 4001)).toMatchObject({ ok: false });
    expect(await cardAdapter.inquire(config, withReference(attempt, gatewayReference))).toMatchObject({
      status: "success",
      amount: 6000,
      refs: { resultCode: "partially_refunded" },
    });
    expect(await cardAdapter.refund(config, target, 4000)).toMatchObject({ ok: true });
    expect(await cardAdapter.refund(config, target, 1)).toMatchObject({ ok: false });
    expect((await cardAdapter.inquire(config, withReference(attempt, gatewayReference))).refs.resultCode).toBe("refunded");

    const statuses = (await deliver(gatewayReference)).map((message) => (JSON.parse(message.body) as { status: string }).status);
    expect(statuses).toEqual(["authorized", "captured", "partially_refunded", "refunded"]);

    const other = newAttempt();
    const second = await payWith(config, other, "4111111111111111");
    const otherTarget = { gatewayReference: second.gatewayReference, trackId: other.trackId, paymentId: null };
    expect(await cardAdapter.void(config, otherTarget)).toMatchObject({ ok: true });
    expect(await cardAdapter.inquire(config, withReference(other, second.gatewayReference))).toMatchObject({ status: "canceled" });
    expect(await cardAdapter.capture(config, otherTarget, 100)).toMatchObject({ ok: false });
    expect(await cardAdapter.void(config, otherTarget)).toMatchObject({ ok: false });
  });

  it("answers only the merchant's own API key", async () => {
    const api = `${server.url}/sandbox/card/api/payments`;
    const attempt = newAttempt();
    const body = JSON.stringify({ amount: 100, currency: "KWD", reference: "r1", capture: "auto", notify_url: notifyUrl(attempt), return_url: returnUrl(attempt) });
    const create = (key: string, payload = body) =>
      fetch(api, { method: "POST", body: payload, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" } });
    expect((await create("sk_wrong")).status).toBe(401);
    expect((await fetch(api, { method: "POST", body })).status).toBe(401);
    expect((await create(accounts.card.apiKey, JSON.stringify({ amount: -1 }))).status).toBe(400);
    const created = await create(accounts.card.apiKey);
    expect(created.status).toBe(201);
    const { id, status, redirect_url } = (await created.json()) as { id: string; status: string; redirect_url: string };
    expect(status).toBe("pending");
    expect(redirect_url).toBe(`${server.url}/sandbox/card/pay/${id}`);
    expect((await fetch(`${api}/${id}`, { headers: { Authorization: "Bearer sk_wrong" } })).status).toBe(401);
    expect((await fetch(`${api}/${id}/capture`, { method: "POST", headers: { Authorization: "Bearer sk_wrong" } })).status).toBe(401);
    const inquiry = await fetch(`${api}/${id}`, { headers: { Authorization: `Bearer ${accounts.card.apiKey}` } });
    expect(await inquiry.json()).toMatchObject({ id, status: "pending", amount: 100, captured_amount: 0, card: null });
  });

  it("calls and sends customers only to the platform's own gateway routes", async () => {
    const api = `${server.url}/sandbox/card/api/payments`;
    const attempt = newAttempt();
    const create = (addresses: { notify_url: string; return_url: string }) =>
      fetch(api, {
        method: "POST",
        body: JSON.stringify({ amount: 100, currency: "KWD", reference: "r2", ...addresses }),
        headers: { Authorization: `Bearer ${accounts.card.apiKey}`, "Content-Type": "application/json" },
      });
    const refused = [
      { notify_url: "http://169.254.169.254/latest/meta-data", return_url: returnUrl(attempt) },
      { notify_url: "http://10.0.0.5/gateway/card/notify/x", return_url: returnUrl(attempt) },
      { notify_url: `${server.url}/api/v1/user/logout/`, return_url: returnUrl(attempt) },
      { notify_url: `${notifyUrl(attempt)}?next=http://10.0.0.5`, return_url: returnUrl(attempt) },
      { notify_url: notifyUrl(attempt), return_url: "https://evil.example/gateway/card/response/x" },
      { notify_url: notifyUrl(attempt), return_url: `${server.url}/en/sign-in` },
    ];
    for (const addresses of refused) {
      const response = await create(addresses);
      expect(response.status, JSON.stringify(addresses)).toBe(400);
    }
    expect((await create({ notify_url: notifyUrl(attempt), return_url: returnUrl(attempt) })).status).toBe(201);

    // A notification queued for another address (by an earlier version) is dropped at delivery, never sent.
    const calls = vi.mocked(globalThis.fetch).mock.calls.length;
    await enqueueJob(database.db, CARD_NOTIFY_JOB, { apiKey: accounts.card.apiKey, notifyUrl: "http://127.0.0.1:9/internal", body: "{}" });
    await runReadyJobs(database.db);
    const sent = vi.mocked(globalThis.fetch).mock.calls.slice(calls).map(([input]) => String(input instanceof Request ? input.url : input));
    expect(sent.filter((url) => url.includes("127.0.0.1:9"))).toEqual([]);
  });

  it("keeps no full card number or CVV in the sandbox's books or its queued notifications", async () => {
    const payments = await database.db.selectFrom("sandbox_card_payments").select(["id", "card_masked", "reference"]).execute();
    const jobs = await database.db.selectFrom("jobs").select("payload").execute();
    expect(payments.length).toBeGreaterThan(5);
    const dump = JSON.stringify({ payments, jobs });
    for (const card of ["4111111111111111", "4000000000000002", "4000000000009995", "5555555555554444"]) expect(dump).not.toContain(card);
    for (const payment of payments) if (payment.card_masked) expect(payment.card_masked).toMatch(/^\d{6}\*{6}\d{4}$/);
  });
});
