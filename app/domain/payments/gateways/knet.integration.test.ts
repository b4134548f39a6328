import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type TestHttpServer } from "../../../../tests/support/http-server";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { ensureSandboxAccounts, type SandboxAccounts } from "~/domain/sandbox/accounts.server";
import { knetPostDate } from "~/domain/sandbox/test-cards";
import type { AttemptForGateway, GatewayConfig } from "./gateway";
import { knetAdapter, verifyKnetReturn } from "./knet.server";
import { decryptParams, encryptParams } from "./knet-protocol";

let database: TestDatabase;
let server: TestHttpServer;
let config: GatewayConfig;
let knet: SandboxAccounts["knet"];

/** The platform's own return routes: the only places KNET's sandbox sends a browser back to. */
const urlsFor = (attempt: AttemptForGateway) => ({
  response: `${server.url}/gateway/knet/response/${attempt.id}`,
  error: `${server.url}/gateway/knet/error/${attempt.id}`,
  notify: `${server.url}/gateway/knet/notify/${attempt.id}`,
});

beforeAll(async () => {
  database = await createTestDatabase();
  knet = (await ensureSandboxAccounts(database.db)).knet;
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  const base = `${server.url}/sandbox/knet`;
  config = {
    code: "knet-test",
    kind: "knet",
    credentials: { ...knet },
    captureMode: "auto",
    endpoints: { browser: base, server: base },
  };
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

function newAttempt(overrides: Partial<AttemptForGateway> = {}): AttemptForGateway {
  return { id: `att_${randomBytes(6).toString("hex")}`, trackId: `T${Date.now()}${randomBytes(3).toString("hex")}`, total: 12500, currency: "KWD", lang: "en", ...overrides };
}

/** Start → KNET's PaymentHTTP.htm → its payment page; answers the page's address and HTML. */
async function openPaymentPage(attempt: AttemptForGateway) {
  const started = await knetAdapter.start(config, attempt, urlsFor(attempt));
  if (started.kind !== "redirect") throw new Error("KNET must redirect");
  const init = await fetch(started.url, { redirect: "manual" });
  expect(init.status).toBe(303);
  const pageUrl = new URL(init.headers.get("Location")!, server.url).toString();
  const page = await fetch(pageUrl);
  expect(page.status).toBe(200);
  return { startUrl: started.url, pageUrl, html: await page.text() };
}

function postPage(pageUrl: string, form: Record<string, string>) {
  return fetch(pageUrl, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { Origin: server.url },
    redirect: "manual",
  });
}

async function pay(attempt: AttemptForGateway, form: Record<string, string>) {
  const { pageUrl } = await openPaymentPage(attempt);
  const response = await postPage(pageUrl, form);
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("Location")!);
  return { pageUrl, location };
}

const expectedOf = (attempt: AttemptForGateway) => ({ trackId: attempt.trackId, total: attempt.total, currency: attempt.currency });

