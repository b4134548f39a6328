import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startHttpServer, type TestHttpServer } from "../../../../../tests/support/http-server";
import { createTestDatabase, type TestDatabase } from "../../../../../tests/support/test-database";
import { ensureSandboxAccounts, type SandboxAccounts } from "~/domain/sandbox/accounts.server";
import { knetPostDate } from "~/domain/sandbox/test-cards";
import type { AttemptForGateway, GatewayConfig } from "../gateway";
import { knetAdapter, verifyKnetResponse } from "./knet.server";
import { decryptResult, encryptResult, readTranPipeXml } from "./knet-protocol";

let database: TestDatabase;
let server: TestHttpServer;
let config: GatewayConfig;
let knet: SandboxAccounts["knet"];

/**
 * A merchant's responseURL of the test's own, standing where the platform's would: it records what
 * KNET's server posts and answers what the test says. It is the installation's INTERNAL_BASE_URL,
 * one of the only origins the sandbox posts to.
 */
type Answer = { status: number; body: string; headers?: Record<string, string> };
let receiver: http.Server;
let receiverUrl: string;
let received: { path: string; contentType: string; body: string }[] = [];
let answerWith: (form: URLSearchParams) => Answer;
const receiptOf = (trackId: string) => `https://shop.example/receipt/${trackId}`;
const goodAnswer = (form: URLSearchParams): Answer => {
  const result = decryptResult(form.get("trandata") ?? "", knet.resourceKey);
  return { status: 200, body: `REDIRECT=${receiptOf(result.trackid!)}`, headers: { "Content-Type": "text/plain" } };
};

const urlsFor = (attempt: AttemptForGateway) => ({
  response: `${receiverUrl}/gateway/knet/response/${attempt.id}`,
  error: `${server.url}/gateway/knet/error/${attempt.id}`,
  notify: `${server.url}/gateway/knet/notify/${attempt.id}`,
});

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ path: request.url ?? "", contentType: request.headers["content-type"] ?? "", body });
      const answer = answerWith(new URLSearchParams(body));
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  database = await createTestDatabase();
  knet = (await ensureSandboxAccounts(database.db)).knet;
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0", INTERNAL_BASE_URL: receiverUrl });
  const base = `${server.url}/sandbox/knet`;
  config = {
    code: "knet-test",
    kind: "knet",
    credentials: { ...knet },
    captureMode: "auto",
    endpoints: { browser: base, server: base },
  };
});

beforeEach(() => {
  received = [];
  answerWith = goodAnswer;
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.destroy();
});

function newAttempt(overrides: Partial<AttemptForGateway> = {}): AttemptForGateway {
  return {
    id: `att_${randomBytes(6).toString("hex")}`,
    trackId: `T${Date.now()}${randomBytes(3).toString("hex")}`,
    total: 12500,
    currency: "KWD",
    lang: "en",
    ...overrides,
  };
}

/** Start → KNET's kpg/PaymentHTTP.htm → its payment page; answers the page's address and HTML. */
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

/** Pays on the page; answers where KNET sent the browser and the result its server posted to responseURL. */
async function pay(attempt: AttemptForGateway, form: Record<string, string>) {
  const { pageUrl } = await openPaymentPage(attempt);
  const response = await postPage(pageUrl, form);
  expect(response.status).toBe(303);
  const posted = received.find((entry) => entry.path === `/gateway/knet/response/${attempt.id}`);
  return { pageUrl, location: response.headers.get("Location")!, posted: new URLSearchParams(posted?.body ?? "") };
}

const expectedOf = (attempt: AttemptForGateway) => ({
  trackId: attempt.trackId,
  total: attempt.total,
  currency: attempt.currency,
});

async function sandboxBooks(trackId: string) {
  return database.db
    .selectFrom("sandbox_knet_payments")
    .select(["result", "voided_at", "lang"])
    .where("track_id", "=", trackId)
    .where("action", "=", "1")
    .executeTakeFirstOrThrow();
}

