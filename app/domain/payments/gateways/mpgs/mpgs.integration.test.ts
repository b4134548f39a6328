import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHttpServer, type TestHttpServer } from "../../../../../tests/support/http-server";
import { createTestDatabase, type TestDatabase } from "../../../../../tests/support/test-database";
import { ensureSandboxAccounts, type SandboxAccounts } from "~/domain/sandbox/accounts.server";
import { MPGS_DECLINED_WALLET_TOKEN } from "~/domain/sandbox/test-cards";
import { runReadyJobs } from "~/lib/jobs.server";
import type { AttemptForGateway, GatewayConfig, GatewayMessage, StartedAttempt } from "../gateway";
import { mpgsAdapter, verifyMpgsNotification } from "./mpgs.server";

type Received = { headers: Headers; body: string };

let database: TestDatabase;
let server: TestHttpServer;
let accounts: SandboxAccounts;
const received: Received[] = [];
/** Status codes the merchant's notify endpoint answers next; 200 once they run out. */
const nextAnswers: number[] = [];

const PUBLIC_BASE = "https://pay.example.com/sandbox/mpgs";

const urlsFor = (attempt: AttemptForGateway) => ({
  response: `${server.url}/gateway/mpgs/response/${attempt.id}`,
  error: `${server.url}/gateway/mpgs/error/${attempt.id}`,
  notify: `${server.url}/gateway/mpgs/notify/${attempt.id}`,
});