describe("KNET sandbox and adapter", () => {
  it("pays with the captured test card: the return verifies, refs are KNET's, the inquiry agrees", async () => {
    const attempt = newAttempt();
    const { startUrl, pageUrl, html } = await openPaymentPage(attempt);
    expect(startUrl).toMatch(new RegExp(`^${server.url}/sandbox/knet/PaymentHTTP\\.htm\\?param=paymentInit&trandata=[0-9a-f]+&tranportalId=`));
    for (const secret of [knet.password, knet.resourceKey]) {
      expect(startUrl).not.toContain(secret);
      expect(startUrl).not.toContain(encodeURIComponent(secret));
    }
    for (const text of ["Card number", "PIN", "Submit", "Cancel", "12.500", attempt.trackId]) expect(html).toContain(text);

    const response = await postPage(pageUrl, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("Location")!);
    expect(`${location.origin}${location.pathname}`).toBe(urlsFor(attempt).response);
    expect(location.searchParams.get("tranportalId")).toBe(knet.tranportalId);

    const verified = verifyKnetReturn(config, location.searchParams, expectedOf(attempt));
    expect(verified).toMatchObject({ ok: true, outcome: { status: "success", amount: 12500 } });
    if (!verified.ok) throw new Error(verified.reason);
    const { refs } = verified.outcome;
    expect(refs.paymentId).toMatch(/^\d{15,}$/);
    expect(refs.tranId).toMatch(/^\d+$/);
    expect(refs.authCode).toMatch(/^\d{6}$/);
    expect(refs.referenceId).toMatch(/^\d{12}$/);
    expect(refs.postDate).toBe(knetPostDate(new Date()));
    expect(refs.resultCode).toBe("CAPTURED");
    const result = decryptParams(location.searchParams.get("trandata")!, knet.resourceKey);
    expect(result.udf1).toBe(attempt.id);

    const inquired = await knetAdapter.inquire(config, { ...attempt, gatewayReference: null });
    expect(inquired).toEqual({ status: "success", amount: 12500, refs });
  });

  it("shows KNET's page in Arabic, right to left, when langid=AR", async () => {
    const { html } = await openPaymentPage(newAttempt({ lang: "ar" }));
    expect(html).toContain('dir="rtl"');
    for (const text of ["رقم البطاقة", "الرقم السري", "إرسال", "إلغاء"]) expect(html).toContain(text);
    expect(html).not.toContain(">Card number<");
  });

  it("fails the NOT CAPTURED test card and any other card", async () => {
    for (const cardNumber of ["8888880000000002", "4111111111111111"]) {
      const attempt = newAttempt();
      const { location } = await pay(attempt, { intent: "submit", cardNumber, pin: "1234" });
      expect(`${location.origin}${location.pathname}`).toBe(urlsFor(attempt).response);
      const verified = verifyKnetReturn(config, location.searchParams, expectedOf(attempt));
      expect(verified).toMatchObject({ ok: true, outcome: { status: "failed", refs: { resultCode: "NOT CAPTURED" } } });
      expect((await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).status).toBe("failed");
    }
  });

  it("sends a cancel to errorURL as canceled", async () => {
    const attempt = newAttempt();
    const { location } = await pay(attempt, { intent: "cancel" });
    expect(`${location.origin}${location.pathname}`).toBe(urlsFor(attempt).error);
    expect(verifyKnetReturn(config, location.searchParams, expectedOf(attempt))).toMatchObject({
      ok: true,
      outcome: { status: "canceled", refs: { resultCode: "CANCELED" } },
    });
    expect((await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).status).toBe("canceled");
  });

  it("checks card number and PIN on the page, and answers an open payment as pending", async () => {
    const attempt = newAttempt();
    const { pageUrl } = await openPaymentPage(attempt);
    const response = await postPage(pageUrl, { intent: "submit", cardNumber: "8888 8800", pin: "12" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Enter the 16 digits of the card number");
    expect(html).toContain("Enter the 4-digit PIN");
    expect(await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).toMatchObject({
      status: "pending",
      refs: { resultCode: "PENDING" },
    });
    expect(await knetAdapter.inquire(config, { ...newAttempt(), gatewayReference: null })).toMatchObject({
      status: "pending",
      refs: { resultCode: "NOT FOUND" },
    });
  });

  it("refuses a tampered return, another track id, another amount, an error and another key", async () => {
    const attempt = newAttempt();
    const { location } = await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    const query = location.searchParams;
    const trandata = query.get("trandata")!;
    const tampered = new URLSearchParams(query);
    tampered.set("trandata", `${trandata.slice(0, 10)}${trandata[10] === "0" ? "1" : "0"}${trandata.slice(11)}`);
    expect(verifyKnetReturn(config, tampered, expectedOf(attempt)).ok).toBe(false);
    const forged = new URLSearchParams(query);
    forged.set("trandata", encryptParams({ trackid: attempt.trackId, result: "CAPTURED", amt: "12.500" }, "0123456789abcdef"));
    expect(verifyKnetReturn(config, forged, expectedOf(attempt)).ok).toBe(false);
    expect(verifyKnetReturn(config, query, { ...expectedOf(attempt), trackId: "someone-else" })).toMatchObject({ ok: false });
    expect(verifyKnetReturn(config, query, { ...expectedOf(attempt), total: 12000 })).toMatchObject({ ok: false });
    expect(verifyKnetReturn(config, new URLSearchParams({ ErrorText: "IPAY0100 failure" }), expectedOf(attempt)).ok).toBe(false);
    expect(verifyKnetReturn(config, new URLSearchParams({ trandata: "nothex" }), expectedOf(attempt)).ok).toBe(false);
    const otherTerminal = { ...config, credentials: { ...config.credentials, resourceKey: "AnotherKey123456" } };
    expect(verifyKnetReturn(otherTerminal, query, expectedOf(attempt)).ok).toBe(false);
  });

  it("verifies a replayed return again, but never pays one KNET payment twice", async () => {
    const attempt = newAttempt();
    const { pageUrl, location } = await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    const first = verifyKnetReturn(config, location.searchParams, expectedOf(attempt));
    expect(verifyKnetReturn(config, location.searchParams, expectedOf(attempt))).toEqual(first);

    const forms: Record<string, string>[] = [{ intent: "submit", cardNumber: "8888880000000001", pin: "1234" }, { intent: "cancel" }];
    for (const form of forms) {
      const again = await postPage(pageUrl, form);
      expect(again.status).toBe(409);
      expect(await again.text()).toContain("already been processed");
    }
    expect(await (await fetch(pageUrl)).text()).toContain("already been processed");
    expect((await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).status).toBe("success");
  });

  it("does not open a payment page without its token", async () => {
    const { pageUrl } = await openPaymentPage(newAttempt());
    const url = new URL(pageUrl);
    url.searchParams.set("token", "0".repeat(64));
    expect((await fetch(url)).status).toBe(404);
    url.searchParams.delete("token");
    expect((await postPage(url.toString(), { intent: "cancel" })).status).toBe(404);
  });

  it("answers bad trandata, a wrong password and another currency with KNET's error page or an error", async () => {
    const first = newAttempt();
    const started = await knetAdapter.start(config, first, urlsFor(first));
    if (started.kind !== "redirect") throw new Error("KNET must redirect");
    const garbled = new URL(started.url);
    garbled.searchParams.set("trandata", "abcdef");
    const refused = await fetch(garbled, { redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("could not be decrypted");

    const wrongPassword = { ...config, credentials: { ...config.credentials, password: "not-the-password" } };
    const second = newAttempt();
    const wrong = await knetAdapter.start(wrongPassword, second, urlsFor(second));
    if (wrong.kind !== "redirect") throw new Error("KNET must redirect");
    expect((await fetch(wrong.url, { redirect: "manual" })).status).toBe(400);
    await expect(knetAdapter.inquire(wrongPassword, { ...newAttempt(), gatewayReference: null })).rejects.toThrow(/401/);

    const dollars = newAttempt({ currency: "USD" });
    await expect(knetAdapter.start(config, dollars, urlsFor(dollars))).rejects.toThrow(/KWD/);
  });

  it("refunds up to the captured amount, and has no capture or void", async () => {
    const attempt = newAttempt();
    const { location } = await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    const verified = verifyKnetReturn(config, location.searchParams, expectedOf(attempt));
    if (!verified.ok) throw new Error(verified.reason);
    const target = { gatewayReference: null, trackId: attempt.trackId, paymentId: verified.outcome.refs.paymentId ?? null };

    expect(await knetAdapter.refund(config, target, 5000)).toMatchObject({ ok: true, reference: expect.stringMatching(/^\d+$/) });
    expect(await knetAdapter.refund(config, target, 7501)).toMatchObject({ ok: false, message: expect.stringContaining("exceeds") });
    expect(await knetAdapter.refund(config, { ...target, paymentId: null }, 7500)).toMatchObject({ ok: true });
    expect((await knetAdapter.refund(config, target, 1)).ok).toBe(false);

    const unpaid = newAttempt();
    await pay(unpaid, { intent: "cancel" });
    expect((await knetAdapter.refund(config, { gatewayReference: null, trackId: unpaid.trackId, paymentId: null }, 100)).ok).toBe(false);

    expect((await knetAdapter.capture(config, target, 12500)).ok).toBe(false);
    expect((await knetAdapter.void(config, target)).ok).toBe(false);
    // Refunds do not change what the inquiry says about the payment itself.
    expect((await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).status).toBe("success");
  });

  it("keeps no full card number or PIN anywhere in the sandbox's books", async () => {
    const rows = await database.db
      .selectFrom("sandbox_knet_payments")
      .select(["payment_id", "udf", "card_masked", "result"])
      .execute();
    expect(rows.length).toBeGreaterThan(5);
    const dump = JSON.stringify(rows);
    for (const card of ["8888880000000001", "8888880000000002", "4111111111111111"]) expect(dump).not.toContain(card);
    for (const row of rows) if (row.card_masked) expect(row.card_masked).toMatch(/^\d{6}\*{6}\d{4}$/);
  });
});
