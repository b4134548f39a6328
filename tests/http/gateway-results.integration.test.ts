import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { encryptResult } from "~/domain/payments/gateways/knet/knet-protocol";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { ensureSandboxAccounts, type SandboxAccounts } from "~/domain/sandbox/accounts.server";
import { runReadyJobs } from "~/lib/jobs.server";

/**
 * The platform's side of the gateways, over real HTTP: what the customer's browser brings back and
 * what the Mastercard Gateway notifies may be replayed, forged or late, and must never move money wrongly.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const logged: string[] = [];
let accounts: SandboxAccounts;

beforeAll(async () => {
  for (const method of ["log", "info", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  }
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Gw");
  accounts = await ensureSandboxAccounts(database.db);
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
  vi.restoreAllMocks();
});

async function newRequest(amount = "12.500") {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({
      amount,
      pg_codes: "knet-sandbox,mpgs-sandbox",
      customer_email: "payer@example.com",
    }),
    baseUrl: server.url,
    lang: "en",
  });
  if (!created.ok) throw new Error("could not create");
  return created.transaction.id;
}

const noRedirect = { redirect: "manual" as const };

/** Pay Now on the pay page; answers the gateway URL the customer is sent to and the attempt. */
async function payNow(transactionId: string, gatewayCode: string) {
  const response = await fetch(`${server.url}/en/pay/${transactionId}`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      gateway_code: gatewayCode,
      submission_token: `${transactionId}-${gatewayCode}-${Math.random()}`,
    }),
    ...noRedirect,
  });
  expect(response.status).toBe(303);
  const attempt = await database.db
    .selectFrom("payment_attempts")
    .select(["id", "track_id", "total", "gateway_reference"])
    .where("transaction_id", "=", transactionId)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  return { gatewayUrl: response.headers.get("Location")!, attempt };
}

/** The customer on the KNET page: Submit with a card, or Cancel. Answers where KNET sends the browser (its server has posted the result). */
async function onKnetPage(gatewayUrl: string, card: string | null) {
  const init = await fetch(gatewayUrl, noRedirect);
  const pageUrl = new URL(init.headers.get("Location")!, gatewayUrl).toString();
  const form: Record<string, string> = card
    ? { intent: "submit", cardNumber: card, pin: "1234" }
    : { intent: "cancel" };
  const submitted = await fetch(pageUrl, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
    ...noRedirect,
  });
  expect(submitted.status).toBe(303);
  return submitted.headers.get("Location")!;
}

async function state(transactionId: string) {
  const transaction = await database.db
    .selectFrom("transactions")
    .select(["state", "paid_amount"])
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  const ledger = await database.db
    .selectFrom("ledger_entries")
    .select("kind")
    .where("transaction_id", "=", transactionId)
    .execute();
  const receipts = await database.db
    .selectFrom("outgoing_mail")
    .select("id")
    .where("to_address", "=", "payer@example.com")
    .where("subject", "like", "Payment received%")
    .execute();
  return { state: transaction.state, paid: transaction.paid_amount, ledger: ledger.length, receipts: receipts.length };
}

