import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { expireLapsedSessions, listSessions } from "~/sections/session/domain/sessions.server";
import { runReadyJobs } from "~/lib/jobs.server";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Checkout sessions as a merchant's server and its customer meet them: made, read and changed
 * with an API key; paid on the hosted page through the card sandbox; the customer sent back to
 * redirect_url with the result; the webhook_url told, signed with the merchant's checkout secret.
 */
type Received = { headers: http.IncomingHttpHeaders; body: string };

let database: TestDatabase;
let server: TestHttpServer;
let receiver: http.Server;
let hookUrl: string;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
const received: Received[] = [];
let alphaKey = "";
let betaKey = "";
let alphaToken = "";

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0", WEBHOOK_ALLOW_PRIVATE: "1" });
  alphaToken = await tokenOf(alpha.admin.username);
  alphaKey = await keyOf(alphaToken, [
    "e_commerce:read",
    "e_commerce:write",
    "payment_request:read",
    "payment_request:write",
  ]);
  betaKey = await keyOf(await tokenOf(beta.admin.username), ["e_commerce:read", "e_commerce:write"]);
});

afterAll(async () => {
  resetClock();
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.destroy();
});

async function tokenOf(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

async function keyOf(token: string, scopes: string[]) {
  const response = await fetch(`${server.url}/api/v1/admin/api-keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Shop server", scopes, allowed_ips: [], expires_at: null }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

const api = (method: string, path: string, key: string, json?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v1/checkout/v1/pymt-txn/${path}`, {
    method,
    headers: {
      Authorization: `Api-Key ${key}`,
      ...(json === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

let orders = 0;
const sessionBody = (fields: Record<string, unknown> = {}) => ({
  type: "e_commerce",
  amount: "12.500",
  currency_code: "KWD",
  pg_codes: ["mpgs-sandbox", "knet-sandbox"],
  customer_first_name: "Noura",
  customer_email: "noura@example.com",
  order_no: `ORD-${++orders}`,
  redirect_url: "https://shop.example.com/return?from=checkout",
  webhook_url: hookUrl,
  ...fields,
});

const form = { Origin: "", "Content-Type": "application/x-www-form-urlencoded" };

/** The customer pays the session on the hosted page with the card sandbox; answers where the result page sends them. */
async function payOnHostedPage(checkoutUrl: string, card = "5123450000000008") {
  const pay = await fetch(checkoutUrl, {
    method: "POST",
    headers: { ...form, Origin: server.url },
    body: new URLSearchParams({ pay_with: "mpgs-sandbox", submission_token: `t-${Math.random()}` }),
    redirect: "manual",
  });
  expect(pay.status).toBe(303);
  const paid = await fetch(pay.headers.get("Location")!, {
    method: "POST",
    headers: { ...form, Origin: server.url },
    body: new URLSearchParams({ cardNumber: card, expiry: "01/39", cvv: "123" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const result = await fetch(new URL(paid.headers.get("Location")!, server.url), { redirect: "manual" });
  let page = result;
  while (page.status >= 300 && page.status < 400)
    page = await fetch(new URL(page.headers.get("Location")!, server.url), { redirect: "manual" });
  return page.text();
}

const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, server.url);

describe("checkout sessions", () => {
  it("are made with an API key, paid on the hosted page, send the customer back with the result, and tell the webhook, signed", async () => {
    const created = await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-1" }));
    expect(created.status).toBe(201);
    const session = await created.json();
    expect(session).toMatchObject({
      state: "created",
      amount: "12.500",
      currency_code: "KWD",
      order_no: "WEB-1",
      type: "e_commerce",
      pg_codes: ["mpgs-sandbox", "knet-sandbox"],
      paid_amount: "0.000",
      attempts: [],
    });
    expect(session.session_id).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(session.checkout_url).toMatch(new RegExp(`/en/checkout/${session.session_id}$`));
    expect(new Date(session.expiration_time).getTime()).toBeGreaterThan(Date.now());

    const hosted = await (await fetch(local(session.checkout_url))).text();
    expect(hosted).toContain("WEB-1");
    expect(hosted).toContain("12.500");
    // No script of the platform's own: nothing to download, nothing that runs the page.
    expect(hosted).not.toMatch(/<script[^>]*\bsrc=|type="module"/);

    const page = await (
      await fetch(`${server.url}/api/v1/checkout/api/intl/v1/checkout-page/${session.session_id}`)
    ).json();
    expect(page).toMatchObject({
      order_no: "WEB-1",
      amount: "12.500",
      currency_code: "KWD",
      valid_for_payment: true,
      redirect_url: "https://shop.example.com/return?from=checkout",
    });
    expect(page.pay_choices.map((choice: { gateway_code: string }) => choice.gateway_code).sort()).toEqual([
      "knet-sandbox",
      "mpgs-sandbox",
    ]);

    const result = await payOnHostedPage(local(session.checkout_url));
    const back = `https://shop.example.com/return?from=checkout&amp;session_id=${session.session_id}&amp;order_no=WEB-1&amp;result=success`;
    expect(result).toContain(`url=${back}`);
    expect(result).toContain(`href="${back}"`);

    const read = await (await api("GET", session.session_id, alphaKey)).json();
    // The card sandbox's fee is the customer's here: what was paid is the amount and the fee.
    expect(read).toMatchObject({ state: "paid", amount: "12.500", paid_amount: "12.850", refunded_amount: "0.000" });
    expect(read.attempts).toHaveLength(1);
    expect(read.attempts[0]).toMatchObject({ state: "success", gateway: "mpgs-sandbox", amount: "12.850" });

    // Posted by a job, signed with the merchant's checkout secret (what a manager reads).
    expect(received).toHaveLength(0);
    while ((await runReadyJobs(database.db)) > 0);
    const paidEvents = received.filter((delivery) => JSON.parse(delivery.body).type === "checkout_session.paid");
    expect(paidEvents).toHaveLength(1);
    const secret = (
      await (
        await fetch(`${server.url}/api/v1/checkout/v1/signing-secret`, {
          headers: { Authorization: `Bearer ${alphaToken}` },
        })
      ).json()
    ).secret;
    expect(secret).toMatch(/^whsec_/);
    const header = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(paidEvents[0].headers.signature));
    expect(header).not.toBeNull();
    expect(header![2]).toBe(createHmac("sha256", secret).update(`${header![1]}.${paidEvents[0].body}`).digest("hex"));
    expect(createHmac("sha256", "whsec_other").update(`${header![1]}.${paidEvents[0].body}`).digest("hex")).not.toBe(
      header![2],
    );
    expect(JSON.parse(paidEvents[0].body)).toMatchObject({
      type: "checkout_session.paid",
      data: { session_id: session.session_id, order_no: "WEB-1", state: "paid", paid_amount: "12.850" },
    });
    // An API key cannot read the secret.
    expect(
      (
        await fetch(`${server.url}/api/v1/checkout/v1/signing-secret`, {
          headers: { Authorization: `Api-Key ${alphaKey}` },
        })
      ).status,
    ).toBe(403);

    // Paid: no second payment, no change.
    const again = await fetch(local(session.checkout_url));
    expect(await again.text()).not.toContain('name="pay_with"');
    const second = await fetch(local(session.checkout_url), {
      method: "POST",
      headers: { ...form, Origin: server.url },
      body: new URLSearchParams({ pay_with: "mpgs-sandbox", submission_token: "another" }),
      redirect: "manual",
    });
    expect(second.status).toBe(400);
    const patched = await api("PATCH", session.session_id, alphaKey, { amount: "1.000" });
    expect(patched.status).toBe(400);
    expect((await patched.json()).non_field_errors[0]).toContain("can no longer be changed");
  });

  it("answers the first response again for a repeated Idempotency-Key, and refuses a second session for the same order", async () => {
    const body = sessionBody({ order_no: "WEB-2" });
    const first = await api("POST", "", alphaKey, body, { "Idempotency-Key": "order-2" });
    const repeat = await api("POST", "", alphaKey, body, { "Idempotency-Key": "order-2" });
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await repeat.json()).session_id).toBe((await first.json()).session_id);
    const other = await api("POST", "", alphaKey, body, { "Idempotency-Key": "order-2b", "Accept-Language": "ar" });
    expect(other.status).toBe(400);
    const refusedBody = await other.json();
    expect(refusedBody.order_no[0]).toContain("WEB-2");
    // A lost response is found again: the refusal names the order's session, and the order number reads it.
    const firstId = (await (await api("POST", "", alphaKey, body, { "Idempotency-Key": "order-2" })).json()).session_id;
    expect(refusedBody.session_id).toBe(firstId);
    const byOrder = await api("GET", "?order_no=WEB-2", alphaKey);
    expect(byOrder.status).toBe(200);
    expect(await byOrder.json()).toMatchObject({ session_id: firstId, order_no: "WEB-2" });
    expect((await api("GET", "?order_no=WEB-2", betaKey)).status).toBe(404);
    const count = await database.db
      .selectFrom("checkout_sessions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("order_no", "=", "WEB-2")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("refuses what is wrong field by field, in the caller's language", async () => {
    const wrong = await api(
      "POST",
      "",
      alphaKey,
      sessionBody({
        amount: "12.5001",
        pg_codes: [],
        redirect_url: "ftp://x",
        expiration_time: "yesterday",
        customer_email: "no",
      }),
      { "Accept-Language": "ar" },
    );
    expect(wrong.status).toBe(400);
    const errors = await wrong.json();
    expect(Object.keys(errors).sort()).toEqual(["customer_email", "redirect_url"]);
    expect(errors.redirect_url[0]).toMatch(/[\u0600-\u06FF]/);
    const money = await api(
      "POST",
      "",
      alphaKey,
      sessionBody({ amount: "12.5001", pg_codes: [], expiration_time: "yesterday" }),
    );
    expect(Object.keys(await money.json()).sort()).toEqual(["amount", "expiration_time", "pg_codes"]);
    const past = await api("POST", "", alphaKey, sessionBody({ expiration_time: "2020-01-01T00:00:00+03:00" }));
    expect((await past.json()).expiration_time[0]).toBe("The expiry must be in the future.");
    const type = await api("POST", "", alphaKey, sessionBody({ type: "shop" }));
    expect(type.status).toBe(400);
    expect(await type.json()).toHaveProperty("type");
    const privateHook = await fetch(`${server.url}/api/v1/checkout/v1/pymt-txn/`, {
      method: "POST",
      headers: { Authorization: `Api-Key ${alphaKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(sessionBody({ webhook_url: "not a url" })),
    });
    expect(await privateHook.json()).toHaveProperty("webhook_url");
  });

  it("changes an unpaid session in place, and keeps one merchant's sessions from another's key", async () => {
    const created = await (await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-3" }))).json();
    const changed = await api("PATCH", created.session_id, alphaKey, {
      amount: "15.000",
      customer_first_name: "Reem",
      pg_codes: ["knet-sandbox"],
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      session_id: created.session_id,
      amount: "15.000",
      customer_first_name: "Reem",
      pg_codes: ["knet-sandbox"],
      order_no: "WEB-3",
    });
    expect(
      Number(
        (
          await database.db
            .selectFrom("checkout_sessions")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("order_no", "=", "WEB-3")
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(1);

    const theirs = await api("GET", created.session_id, betaKey);
    expect(theirs.status).toBe(404);
    const unknown = await api("GET", "AAAAAAAAAAAAAAAAAAAAAA", betaKey);
    expect(await theirs.text()).toBe(await unknown.text());
    expect((await api("PATCH", created.session_id, betaKey, { amount: "0.100" })).status).toBe(404);
    const still = await (await api("GET", created.session_id, alphaKey)).json();
    expect(still.amount).toBe("15.000");
  });

  it("cannot be paid once expired: the page says so and a Pay pressed on an old page starts nothing", async () => {
    const created = await (
      await api(
        "POST",
        "",
        alphaKey,
        sessionBody({ order_no: "WEB-4", expiration_time: new Date(Date.now() + 3_600_000).toISOString() }),
      )
    ).json();
    const open = await (await fetch(local(created.checkout_url))).text();
    expect(open).toContain('name="pay_with"');
    // Its hour passes.
    const row = await database.db
      .selectFrom("checkout_sessions")
      .select("transaction_id")
      .where("id", "=", created.session_id)
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable("transactions")
      .set({ expiration_time: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", row.transaction_id)
      .execute();
    {
      const late = await fetch(local(created.checkout_url), {
        method: "POST",
        headers: { ...form, Origin: server.url },
        body: new URLSearchParams({ pay_with: "mpgs-sandbox", submission_token: "late" }),
        redirect: "manual",
      });
      expect(late.status).toBe(400);
      const page = await (await fetch(local(created.checkout_url))).text();
      expect(page).not.toContain('name="pay_with"');
      const read = await (await api("GET", created.session_id, alphaKey)).json();
      expect(read).toMatchObject({ state: "expired", attempts: [] });
      expect((await api("PATCH", created.session_id, alphaKey, { amount: "1.000" })).status).toBe(400);
      // The sessions list files it under Expired before the sweep has ended it, and not under Created.
      const listed = async (state: "expired" | "created") =>
        (await listSessions(database.db, alpha.merchantId, { state, page: 1 })).rows.map((session) => session.order_no);
      expect(await listed("expired")).toContain("WEB-4");
      expect(await listed("created")).not.toContain("WEB-4");
    }
  });

  it("makes a payment request session under payment requests' own rules, with its row in the same write", async () => {
    const created = await api(
      "POST",
      "",
      alphaKey,
      sessionBody({ type: "payment_request", order_no: "INV-9", pg_codes: ["knet-sandbox"] }),
    );
    expect(created.status).toBe(201);
    const session = await created.json();
    const row = await database.db
      .selectFrom("checkout_sessions")
      .innerJoin("transactions", "transactions.id", "checkout_sessions.transaction_id")
      .select(["transactions.plugin", "transactions.extra"])
      .where("checkout_sessions.id", "=", session.session_id)
      .executeTakeFirstOrThrow();
    expect(row.plugin).toBe("payment_request");
    expect(JSON.parse(row.extra)).toMatchObject({
      source: "checkout_session",
      session_id: session.session_id,
      merchant_order_no: "INV-9",
    });
    // Its own rules: an unknown gateway is refused by the payment request's checks, and nothing is written.
    const refused = await api(
      "POST",
      "",
      alphaKey,
      sessionBody({ type: "payment_request", order_no: "INV-10", pg_codes: ["nope"] }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toHaveProperty("pg_codes");
    expect(
      await database.db
        .selectFrom("checkout_sessions")
        .select("id")
        .where("order_no", "=", "INV-10")
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it("refuses to change the amount while an attempt told failed may still settle", async () => {
    const created = await (await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-5" }))).json();
    const started = await fetch(local(created.checkout_url), {
      method: "POST",
      headers: { ...form, Origin: server.url },
      body: new URLSearchParams({ pay_with: "mpgs-sandbox", submission_token: "in-flight" }),
      redirect: "manual",
    });
    expect(started.status).toBe(303);
    const row = await database.db
      .selectFrom("checkout_sessions")
      .select("transaction_id")
      .where("id", "=", created.session_id)
      .executeTakeFirstOrThrow();
    // The gateway said failed, but the reconciler is still to ask it again: a late success would be a fact.
    await database.db
      .updateTable("payment_attempts")
      .set({ state: "failed", next_inquiry_at: new Date(Date.now() + 60_000).toISOString() })
      .where("transaction_id", "=", row.transaction_id)
      .execute();
    const refused = await api("PATCH", created.session_id, alphaKey, { amount: "1.000" }, { "Accept-Language": "ar" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).non_field_errors[0]).toBe(
      "هناك عملية دفع جارية لهذه الجلسة: أعد المحاولة بعد ظهور نتيجتها.",
    );
    // Once the reconciler is done with it, the cart may change.
    await database.db
      .updateTable("payment_attempts")
      .set({ next_inquiry_at: null })
      .where("transaction_id", "=", row.transaction_id)
      .execute();
    const changed = await api("PATCH", created.session_id, alphaKey, { amount: "1.000" });
    expect(changed.status).toBe(200);
    expect((await changed.json()).amount).toBe("1.000");
  });

  it("are not offered to a merchant without the session section: its API and hosted page answer 404", async () => {
    const created = await (await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-6" }))).json();
    const features = await database.db
      .selectFrom("merchant_features")
      .selectAll()
      .where("merchant_id", "=", alpha.merchantId)
      .where("section", "=", "session")
      .execute();
    expect(features.length).toBeGreaterThan(0);
    await database.db
      .deleteFrom("merchant_features")
      .where("merchant_id", "=", alpha.merchantId)
      .where("section", "=", "session")
      .execute();
    try {
      expect((await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-7" }))).status).toBe(404);
      expect((await api("GET", created.session_id, alphaKey)).status).toBe(404);
      expect((await api("PATCH", created.session_id, alphaKey, { amount: "2.000" })).status).toBe(404);
      expect(
        (await fetch(`${server.url}/api/v1/checkout/api/intl/v1/checkout-page/${created.session_id}`)).status,
      ).toBe(404);
      expect((await fetch(local(created.checkout_url))).status).toBe(404);
      const pay = await fetch(local(created.checkout_url), {
        method: "POST",
        headers: { ...form, Origin: server.url },
        body: new URLSearchParams({ pay_with: "mpgs-sandbox", submission_token: "no-section" }),
        redirect: "manual",
      });
      expect(pay.status).toBe(404);
    } finally {
      await database.db.insertInto("merchant_features").values(features).execute();
    }
    expect((await api("GET", created.session_id, alphaKey)).status).toBe(200);
    expect(
      await database.db.selectFrom("checkout_sessions").select("id").where("order_no", "=", "WEB-7").executeTakeFirst(),
    ).toBeUndefined();
  });

  it("sends a payment asking for the customer's amount to the pay page, even from a Pay pressed on the hosted page", async () => {
    const created = await (await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-8" }))).json();
    const row = await database.db
      .selectFrom("checkout_sessions")
      .select("transaction_id")
      .where("id", "=", created.session_id)
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable("transactions")
      .set({ editable_amount: 1 })
      .where("id", "=", row.transaction_id)
      .execute();
    const shown = await fetch(local(created.checkout_url), { redirect: "manual" });
    expect(shown.headers.get("Location")).toBe(`/en/pay/${row.transaction_id}`);
    const pay = await fetch(local(created.checkout_url), {
      method: "POST",
      headers: { ...form, Origin: server.url },
      body: new URLSearchParams({ pay_with: "mpgs-sandbox", submission_token: "asks-more" }),
      redirect: "manual",
    });
    expect(pay.status).toBe(303);
    expect(pay.headers.get("Location")).toBe(`/en/pay/${row.transaction_id}`);
    expect(
      await database.db
        .selectFrom("payment_attempts")
        .select("id")
        .where("transaction_id", "=", row.transaction_id)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it("expires abandoned sessions in the sweep and tells their webhook_url, but not one whose payment is under way", async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const abandoned = await (
      await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-9", expiration_time: soon }))
    ).json();
    const paying = await (
      await api("POST", "", alphaKey, sessionBody({ order_no: "WEB-10", expiration_time: soon }))
    ).json();
    const started = await fetch(local(paying.checkout_url), {
      method: "POST",
      headers: { ...form, Origin: server.url },
      body: new URLSearchParams({ pay_with: "mpgs-sandbox", submission_token: "under-way" }),
      redirect: "manual",
    });
    expect(started.status).toBe(303);
    const stateOf = async (sessionId: string) =>
      (
        await database.db
          .selectFrom("checkout_sessions")
          .innerJoin("transactions", "transactions.id", "checkout_sessions.transaction_id")
          .select("transactions.state")
          .where("checkout_sessions.id", "=", sessionId)
          .executeTakeFirstOrThrow()
      ).state;
    await expireLapsedSessions(database.db);
    expect(await stateOf(abandoned.session_id)).toBe("created");
    advanceClock(2 * 3_600_000);
    try {
      await expireLapsedSessions(database.db);
      expect(await stateOf(abandoned.session_id)).toBe("expired");
      expect(await stateOf(paying.session_id)).toBe("pending");
      while ((await runReadyJobs(database.db)) > 0);
      const told = received
        .map((delivery) => JSON.parse(delivery.body))
        .filter((event) => event.type === "checkout_session.expired");
      const sessions = told.map((event) => event.data.session_id);
      expect(sessions.filter((id) => id === abandoned.session_id)).toHaveLength(1);
      expect(sessions).not.toContain(paying.session_id);
    } finally {
      resetClock();
    }
  });
});