beforeAll(async () => {
  database = await createTestDatabase();
  accounts = await ensureSandboxAccounts(database.db);
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  // The webhooks are delivered from this process (runReadyJobs): they are caught here, as the
  // platform's notify route would receive them, and answered with the status the test chose.
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${server.url}/gateway/mpgs/notify/`)) return realFetch(input, init);
    received.push({ headers: new Headers(init?.headers), body: String(init?.body) });
    return new Response(null, { status: nextAnswers.shift() ?? 200 });
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
  await database?.destroy();
});

function configFor(captureMode: "auto" | "manual", credentials: Partial<SandboxAccounts["mpgs"]> = {}): GatewayConfig {
  return {
    code: "mpgs-test",
    kind: "mpgs",
    credentials: { ...accounts.mpgs, ...credentials },
    captureMode,
    endpoints: { browser: PUBLIC_BASE, server: `${server.url}/sandbox/mpgs` },
  };
}

function newAttempt(overrides: Partial<AttemptForGateway> = {}): AttemptForGateway {
  return {
    id: `att_${randomBytes(6).toString("hex")}`,
    trackId: `M${randomBytes(8).toString("hex")}`,
    total: 10250,
    currency: "KWD",
    lang: "en",
    ...overrides,
  };
}

/** Opens a checkout session and its Hosted Payment Page, reached through the test server instead of the public host. */
async function openCheckout(config: GatewayConfig, attempt: AttemptForGateway) {
  const started = await mpgsAdapter.start(
    config,
    { ...attempt, merchant: { name: "Demo Store", logoUrl: null } },
    urlsFor(attempt),
  );
  if (started.kind !== "redirect") throw new Error("MPGS must redirect");
  expect(started.url).toBe(`${PUBLIC_BASE}/checkout/pay/${started.gatewayReference}?checkoutVersion=1.0.0`);
  const pageUrl = started.url.replace(PUBLIC_BASE, `${server.url}/sandbox/mpgs`).replace(/\?.*$/, "");
  const page = await fetch(pageUrl);
  expect(page.status).toBe(200);
  const started_: StartedAttempt = {
    ...attempt,
    gatewayReference: started.gatewayReference!,
    returnSecret: started.returnSecret!,
  };
  return { pageUrl, html: await page.text(), attempt: started_ };
}

function submit(url: string, fields: Record<string, string>) {
  return fetch(url, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: server.url },
    redirect: "manual",
  });
}

const card = (cardNumber: string, expiry: string) => ({ cardNumber, expiry, cvv: "100" });

async function pay(
  config: GatewayConfig,
  cardNumber: string,
  expiry: string,
  overrides: Partial<AttemptForGateway> = {},
) {
  const opened = await openCheckout(config, newAttempt(overrides));
  const response = await submit(opened.pageUrl, card(cardNumber, expiry));
  expect(response.status).toBe(303);
  return { ...opened, back: new URL(response.headers.get("Location")!) };
}

/** Delivers queued webhooks and answers those that arrived for this order. */
async function deliver(orderId: string) {
  await runReadyJobs(database.db);
  return received.filter((message) => (JSON.parse(message.body) as { order: { id: string } }).order.id === orderId);
}

const browserReturn = (back: URL): GatewayMessage => ({
  method: "GET",
  headers: new Headers(),
  query: back.searchParams,
  body: "",
});
const notification = (message: Received): GatewayMessage => ({
  method: "POST",
  headers: message.headers,
  query: new URLSearchParams(),
  body: message.body,
});

async function api(
  config: GatewayConfig,
  method: string,
  path: string,
  body?: unknown,
  password = accounts.mpgs.apiPassword,
) {
  const response = await fetch(
    `${server.url}/sandbox/mpgs/api/rest/version/100/merchant/${config.credentials.merchantId}${path}`,
    {
      method,
      headers: {
        Authorization: `Basic ${Buffer.from(`merchant.${config.credentials.merchantId}:${password}`).toString("base64")}`,
        "Content-Type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the Mastercard Gateway sandbox and adapter", () => {
  it("pays on the Hosted Payment Page, returns the payer with the successIndicator and sends the webhook with the secret", async () => {
    const config = configFor("auto");
    const { pageUrl, html, attempt } = await openCheckout(config, newAttempt());
    expect(attempt.gatewayReference).toMatch(/^SESSION0002/);
    for (const text of [
      "Card number",
      "Expiry",
      "CVV",
      "Pay",
      "KWD",
      "Demo Store",
      "5123450000000008",
      "4508750015741019",
      "5111111111111118",
    ])
      expect(html).toContain(text);

    const response = await submit(pageUrl, card("5123450000000008", "01/39"));
    expect(response.status).toBe(303);
    const back = new URL(response.headers.get("Location")!);
    expect(`${back.origin}${back.pathname}`).toBe(urlsFor(attempt).response);
    expect(back.searchParams.get("resultIndicator")).toBe(attempt.returnSecret);
    expect(mpgsAdapter.legs!.response!.read(config, attempt, browserReturn(back))).toEqual({ kind: "ask" });

    const [message, ...others] = await deliver(attempt.trackId);
    expect(others).toEqual([]);
    expect(message.headers.get("X-Notification-Secret")).toBe(accounts.mpgs.notificationSecret);
    const body = JSON.parse(message.body);
    expect(body).toMatchObject({
      result: "SUCCESS",
      response: { gatewayCode: "APPROVED" },
      transaction: { id: "1", type: "PAYMENT", amount: 10.25, currency: "KWD" },
    });
    expect(body.order).toMatchObject({
      id: attempt.trackId,
      amount: 10.25,
      status: "CAPTURED",
      totalCapturedAmount: 10.25,
    });
    expect(body.sourceOfFunds.provided.card.number).toBe("512345xxxxxx0008");
    const reading = mpgsAdapter.legs!.notify!.read(config, attempt, notification(message));
    expect(reading).toMatchObject({
      kind: "result",
      trackId: attempt.trackId,
      outcome: {
        status: "success",
        amount: 10250,
        refs: { cardMasked: "512345******0008", tranId: "1", resultCode: "APPROVED" },
      },
    });

    const inquired = await mpgsAdapter.inquire(config, attempt);
    expect(inquired).toMatchObject({
      status: "success",
      amount: 10250,
      refs: { cardMasked: "512345******0008", resultCode: "APPROVED" },
    });

    const again = await submit(pageUrl, card("5123450000000008", "01/39"));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already been processed");
  });

  it("declines by the test card's expiry and by any other card; the return carries another indicator", async () => {
    const config = configFor("auto");
    for (const [number, expiry, code] of [
      ["5123450000000008", "05/39", "DECLINED"],
      ["4508750015741019", "04/27", "EXPIRED_CARD"],
      ["5555555555554444", "01/39", "DECLINED"],
    ]) {
      const { attempt, back } = await pay(config, number, expiry);
      expect(back.searchParams.get("resultIndicator")).not.toBe(attempt.returnSecret);
      expect(mpgsAdapter.legs!.response!.read(config, attempt, browserReturn(back))).toEqual({ kind: "ask" });
      const [message] = await deliver(attempt.trackId);
      expect(mpgsAdapter.legs!.notify!.read(config, attempt, notification(message))).toMatchObject({
        kind: "result",
        outcome: { status: "failed", refs: { resultCode: code } },
      });
      expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({
        status: "failed",
        refs: { resultCode: code },
      });
    }
  });

  it("asks the 5111111111111118 card for a 3-D Secure code, then pays and keeps the authentication outcome", async () => {
    const config = configFor("auto");
    const { pageUrl, attempt } = await openCheckout(config, newAttempt({ lang: "ar" }));
    const response = await submit(pageUrl, card("5111111111111118", "01/39"));
    expect(response.status).toBe(303);
    const challengeUrl = new URL(response.headers.get("Location")!, server.url).href;
    expect(challengeUrl).toBe(`${pageUrl}/authenticate`);
    const challenge = await fetch(challengeUrl);
    const html = await challenge.text();
    expect(html).toContain('dir="rtl"');
    expect(html).toContain("الرمز لمرة واحدة");
    // Nothing is decided while the payer has not authenticated; the page sends them back to the challenge.
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({
      status: "pending",
      refs: { authentication: "AUTHENTICATION_PENDING" },
    });
    expect((await fetch(pageUrl, { redirect: "manual" })).headers.get("Location")).toContain("/authenticate");

    const done = await submit(challengeUrl, { intent: "authenticate", code: "1234" });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get("Location")!).searchParams.get("resultIndicator")).toBe(attempt.returnSecret);
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({
      status: "success",
      amount: 10250,
      refs: { authentication: "AUTHENTICATION_SUCCESSFUL", cardMasked: "511111******1118" },
    });
  });

  it("fails the order when the 3-D Secure code is wrong", async () => {
    const config = configFor("auto");
    const { pageUrl, attempt } = await openCheckout(config, newAttempt());
    await submit(pageUrl, card("5111111111111118", "01/39"));
    const done = await submit(`${pageUrl}/authenticate`, { intent: "authenticate", code: "9999" });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get("Location")!).searchParams.get("resultIndicator")).not.toBe(attempt.returnSecret);
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({
      status: "failed",
      refs: { authentication: "AUTHENTICATION_FAILED" },
    });
  });

  it("leaves a TIMED_OUT payment pending and silent, and an order never paid unknown to the gateway", async () => {
    const config = configFor("auto");
    const unpaid = await openCheckout(config, newAttempt());
    expect(await mpgsAdapter.inquire(config, unpaid.attempt)).toEqual({ status: "pending", refs: {} });

    const { attempt } = await pay(config, "5123450000000008", "08/28");
    expect(await deliver(attempt.trackId)).toEqual([]);
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({
      status: "pending",
      refs: { resultCode: "TIMED_OUT" },
    });
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({ status: "pending" });
  });

  it("authorizes, captures and voids with transaction ids of ours", async () => {
    const config = configFor("manual");
    const { attempt } = await pay(config, "5123450000000008", "01/39");
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({ status: "authorized", amount: 10250 });
    const target = { gatewayReference: attempt.gatewayReference, trackId: attempt.trackId, paymentId: null };
    expect(await mpgsAdapter.refund(config, target, 100, "r-early")).toMatchObject({ ok: false });
    expect(await mpgsAdapter.capture(config, target, 10251, "c-too-much")).toMatchObject({
      ok: false,
      message: expect.stringContaining("INVALID_REQUEST"),
    });
    expect(await mpgsAdapter.capture(config, target, 10250, "c-1")).toMatchObject({ ok: true });
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({ status: "success", amount: 10250 });
    expect(
      await mpgsAdapter.inquireOperation(config, target, { kind: "capture", amount: 10250, reference: "c-1" }),
    ).toMatchObject({ status: "succeeded" });
    expect(await mpgsAdapter.void(config, target, "v-late")).toMatchObject({ ok: false });

    const other = await pay(config, "4508750015741019", "01/39");
    const otherTarget = {
      gatewayReference: other.attempt.gatewayReference,
      trackId: other.attempt.trackId,
      paymentId: null,
    };
    expect(await mpgsAdapter.void(config, otherTarget, "v-1")).toMatchObject({ ok: true });
    expect(await mpgsAdapter.inquire(config, other.attempt)).toMatchObject({ status: "canceled" });
    expect(
      await mpgsAdapter.inquireOperation(config, otherTarget, { kind: "void", amount: 0, reference: "v-1" }),
    ).toMatchObject({ status: "succeeded" });
    expect(await mpgsAdapter.capture(config, otherTarget, 10250, "c-after-void")).toMatchObject({ ok: false });
  });

  it("refunds in parts up to the captured amount, once per transaction id, and refuses beyond", async () => {
    const config = configFor("auto");
    const { attempt } = await pay(config, "5123450000000008", "01/39");
    const target = { gatewayReference: attempt.gatewayReference, trackId: attempt.trackId, paymentId: null };
    expect(
      await mpgsAdapter.inquireOperation(config, target, { kind: "refund", amount: 3000, reference: "r-1" }),
    ).toEqual({ status: "not_found" });
    expect(await mpgsAdapter.refund(config, target, 3000, "r-1")).toMatchObject({ ok: true });
    // The same PUT again (a retry after a lost answer) is the same refund, not a second one.
    expect(await mpgsAdapter.refund(config, target, 3000, "r-1")).toMatchObject({ ok: true });
    expect((await api(config, "GET", `/order/${attempt.trackId}`)).body).toMatchObject({
      status: "PARTIALLY_REFUNDED",
      totalRefundedAmount: 3,
    });
    expect(
      await mpgsAdapter.inquireOperation(config, target, { kind: "refund", amount: 3000, reference: "r-1" }),
    ).toMatchObject({ status: "succeeded" });
    // The id of a refund is not taken for another operation.
    expect(await mpgsAdapter.capture(config, target, 100, "r-1")).toMatchObject({ ok: false });

    expect(await mpgsAdapter.refund(config, target, 7251, "r-2")).toMatchObject({
      ok: false,
      message: expect.stringContaining("exceeds"),
    });
    expect(await mpgsAdapter.refund(config, target, 7250, "r-3")).toMatchObject({ ok: true });
    expect(await mpgsAdapter.refund(config, target, 1, "r-4")).toMatchObject({ ok: false });
    const order = await api(config, "GET", `/order/${attempt.trackId}`);
    expect(order.body).toMatchObject({ status: "REFUNDED", totalCapturedAmount: 10.25, totalRefundedAmount: 10.25 });
    expect((order.body.transaction as unknown[]).length).toBe(3);
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({ status: "success", amount: 10250 });
  });

  it("refuses a webhook without the notification secret, and a replayed one reads the same", async () => {
    const config = configFor("auto");
    const { attempt } = await pay(config, "5123450000000008", "01/39");
    nextAnswers.push(400);
    const [first] = await deliver(attempt.trackId);
    const forged = new Headers(first.headers);
    forged.set("X-Notification-Secret", "not-the-secret");
    expect(mpgsAdapter.legs!.notify!.read(config, attempt, { ...notification(first), headers: forged })).toMatchObject({
      kind: "refuse",
    });
    forged.delete("X-Notification-Secret");
    expect(verifyMpgsNotification(config, forged, first.body)).toMatchObject({ ok: false });
    // Refused with 400, the gateway sends it again: the same result, as often as it comes.
    const second = received.at(-1)!;
    expect(mpgsAdapter.legs!.notify!.read(config, attempt, notification(first))).toEqual(
      mpgsAdapter.legs!.notify!.read(config, attempt, notification(second)),
    );
    // A webhook for another order or amount is refused.
    const other = { ...attempt, trackId: "another-order" };
    expect(mpgsAdapter.legs!.notify!.read(config, other, notification(first))).toMatchObject({ kind: "refuse" });
    expect(mpgsAdapter.legs!.notify!.read(config, { ...attempt, total: 1 }, notification(first))).toMatchObject({
      kind: "refuse",
    });
  });

  it("takes no resultIndicator as a result: the platform asks the gateway, and a return without one is refused", async () => {
    const config = configFor("auto");
    const { attempt } = await openCheckout(config, newAttempt());
    const read = (query: string) =>
      mpgsAdapter.legs!.response!.read(config, attempt, browserReturn(new URL(`https://x.example/?${query}`)));
    expect(read("")).toMatchObject({ kind: "refuse" });
    expect(read("resultIndicator=forged")).toEqual({ kind: "ask" });
    // Even the session's own successIndicator (leaked, replayed) only makes the platform ask, and the gateway has no payment.
    expect(read(`resultIndicator=${attempt.returnSecret}`)).toEqual({ kind: "ask" });
    expect(await mpgsAdapter.inquire(config, attempt)).toMatchObject({ status: "pending" });
  });

  it("answers Basic auth of another password with 401 and the error document", async () => {
    const config = configFor("auto");
    expect(await mpgsAdapter.testConnection!(config)).toMatchObject({
      ok: true,
      detail: expect.stringContaining("INVALID_REQUEST"),
    });
    expect(await mpgsAdapter.testConnection!(configFor("auto", { apiPassword: "wrong" }))).toMatchObject({
      ok: false,
      detail: expect.stringContaining("refused"),
    });
    const refused = await api(config, "GET", "/order/x", undefined, "wrong");
    expect(refused).toEqual({
      status: 401,
      body: { result: "ERROR", error: { cause: "INVALID_REQUEST", explanation: "Invalid credentials." } },
    });
    await expect(
      mpgsAdapter.start(configFor("auto", { apiPassword: "wrong" }), newAttempt(), urlsFor(newAttempt())),
    ).rejects.toThrow();
  });

  it("pays with a wallet token as a device payment", async () => {
    const config = configFor("auto");
    const attempt = newAttempt();
    const paid = await mpgsAdapter.payWithWallet!(config, attempt, {
      provider: "apple_pay",
      token: JSON.stringify({ paymentData: { version: "EC_v1" } }),
    });
    expect(paid).toMatchObject({ status: "success", amount: 10250, refs: { cardMasked: "512345******0008" } });
    expect(await mpgsAdapter.inquire(config, { ...attempt, gatewayReference: null })).toMatchObject({
      status: "success",
      amount: 10250,
    });
    const transaction = await api(config, "GET", `/order/${attempt.trackId}/transaction/1`);
    expect(transaction.body).toMatchObject({
      order: { walletProvider: "APPLE_PAY" },
      transaction: { type: "PAYMENT" },
    });

    expect(
      await mpgsAdapter.payWithWallet!(config, newAttempt(), {
        provider: "google_pay",
        token: MPGS_DECLINED_WALLET_TOKEN,
      }),
    ).toMatchObject({ status: "failed" });
    expect(
      await mpgsAdapter.payWithWallet!(config, newAttempt(), { provider: "google_pay", token: "not json" }),
    ).toMatchObject({ status: "failed", refs: { resultCode: "INVALID_REQUEST" } });
  });
});