/** What KNET's server does with a result: a URL-encoded POST to responseURL. */
const postToResponseUrl = (attemptId: string, form: Record<string, string>) =>
  fetch(`${server.url}/gateway/knet/response/${attemptId}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
    ...noRedirect,
  });

async function attemptState(attemptId: string) {
  return (
    await database.db
      .selectFrom("payment_attempts")
      .select("state")
      .where("id", "=", attemptId)
      .executeTakeFirstOrThrow()
  ).state;
}

describe("KNET results", () => {
  it("answers KNET's server one REDIRECT= line, text/plain, and pays once however often the result is posted", async () => {
    const id = await newRequest();
    const receiptsBefore = (await state(id)).receipts;
    const { gatewayUrl, attempt } = await payNow(id, "knet-sandbox");
    const receipt = `${server.url}/en/pay/attempt-detail/${attempt.id}`;
    // The sandbox's server posted the result and followed our answer: the browser lands on our result page.
    expect(await onKnetPage(gatewayUrl, "8888880000000001")).toBe(receipt);
    expect(await state(id)).toMatchObject({ state: "paid", paid: 12500, ledger: 1, receipts: receiptsBefore + 1 });
    const kept = await database.db
      .selectFrom("gateway_messages")
      .select(["received", "plain", "refusal"])
      .where("attempt_id", "=", attempt.id)
      .execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.plain).toMatch(/^paymentid=\d+&result=CAPTURED&/);
    expect(kept[0]!.refusal).toBeNull();

    // KNET posting the very same result again gets the very same answer and changes nothing.
    for (let replay = 0; replay < 3; replay++) {
      const response = await postToResponseUrl(attempt.id, { trandata: kept[0]!.received });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
      expect(response.headers.get("Location")).toBeNull();
      expect(await response.text()).toBe(`REDIRECT=${receipt}`);
    }
    expect(await state(id)).toMatchObject({ state: "paid", paid: 12500, ledger: 1, receipts: receiptsBefore + 1 });
    expect(
      await database.db.selectFrom("gateway_messages").select("id").where("attempt_id", "=", attempt.id).execute(),
    ).toHaveLength(1);

    // The browser's GET of the result page (or of responseURL) trusts nothing it carries.
    const page = await fetch(`${receipt}?result=NOT+CAPTURED`);
    expect(await page.text()).toContain("KWD\u00a012.500");
  });

  it("refuses a result it cannot match, so KNET voids it, and records nothing on a browser's or an unencrypted word", async () => {
    const id = await newRequest("3.000");
    const { attempt } = await payNow(id, "knet-sandbox");
    const claim = (fields: Record<string, string>, key: string = accounts.knet.resourceKey) =>
      encryptResult(
        {
          paymentid: "100000000000001",
          result: "CAPTURED",
          auth: "1",
          ref: "1",
          tranid: "1",
          postdate: "1122",
          trackid: attempt.track_id,
          amt: "3.000",
          ...fields,
        },
        key,
      );
    const forged = [
      claim({}, "WrongKey16Chars!"), // another key
      claim({ trackid: "111111111111111111" }), // another track id
      claim({ amt: "0.001" }), // another amount
      "00ff".repeat(8), // garbage
    ];
    for (const trandata of forged) {
      const response = await postToResponseUrl(attempt.id, { trandata });
      expect(response.status).toBe(400);
      expect(await response.text()).not.toMatch(/^REDIRECT=/);
    }
    // The two that decrypted are kept as received, with why they were refused.
    const kept = await database.db
      .selectFrom("gateway_messages")
      .select("refusal")
      .where("attempt_id", "=", attempt.id)
      .orderBy("id")
      .execute();
    expect(kept.map((row) => row.refusal)).toEqual([
      "The answer is for another track id",
      "The answer is for another amount",
    ]);

    // An unencrypted error report is answered (the customer is shown our page) but decides nothing.
    const reported = await postToResponseUrl(attempt.id, {
      Error: "IPAY0100013",
      ErrorText: "Invalid transaction data",
      trackid: attempt.track_id,
      amt: "3.000",
      paymentid: "1",
    });
    expect(await reported.text()).toBe(`REDIRECT=${server.url}/en/pay/attempt-detail/${attempt.id}`);
    // errorURL and responseURL reached by a browser carrying a perfect result: still nothing recorded.
    for (const path of ["error", "response"]) {
      const visit = await fetch(
        `${server.url}/gateway/knet/${path}/${attempt.id}?${new URLSearchParams({ trandata: claim({}) })}`,
        noRedirect,
      );
      expect(visit.status).toBe(303);
      expect(visit.headers.get("Location")).toBe(`${server.url}/en/pay/attempt-detail/${attempt.id}`);
    }
    expect(await attemptState(attempt.id)).toBe("pending");
    expect(await state(id)).toMatchObject({ paid: 0, ledger: 0 });
    expect((await state(id)).state).not.toBe("paid");
    // Unknown to us: not a REDIRECT= either.
    const unknown = await postToResponseUrl("A".repeat(22), { trandata: claim({}) });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("Content-Type")).toMatch(/^text\/plain/);
  });

  it("takes a verified decline and leaves the request payable", async () => {
    const id = await newRequest("2.000");
    const { gatewayUrl } = await payNow(id, "knet-sandbox");
    await fetch(await onKnetPage(gatewayUrl, "8888880000000002"), noRedirect);
    expect(await state(id)).toMatchObject({ state: "attempted", ledger: 0 });
    const { gatewayUrl: again } = await payNow(id, "knet-sandbox");
    await fetch(await onKnetPage(again, null), noRedirect);
    const attempts = await database.db
      .selectFrom("payment_attempts")
      .select(["id", "state"])
      .where("transaction_id", "=", id)
      .orderBy("created_at")
      .execute();
    expect(attempts.map((row) => row.state)).toEqual(["failed", "canceled"]);

    // Each result page says what happened in plain words, then the spec's line, the amount, Try again and the references.
    const [declined, canceled] = await Promise.all(
      attempts.map(async ({ id: attemptId }) =>
        (await fetch(`${server.url}/en/pay/attempt-detail/${attemptId}`)).text(),
      ),
    );
    expect(declined).toContain("Your bank declined the payment</h1>");
    expect(canceled).toContain("The payment was canceled</h1>");
    for (const page of [declined, canceled]) {
      expect(page).toContain("Oops! something went wrong please try again");
      expect(page).toContain("KWD\u00a02.000");
      expect(page).toContain(`href="/en/pay/${id}"`);
      expect(page).toMatch(/<details class="result-references" open="">/);
      expect(page).toContain(">Track ID</th>");
    }
  });

  it("tells the customer in Arabic too", async () => {
    const id = await newRequest("2.500");
    const { gatewayUrl, attempt } = await payNow(id, "knet-sandbox");
    await fetch(await onKnetPage(gatewayUrl, "8888880000000002"), noRedirect);
    const page = await (await fetch(`${server.url}/ar/pay/attempt-detail/${attempt.id}`)).text();
    expect(page).toContain("رفض البنك عملية الدفع</h1>");
    expect(page).toContain("عذرًا! حدث خطأ ما، يرجى المحاولة مرة أخرى");
    expect(page).toContain("2.500");
  });
});

describe("Mastercard Gateway webhooks", () => {
  const notify = async (attemptId: string, body: object, options: { secret?: string | null } = {}) => {
    const secret = options.secret === undefined ? accounts.mpgs.notificationSecret : options.secret;
    return fetch(`${server.url}/gateway/mpgs/notify/${attemptId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(secret === null ? {} : { "X-Notification-Secret": secret }) },
      body: JSON.stringify(body),
    });
  };
  /** The webhook of an approved payment, as the gateway sends it: the transaction with its order. */
  const captured = (attempt: { track_id: string; total: number }, amount = attempt.total) => ({
    merchant: accounts.mpgs.merchantId,
    result: "SUCCESS",
    response: { gatewayCode: "APPROVED" },
    transaction: {
      id: "1",
      type: "PAYMENT",
      amount: amount / 1000,
      currency: "KWD",
      authorizationCode: "123456",
      receipt: "612345678901",
    },
    order: {
      id: attempt.track_id,
      amount: attempt.total / 1000,
      currency: "KWD",
      status: "CAPTURED",
      totalAuthorizedAmount: amount / 1000,
      totalCapturedAmount: amount / 1000,
      totalRefundedAmount: 0,
    },
    sourceOfFunds: { type: "CARD", provided: { card: { number: "512345xxxxxx0008" } } },
  });

  it("refuses a webhook without the notification secret, with another, and another attempt's order", async () => {
    const id = await newRequest("5.000");
    const { attempt } = await payNow(id, "mpgs-sandbox");
    const other = await payNow(await newRequest("5.000"), "mpgs-sandbox");
    expect((await notify(attempt.id, captured(attempt), { secret: null })).status).toBe(400);
    expect((await notify(attempt.id, captured(attempt), { secret: "someone-else" })).status).toBe(400);
    expect((await notify(attempt.id, captured(other.attempt))).status).toBe(400);
    const wrongKind = await fetch(`${server.url}/gateway/mpgs/notify/${attempt.id}`, {
      method: "POST",
      headers: { "X-Notification-Secret": accounts.mpgs.notificationSecret },
      body: "not json",
    });
    expect(wrongKind.status).toBe(400);
    expect(await state(id)).toMatchObject({ paid: 0, ledger: 0 });
  });

  it("pays on a verified webhook, and its replay changes nothing", async () => {
    const id = await newRequest("5.500");
    const { attempt } = await payNow(id, "mpgs-sandbox");
    const accepted = await notify(attempt.id, captured(attempt));
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("Content-Type")).toContain("application/json");
    expect(await state(id)).toMatchObject({ state: "paid", paid: attempt.total, ledger: 1 });
    expect((await notify(attempt.id, captured(attempt))).status).toBe(200);
    expect(await state(id)).toMatchObject({ state: "paid", paid: attempt.total, ledger: 1 });
    const row = await database.db
      .selectFrom("payment_attempts")
      .select(["card_masked", "auth_code", "tran_id"])
      .where("id", "=", attempt.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ card_masked: "512345******0008", auth_code: "123456", tran_id: "1" });
  });

  it("does not pay on a signed message for a different amount", async () => {
    const id = await newRequest("6.000");
    const { attempt } = await payNow(id, "mpgs-sandbox");
    expect((await notify(attempt.id, captured(attempt, attempt.total - 1))).status).toBe(200);
    expect(await state(id)).toMatchObject({ paid: 0, ledger: 0 });
    const row = await database.db
      .selectFrom("payment_attempts")
      .select(["state", "result_code"])
      .where("id", "=", attempt.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: "error", result_code: "AMOUNT_MISMATCH" });
    // The customer is not told that no money was taken: the bank's answer says something was.
    const page = await (await fetch(`${server.url}/en/pay/attempt-detail/${attempt.id}`)).text();
    expect(page).toContain("We could not confirm this payment</h1>");
    expect(page).toContain("If your account was charged, please contact the merchant.");
  });

  it("gives 20 concurrent notifications one paid transition, one ledger entry and one receipt", async () => {
    const id = await newRequest("10.000");
    const { attempt } = await payNow(id, "mpgs-sandbox");
    const before = await state(id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(attempt.id, captured(attempt))));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const after = await state(id);
    expect(after).toMatchObject({ state: "paid", paid: attempt.total, ledger: 1, receipts: before.receipts + 1 });
    const transitions = await database.db
      .selectFrom("audit_log")
      .select("id")
      .where("object_id", "=", id)
      .where("action", "=", "payment_success")
      .execute();
    expect(transitions).toHaveLength(1);
  });
});