describe("KNET sandbox and adapter", () => {
  it("pays with the captured test card: KNET's server posts the result, follows REDIRECT=, the inquiry agrees", async () => {
    const attempt = newAttempt();
    const { startUrl, pageUrl, html } = await openPaymentPage(attempt);
    expect(startUrl).toMatch(
      new RegExp(
        `^${server.url}/sandbox/knet/kpg/PaymentHTTP\\.htm\\?param=paymentInit&trandata=[0-9a-f]+&tranportalId=${knet.tranportalId}&responseURL=.+&errorURL=.+$`,
      ),
    );
    for (const secret of [knet.password, knet.resourceKey]) {
      expect(startUrl).not.toContain(secret);
      expect(startUrl).not.toContain(encodeURIComponent(secret));
    }
    for (const text of ["Card number", "PIN", "Expiry", "Submit", "Cancel", "12.500", attempt.trackId])
      expect(html).toContain(text);

    const response = await postPage(pageUrl, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    expect(response.status).toBe(303);
    // The browser goes exactly where the merchant's single REDIRECT= line said.
    expect(response.headers.get("Location")).toBe(receiptOf(attempt.trackId));
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toBe("application/x-www-form-urlencoded");
    const posted = new URLSearchParams(received[0]!.body);
    expect([...posted.keys()]).toEqual(["trandata"]);

    const verified = verifyKnetResponse(config, posted, expectedOf(attempt));
    expect(verified).toMatchObject({
      ok: true,
      outcome: { status: "success", amount: 12500 },
      encrypted: posted.get("trandata"),
    });
    if (!verified.ok) throw new Error(verified.reason);
    expect(verified.plain).toMatch(
      /^paymentid=\d+&result=CAPTURED&auth=\d{6}&avr=N&ref=\d+&tranid=\d+&postdate=\d{4}&trackid=/,
    );
    const { refs } = verified.outcome;
    expect(refs.paymentId).toMatch(/^\d{15,}$/);
    expect(refs.tranId).toMatch(/^\d+$/);
    expect(refs.authCode).toMatch(/^\d{6}$/);
    expect(refs.referenceId).toMatch(/^\d{12}$/);
    expect(refs.postDate).toBe(knetPostDate(new Date()));
    expect(refs.resultCode).toBe("CAPTURED");
    expect(decryptResult(posted.get("trandata")!, knet.resourceKey).udf1).toBe(attempt.id);
    expect(await sandboxBooks(attempt.trackId)).toMatchObject({ result: "CAPTURED", voided_at: null, lang: "EN" });

    const inquired = await knetAdapter.inquire(config, { ...attempt, gatewayReference: null });
    expect(inquired).toEqual({ status: "success", amount: 12500, refs });
  });

  it("shows KNET's page in Arabic, right to left, when langid=AR", async () => {
    const attempt = newAttempt({ lang: "ar" });
    const { html } = await openPaymentPage(attempt);
    expect(html).toContain('dir="rtl"');
    for (const text of ["رقم البطاقة", "الرقم السري", "إرسال", "إلغاء"]) expect(html).toContain(text);
    expect(html).not.toContain(">Card number<");
    expect((await sandboxBooks(attempt.trackId)).lang).toBe("AR");
  });

  it("follows KNET's test-card rule: expiry 09/2021 captures, any other expiry does not; the fixed cards keep their outcome", async () => {
    const cases: [string, string, string][] = [
      ["5123450000000008", "09/2021", "CAPTURED"],
      ["5123450000000008", "10/2021", "NOT CAPTURED"],
      ["5123450000000008", "", "NOT CAPTURED"],
      ["8888880000000002", "09/2021", "NOT CAPTURED"],
      ["8888880000000001", "", "CAPTURED"],
    ];
    for (const [cardNumber, expiry, result] of cases) {
      const attempt = newAttempt();
      const { location, posted } = await pay(attempt, { intent: "submit", cardNumber, pin: "4321", expiry });
      expect(location).toBe(receiptOf(attempt.trackId));
      const verified = verifyKnetResponse(config, posted, expectedOf(attempt));
      expect(verified, `${cardNumber} ${expiry}`).toMatchObject({
        ok: true,
        outcome: { refs: { resultCode: result } },
      });
      expect((await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).status).toBe(
        result === "CAPTURED" ? "success" : "failed",
      );
    }
  });

  it("posts a cancel to responseURL as CANCELED", async () => {
    const attempt = newAttempt();
    const { location, posted } = await pay(attempt, { intent: "cancel" });
    expect(location).toBe(receiptOf(attempt.trackId));
    expect(verifyKnetResponse(config, posted, expectedOf(attempt))).toMatchObject({
      ok: true,
      outcome: { status: "canceled", refs: { resultCode: "CANCELED" } },
    });
    expect((await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).status).toBe("canceled");
  });

  it("voids the payment and sends the browser to errorURL when responseURL answers anything but one REDIRECT= line", async () => {
    const answers: [string, Answer][] = [
      [
        "an HTML page",
        { status: 200, body: "<html><body>Thank you</body></html>", headers: { "Content-Type": "text/html" } },
      ],
      ["HTML around the line", { status: 200, body: "<p>REDIRECT=https://shop.example/r</p>" }],
      ["an HTTP redirect", { status: 303, body: "", headers: { Location: "https://shop.example/r" } }],
      ["an error with the line", { status: 500, body: "REDIRECT=https://shop.example/r" }],
      ["two lines", { status: 200, body: "REDIRECT=https://shop.example/r\nREDIRECT=https://other.example/" }],
      ["a line and more text", { status: 200, body: "REDIRECT=https://shop.example/r\nthanks" }],
      ["no URL", { status: 200, body: "REDIRECT=" }],
      ["not a URL", { status: 200, body: "REDIRECT=receipt page" }],
      ["nothing", { status: 200, body: "" }],
    ];
    for (const [label, answer] of answers) {
      answerWith = () => answer;
      const attempt = newAttempt();
      const { location, posted } = await pay(attempt, {
        intent: "submit",
        cardNumber: "8888880000000001",
        pin: "1234",
      });
      expect(posted.get("trandata"), label).toBeTruthy();
      expect(location.startsWith(`${urlsFor(attempt).error}?`), `${label}: ${location}`).toBe(true);
      expect(new URL(location).searchParams.get("trackid")).toBe(attempt.trackId);
      const books = await sandboxBooks(attempt.trackId);
      expect(books.result, label).toBe("VOIDED");
      expect(books.voided_at, label).not.toBeNull();
      expect(await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).toMatchObject({
        status: "failed",
        refs: { resultCode: "VOIDED" },
      });
      // A voided payment cannot be refunded: the money never left the customer.
      expect(
        (await knetAdapter.refund(config, { gatewayReference: null, trackId: attempt.trackId, paymentId: null }, 100))
          .ok,
      ).toBe(false);
    }
    // One final line break after the single line is still one line.
    answerWith = (form) => ({ ...goodAnswer(form), body: `${goodAnswer(form).body}\r\n` });
    const attempt = newAttempt();
    expect((await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" })).location).toBe(
      receiptOf(attempt.trackId),
    );
    expect((await sandboxBooks(attempt.trackId)).result).toBe("CAPTURED");
  });

  it("checks card number, PIN and expiry on the page, and answers an open payment as pending", async () => {
    const attempt = newAttempt();
    const { pageUrl } = await openPaymentPage(attempt);
    const response = await postPage(pageUrl, { intent: "submit", cardNumber: "8888 8800", pin: "12", expiry: "9/21" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Enter the 16 digits of the card number");
    expect(html).toContain("Enter the 4-digit PIN");
    expect(html).toContain("Enter the expiry as MM/YYYY");
    expect(received).toHaveLength(0);
    expect(await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).toMatchObject({
      status: "pending",
      refs: { resultCode: "PENDING" },
    });
    expect(await knetAdapter.inquire(config, { ...newAttempt(), gatewayReference: null })).toMatchObject({
      status: "pending",
      refs: { resultCode: "NOT FOUND" },
    });
  });

  it("refuses a tampered result, another track id, another amount, an unencrypted error and another key", async () => {
    const attempt = newAttempt();
    const { posted } = await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    const trandata = posted.get("trandata")!;
    const form = (value: string) => new URLSearchParams({ trandata: value });
    expect(
      verifyKnetResponse(
        config,
        form(`${trandata.slice(0, 10)}${trandata[10] === "0" ? "1" : "0"}${trandata.slice(11)}`),
        expectedOf(attempt),
      ).ok,
    ).toBe(false);
    expect(
      verifyKnetResponse(
        config,
        form(encryptResult({ trackid: attempt.trackId, result: "CAPTURED", amt: "12.500" }, "0123456789abcdef")),
        expectedOf(attempt),
      ).ok,
    ).toBe(false);
    expect(verifyKnetResponse(config, posted, { ...expectedOf(attempt), trackId: "someone-else" })).toMatchObject({
      ok: false,
      encrypted: trandata,
    });
    expect(verifyKnetResponse(config, posted, { ...expectedOf(attempt), total: 12000 })).toMatchObject({ ok: false });
    expect(
      verifyKnetResponse(
        config,
        new URLSearchParams({ ErrorText: "IPAY0100 failure", trackid: attempt.trackId, amt: "12.500" }),
        expectedOf(attempt),
      ).ok,
    ).toBe(false);
    expect(verifyKnetResponse(config, form("nothex"), expectedOf(attempt)).ok).toBe(false);
    const otherTerminal = { ...config, credentials: { ...config.credentials, resourceKey: "AnotherKey123456" } };
    expect(verifyKnetResponse(otherTerminal, posted, expectedOf(attempt)).ok).toBe(false);
  });

  it("never processes one KNET payment twice", async () => {
    const attempt = newAttempt();
    const { pageUrl } = await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    const forms: Record<string, string>[] = [
      { intent: "submit", cardNumber: "8888880000000001", pin: "1234" },
      { intent: "cancel" },
    ];
    for (const form of forms) {
      const again = await postPage(pageUrl, form);
      expect(again.status).toBe(409);
      expect(await again.text()).toContain("already been processed");
    }
    expect(received).toHaveLength(1);
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
    await expect(knetAdapter.inquire(wrongPassword, { ...newAttempt(), gatewayReference: null })).rejects.toThrow(
      /IPAY0100015/,
    );
    expect(await knetAdapter.testConnection!(wrongPassword)).toMatchObject({
      ok: false,
      detail: expect.stringContaining("IPAY0100015"),
    });
    expect(await knetAdapter.testConnection!(config)).toMatchObject({ ok: true });

    const dollars = newAttempt({ currency: "USD" });
    await expect(knetAdapter.start(config, dollars, urlsFor(dollars))).rejects.toThrow(/KWD/);
  });

  it("refunds up to the captured amount, and has no capture or void", async () => {
    const attempt = newAttempt();
    const { posted } = await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    const verified = verifyKnetResponse(config, posted, expectedOf(attempt));
    if (!verified.ok) throw new Error(verified.reason);
    const target = {
      gatewayReference: null,
      trackId: attempt.trackId,
      paymentId: verified.outcome.refs.paymentId ?? null,
    };

    expect(await knetAdapter.refund(config, target, 5000, "R1A")).toMatchObject({
      ok: true,
      reference: expect.stringMatching(/^\d+$/),
    });
    // Sent again under the same reference, KNET refunds once and answers the first refund.
    expect(await knetAdapter.refund(config, target, 5000, "R1A")).toMatchObject({ ok: true });
    expect(
      await knetAdapter.inquireOperation(config, target, { kind: "refund", amount: 5000, reference: "R1A" }),
    ).toMatchObject({ status: "succeeded" });
    expect(
      await knetAdapter.inquireOperation(config, target, { kind: "refund", amount: 5000, reference: "R1B" }),
    ).toEqual({ status: "not_found" });
    expect(await knetAdapter.refund(config, target, 7501)).toMatchObject({
      ok: false,
      message: expect.stringContaining("exceeds"),
    });
    expect(await knetAdapter.refund(config, { ...target, paymentId: null }, 7500)).toMatchObject({ ok: true });
    expect((await knetAdapter.refund(config, target, 1)).ok).toBe(false);

    const unpaid = newAttempt();
    await pay(unpaid, { intent: "cancel" });
    expect(
      (await knetAdapter.refund(config, { gatewayReference: null, trackId: unpaid.trackId, paymentId: null }, 100)).ok,
    ).toBe(false);

    expect((await knetAdapter.capture(config, target, 12500)).ok).toBe(false);
    expect((await knetAdapter.void(config, target)).ok).toBe(false);
    // Refunds do not change what the inquiry says about the payment itself.
    expect((await knetAdapter.inquire(config, { ...attempt, gatewayReference: null })).status).toBe("success");
  });

  it("speaks tranPipe as the manual shows: raw XML in, XML elements out", async () => {
    const attempt = newAttempt();
    const { posted } = await pay(attempt, { intent: "submit", cardNumber: "8888880000000001", pin: "1234" });
    const paymentId = decryptResult(posted.get("trandata")!, knet.resourceKey).paymentid!;
    const tranPipe = (body: string) =>
      fetch(`${server.url}/sandbox/knet/kpg/tranPipe.htm?param=tranInit`, {
        method: "POST",
        headers: { "Content-Type": "application/xml" },
        body,
      });

    const inquiry = await tranPipe(
      `<id>${knet.tranportalId}</id><password>${knet.password}</password><action>8</action><amt>12.500</amt><transid>${paymentId}</transid><trackid>${attempt.trackId}</trackid><udf5>PaymentID</udf5>`,
    );
    expect(inquiry.status).toBe(200);
    expect(inquiry.headers.get("Content-Type")).toMatch(/^application\/xml/);
    const text = await inquiry.text();
    expect(text).toMatch(/^<result>CAPTURED<\/result><payid>\d+<\/payid><trackid>/);
    expect(readTranPipeXml(text)).toMatchObject({
      result: "CAPTURED",
      payid: paymentId,
      trackid: attempt.trackId,
      amt: "12.500",
      udf1: attempt.id,
    });

    const refund = readTranPipeXml(
      await (
        await tranPipe(
          `<id>${knet.tranportalId}</id><password>${knet.password}</password><action>2</action><amt>2.000</amt><transid>${attempt.trackId}</transid><trackid>${attempt.trackId}</trackid><udf5>TrackID</udf5>`,
        )
      ).text(),
    );
    expect(refund).toMatchObject({ result: "CAPTURED", amt: "2.000", trackid: attempt.trackId });

    const wrong = readTranPipeXml(
      await (await tranPipe(`<id>${knet.tranportalId}</id><password>nope</password><action>8</action>`)).text(),
    );
    expect(wrong).toMatchObject({ error_code_tag: "IPAY0100015" });
    expect(wrong.payid).toBeUndefined();
    expect(readTranPipeXml(await (await tranPipe("<id>999999</id>")).text())).toMatchObject({
      error_code_tag: "IPAY0100006",
    });
    expect(
      readTranPipeXml(
        await (
          await tranPipe(`<id>${knet.tranportalId}</id><password>${knet.password}</password><action>1</action>`)
        ).text(),
      ),
    ).toMatchObject({
      error_code_tag: "IPAY0100020",
    });
  });

  it("keeps no full card number or PIN anywhere in the sandbox's books", async () => {
    const rows = await database.db
      .selectFrom("sandbox_knet_payments")
      .select(["payment_id", "udf", "card_masked", "result"])
      .execute();
    expect(rows.length).toBeGreaterThan(5);
    const dump = JSON.stringify(rows);
    for (const card of ["8888880000000001", "8888880000000002", "5123450000000008"]) expect(dump).not.toContain(card);
    for (const row of rows) if (row.card_masked) expect(row.card_masked).toMatch(/^\d{6}\*{6}\d{4}$/);
  });
});