describe("the Mastercard Gateway sandbox's own webhook", () => {
  it("settles the payment when the customer never comes back", async () => {
    const id = await newRequest("4.000");
    const { gatewayUrl, attempt } = await payNow(id, "mpgs-sandbox");
    const paid = await fetch(gatewayUrl, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
      ...noRedirect,
    });
    expect(paid.status).toBe(303);
    // The customer closes the tab here; only the sandbox's queued notification reaches the platform.
    expect((await state(id)).state).not.toBe("paid");
    await runReadyJobs(database.db);
    expect(await state(id)).toMatchObject({ state: "paid", paid: attempt.total, ledger: 1 });
  });
});

describe("the Mastercard Gateway's Hosted Payment Page", () => {
  const payOnPage = (gatewayUrl: string, fields: Record<string, string>) =>
    fetch(gatewayUrl, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      ...noRedirect,
    });

  it("pays a link through the hosted page, 3-D Secure and the return, which the platform checks with the gateway", async () => {
    const id = await newRequest("7.250");
    const { gatewayUrl, attempt } = await payNow(id, "mpgs-sandbox");
    expect(gatewayUrl).toBe(
      `${server.url}/sandbox/mpgs/checkout/pay/${attempt.gateway_reference}?checkoutVersion=1.0.0`,
    );
    const challenge = await payOnPage(gatewayUrl, { cardNumber: "5111111111111118", expiry: "01/39", cvv: "100" });
    expect(challenge.status).toBe(303);
    const authenticated = await payOnPage(new URL(challenge.headers.get("Location")!, server.url).href, {
      intent: "authenticate",
      code: "1234",
    });
    const back = authenticated.headers.get("Location")!;
    expect(back).toContain(`/gateway/mpgs/response/${attempt.id}?resultIndicator=`);
    const result = await fetch(back, noRedirect);
    expect(result.status).toBe(303);
    expect(result.headers.get("Location")).toBe(`${server.url}/en/pay/attempt-detail/${attempt.id}`);
    expect(await state(id)).toMatchObject({ state: "paid", paid: attempt.total, ledger: 1 });
    const row = await database.db
      .selectFrom("payment_attempts")
      .select(["card_masked", "authentication_status", "return_secret"])
      .where("id", "=", attempt.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ card_masked: "511111******1118", authentication_status: "AUTHENTICATION_SUCCESSFUL" });
    expect(new URL(back).searchParams.get("resultIndicator")).toBe(row.return_secret);
    // The secret of the return is never shown to the customer.
    expect(await (await fetch(`${server.url}/en/pay/attempt-detail/${attempt.id}`)).text()).not.toContain(
      row.return_secret!,
    );
  });

  it("records a decline from the return, and a forged indicator pays nothing", async () => {
    const id = await newRequest("3.000");
    const unpaid = await payNow(id, "mpgs-sandbox");
    const row = await database.db
      .selectFrom("payment_attempts")
      .select("return_secret")
      .where("id", "=", unpaid.attempt.id)
      .executeTakeFirstOrThrow();
    for (const indicator of ["forged", row.return_secret!]) {
      const forged = await fetch(
        `${server.url}/gateway/mpgs/response/${unpaid.attempt.id}?resultIndicator=${indicator}`,
        noRedirect,
      );
      expect(forged.status).toBe(303);
      expect(await attemptState(unpaid.attempt.id)).toBe("pending");
    }

    const { gatewayUrl, attempt } = await payNow(id, "mpgs-sandbox");
    const declined = await payOnPage(gatewayUrl, { cardNumber: "5123450000000008", expiry: "05/39", cvv: "100" });
    // The indicator is not the session's; the return makes the platform ask the gateway, which says declined.
    await fetch(declined.headers.get("Location")!, noRedirect);
    expect(await attemptState(attempt.id)).toBe("failed");
    expect(await state(id)).toMatchObject({ paid: 0, ledger: 0 });
  });

  it("keeps attempts of the former card gateway readable: the result page and the reconciler pass them by", async () => {
    const id = await newRequest("2.000");
    const { attempt } = await payNow(id, "mpgs-sandbox");
    const row = await database.db
      .selectFrom("payment_attempts")
      .selectAll()
      .where("id", "=", attempt.id)
      .executeTakeFirstOrThrow();
    const historic = "Card" + "0".repeat(17) + "1";
    await database.db
      .insertInto("payment_attempts")
      .values({
        ...row,
        id: historic,
        gateway_kind: "card",
        track_id: `old-${row.track_id}`,
        submission_token: "historic",
        gateway_reference: "pay_old",
        return_secret: null,
        next_inquiry_at: new Date(0).toISOString(),
      })
      .execute();
    const page = await fetch(`${server.url}/en/pay/attempt-detail/${historic}`);
    expect(page.status).toBe(200);
    expect((await fetch(`${server.url}/gateway/card/response/${historic}`, noRedirect)).status).toBe(404);
    const { reconcilePayments } = await import("~/domain/payments/reconciler.server");
    await reconcilePayments(database.db, { publicBaseUrl: server.url, internalBaseUrl: server.url });
    expect(await attemptState(historic)).not.toBe("success");
  });
});

describe("late and duplicate payments", () => {
  it("counts a payment the bank takes after the link expired", async () => {
    const id = await newRequest("2.500");
    const { gatewayUrl } = await payNow(id, "knet-sandbox");
    await database.db.updateTable("transactions").set({ state: "expired" }).where("id", "=", id).execute();
    await fetch(await onKnetPage(gatewayUrl, "8888880000000001"), noRedirect);
    expect(await state(id)).toMatchObject({ state: "paid", ledger: 1 });
  });

  it("keeps a second payment of the same request in the ledger, flagged for a refund", async () => {
    const id = await newRequest("3.500");
    const first = await payNow(id, "knet-sandbox");
    const second = await payNow(id, "knet-sandbox");
    await fetch(await onKnetPage(first.gatewayUrl, "8888880000000001"), noRedirect);
    await fetch(await onKnetPage(second.gatewayUrl, "8888880000000001"), noRedirect);
    expect(await state(id)).toMatchObject({ state: "paid", ledger: 2 });
    const duplicate = await database.db
      .selectFrom("payment_attempts")
      .select(["state", "result_code"])
      .where("id", "=", second.attempt.id)
      .executeTakeFirstOrThrow();
    expect(duplicate).toEqual({ state: "success", result_code: "DUPLICATE" });
    const flagged = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_id", "=", id)
      .where("action", "=", "payment_duplicate")
      .execute();
    expect(flagged).toHaveLength(1);
  });
});

describe("card data", () => {
  it("never stores or logs a card number", async () => {
    const id = await newRequest("1.000");
    const { gatewayUrl } = await payNow(id, "knet-sandbox");
    await fetch(await onKnetPage(gatewayUrl, "8888880000000001"), noRedirect);
    const tables = [
      "transactions",
      "payment_attempts",
      "ledger_entries",
      "outgoing_mail",
      "audit_log",
      "jobs",
      "sandbox_knet_payments",
      "sandbox_mpgs_orders",
      "sandbox_mpgs_transactions",
    ] as const;
    const dump: string[] = [];
    for (const table of tables) dump.push(JSON.stringify(await database.db.selectFrom(table).selectAll().execute()));
    const everything = dump.join("\n") + logged.join("\n");
    for (const card of ["8888880000000001", "8888880000000002", "5123450000000008"])
      expect(everything).not.toContain(card);
  });
});
