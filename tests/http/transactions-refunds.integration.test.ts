import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { sessionCookieFrom } from "../support/http-app";

/**
 * Refunds through the API on a card payment made for real on the card sandbox, and the rule that
 * never bends: refunds never exceed what was captured, even with 50 requests at once from two
 * server processes sharing one database.
 */
let database: TestDatabase;
let server: TestHttpServer;
let second: ServerProcess;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
const tokens = { admin: "", staff: "", maker: "", other: "" };
const noRedirect = { redirect: "manual" as const };
const ABOVE_AVAILABLE = "The amount cannot be greater than the available amount.";

async function tokenOf(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

const call = (
  base: string,
  method: string,
  path: string,
  token: string,
  json?: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

/** A payment request paid with the sandbox's test card 4111 1111 1111 1111, the customer coming back. */
async function paidRequest(amount: string) {
  const created = await call(server.url, "POST", "/api/v1/plugins/payment_request/transaction/", tokens.admin, {
    amount,
    pg_codes: ["mpgs-sandbox"],
  });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  const pay = await fetch(`${server.url}/en/pay/${id}`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `pay-${id}` }),
    ...noRedirect,
  });
  expect(pay.status).toBe(303);
  const gatewayUrl = pay.headers.get("Location")!;
  const card = await fetch(gatewayUrl, {
    method: "POST",
    headers: { Origin: new URL(gatewayUrl).origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
    ...noRedirect,
  });
  expect(card.status).toBe(303);
  const back = await fetch(new URL(card.headers.get("Location")!, gatewayUrl), noRedirect);
  expect(back.status).toBe(303);
  const row = await database.db
    .selectFrom("transactions")
    .select(["state", "captured_amount"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  expect(row.state).toBe("paid");
  return { id, captured: row.captured_amount };
}

/** Money as the database, the ledger and the gateway each see it. */
async function books(id: string) {
  const transaction = await database.db
    .selectFrom("transactions")
    .select(["state", "captured_amount", "refunded_amount", "paid_attempt_id"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const ledger = await database.db
    .selectFrom("ledger_entries")
    .select(["amount"])
    .where("transaction_id", "=", id)
    .where("kind", "=", "refund")
    .execute();
  const operations = await database.db
    .selectFrom("transaction_operations")
    .select(["amount", "state"])
    .where("transaction_id", "=", id)
    .where("kind", "=", "refund")
    .execute();
  const attempt = await database.db
    .selectFrom("payment_attempts")
    .select("track_id")
    .where("id", "=", transaction.paid_attempt_id!)
    .executeTakeFirstOrThrow();
  const order = await database.db
    .selectFrom("sandbox_mpgs_orders")
    .select(["status", "total_refunded"])
    .where("order_id", "=", attempt.track_id)
    .executeTakeFirstOrThrow();
  // The gateway's order.status, in the words the assertions below use.
  const gateway = { status: order.status.toLowerCase(), refunded_amount: order.total_refunded };
  const sum = (rows: { amount: number }[]) => rows.reduce((total, row) => total + Number(row.amount), 0);
  return {
    state: transaction.state,
    captured: transaction.captured_amount,
    refunded: transaction.refunded_amount,
    ledger: sum(ledger),
    succeeded: sum(operations.filter((operation) => operation.state === "succeeded")),
    pending: operations.filter((operation) => operation.state === "pending").length,
    gateway: Number(gateway.refunded_amount),
    gatewayStatus: gateway.status,
  };
}

type Action = { value: string; url: string; available_amount: string | null };
async function cookieOf(username: string) {
  const response = await fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "login", username, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  const cookie = sessionCookieFrom(response);
  if (!cookie) throw new Error(`sign-in failed for ${username}`);
  return cookie;
}

const actionsOf = async (id: string, token = tokens.admin) =>
  (await (
    await call(server.url, "GET", `/api/v1/plugins/payment_request/transaction/actions/${id}/`, token)
  ).json()) as Action[];

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Refund");
  other = await seedMerchant(database.db, "Other");
  await createUser(database.db, shop.merchantId, {
    username: "Refund-maker",
    email: "maker@refund.example",
    firstName: "Make",
    lastName: "Er",
    permissions: ["view_paymenttransaction", "refund_paymenttransaction"],
  });
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  second = await startServerProcess(database.env);
  tokens.admin = await tokenOf(shop.admin.username);
  tokens.staff = await tokenOf(shop.staff.username);
  tokens.maker = await tokenOf("Refund-maker");
  tokens.other = await tokenOf(other.admin.username);
}, 90_000);

afterAll(async () => {
  if (second?.child.exitCode === null) {
    const exited = new Promise((resolve) => second.child.once("exit", resolve));
    second.child.kill("SIGTERM");
    await exited;
  }
  await server?.close();
  await database?.destroy();
});

describe("refunds through the API", () => {
  it("refunds part, then the rest, at the row's action URL; staff and other merchants cannot", async () => {
    const { id, captured } = await paidRequest("10.000");
    const refund = (await actionsOf(id)).find((action) => action.value === "refund")!;
    expect(refund).toMatchObject({
      url: `/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`,
      display_name: "Refund",
    });
    expect(Math.round(Number(refund.available_amount) * 1000)).toBe(captured);

    expect((await actionsOf(id, tokens.staff)).map((action) => action.value)).not.toContain("refund");
    const byStaff = await call(server.url, "POST", refund.url, tokens.staff, { amount: "1.000" });
    expect(byStaff.status).toBe(403);
    expect(await byStaff.json()).toHaveProperty("detail");
    expect((await call(server.url, "POST", refund.url, tokens.other, { amount: "1.000" })).status).toBe(404);
    expect(
      (await call(server.url, "GET", `/api/v1/plugins/payment_request/transaction/details/${id}`, tokens.other)).status,
    ).toBe(404);

    const tooMuch = await call(server.url, "POST", refund.url, tokens.admin, { amount: "999.000" });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ detail: ABOVE_AVAILABLE, amount: [ABOVE_AVAILABLE] });
    expect((await call(server.url, "POST", refund.url, tokens.admin, { amount: "1.0001" })).status).toBe(400);

    const first = await call(
      server.url,
      "POST",
      refund.url,
      tokens.admin,
      { amount: "4.000" },
      { "Idempotency-Key": `refund-${id}` },
    );
    expect(first.status).toBe(200);
    expect(((await first.json()) as { message: string }).message).toMatch(/^Refunded KWD\s4\.000\.$/);
    const replay = await call(
      second.url,
      "POST",
      refund.url,
      tokens.admin,
      { amount: "4.000" },
      { "Idempotency-Key": `refund-${id}` },
    );
    expect(replay.status).toBe(200);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await books(id)).toMatchObject({ refunded: 4000, ledger: 4000, gateway: 4000, state: "paid" });

    const rest = (await actionsOf(id)).find((action) => action.value === "refund")!;
    expect(Math.round(Number(rest.available_amount) * 1000)).toBe(captured - 4000);
    expect((await call(second.url, "POST", rest.url, tokens.admin, { amount: null })).status).toBe(200);
    expect(await books(id)).toMatchObject({
      state: "refunded",
      refunded: captured,
      ledger: captured,
      succeeded: captured,
      gateway: captured,
      gatewayStatus: "refunded",
    });
    expect((await actionsOf(id)).map((action) => action.value)).not.toContain("refund");
    const none = await call(server.url, "POST", rest.url, tokens.admin, { amount: "0.100" });
    expect(none.status).toBe(400);

    const details = (await (
      await call(server.url, "GET", `/api/v1/plugins/payment_request/transaction/details/${id}/`, tokens.admin)
    ).json()) as {
      state: string;
      refunded_amount: string;
      txns: { type: string; state: string; amount: string }[];
    };
    expect(details.state).toBe("refunded");
    expect(details.txns.map((txn) => [txn.type, txn.state, txn.amount])).toEqual([
      ["refund", "succeeded", "4.000"],
      ["refund", "succeeded", ((captured - 4000) / 1000).toFixed(3)],
    ]);
  });

  it("answers 201 when a maker's refund waits for approval", async () => {
    const { id } = await paidRequest("2.000");
    await database.db
      .updateTable("merchants")
      .set({ operations_approval: 1 })
      .where("id", "=", shop.merchantId)
      .execute();
    try {
      const url = `/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`;
      const asked = await call(server.url, "POST", url, tokens.maker, { amount: "1.000" });
      expect(asked.status).toBe(201);
      expect(await asked.json()).toHaveProperty("message");
      expect((await call(second.url, "POST", url, tokens.maker, { amount: "0.500" })).status).toBe(409);
      expect(await books(id)).toMatchObject({ refunded: 0, ledger: 0 });
    } finally {
      await database.db
        .updateTable("merchants")
        .set({ operations_approval: 0 })
        .where("id", "=", shop.merchantId)
        .execute();
    }
  });
});

describe("a refund's reason", () => {
  const reasonsOf = async (id: string) =>
    (
      await database.db
        .selectFrom("audit_log")
        .select(["action", "params", "description"])
        .where("object_id", "=", id)
        .where("action", "=", "operation_reason")
        .execute()
    ).map((row) => row.description);

  it("goes to the audit log with a refund done at once; blank is no reason; one too long is refused", async () => {
    const { id } = await paidRequest("3.000");
    const url = `/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`;
    const tooLong = await call(server.url, "POST", url, tokens.admin, { amount: "1.000", reason: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toHaveProperty("reason");
    expect((await call(server.url, "POST", url, tokens.admin, { amount: "1.000", reason: 7 })).status).toBe(400);
    expect(await books(id)).toMatchObject({ refunded: 0 });

    const done = await call(server.url, "POST", url, tokens.admin, {
      amount: "1.000",
      reason: "  Customer returned the scarf  ",
    });
    expect(done.status).toBe(200);
    expect(await reasonsOf(id)).toEqual([
      expect.stringMatching(/^Reason for the refund on order #\d+: Customer returned the scarf$/),
    ]);
    expect((await call(server.url, "POST", url, tokens.admin, { amount: "1.000", reason: "   " })).status).toBe(200);
    expect(await reasonsOf(id)).toHaveLength(1);
    // The transaction's history shows it, in Arabic too.
    const page = await fetch(`${server.url}/ar/transactions/${id}`, {
      headers: { Cookie: await cookieOf(shop.admin.username) },
    });
    expect(await page.text()).toContain("Customer returned the scarf");
  });

  it("waits with a maker's request for the checker, who reads it with what was paid and refunded", async () => {
    const { id } = await paidRequest("5.000");
    await database.db
      .updateTable("merchants")
      .set({ operations_approval: 1 })
      .where("id", "=", shop.merchantId)
      .execute();
    try {
      const asked = await call(
        server.url,
        "POST",
        `/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`,
        tokens.maker,
        { amount: "2.000", reason: "Wrong size" },
      );
      expect(asked.status).toBe(201);
      const request = await database.db
        .selectFrom("operation_requests")
        .select(["id", "note"])
        .where("transaction_id", "=", id)
        .executeTakeFirstOrThrow();
      expect(request.note).toBe("Wrong size");
      expect(await reasonsOf(id)).toHaveLength(1);
      const process = await call(
        server.url,
        "GET",
        `/api/v1/plugins/c/oa/processes/operation/${request.id}/`,
        tokens.admin,
      );
      expect(await process.json()).toMatchObject({
        reason: "Wrong size",
        amount: "2.000",
        transaction: { paid_amount: expect.stringMatching(/^5\.\d{3}$/), refunded_amount: "0.000" },
      });
    } finally {
      await database.db
        .updateTable("merchants")
        .set({ operations_approval: 0 })
        .where("id", "=", shop.merchantId)
        .execute();
    }
  });
});

describe("concurrent refunds", () => {
  it("never exceed the captured amount: 50 at once from two server processes", async () => {
    const { id, captured } = await paidRequest("10.000");
    const path = `/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const response = await call(index % 2 === 0 ? server.url : second.url, "POST", path, tokens.admin, {
          amount: "1.000",
        });
        return { status: response.status, body: (await response.json()) as { message?: string; detail?: string } };
      }),
    );
    const done = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(done.length + refused.length).toBe(50);
    // 1.000 at a time out of the captured 10.300: ten fit, the eleventh would not.
    expect(done).toHaveLength(Math.floor(captured / 1000));
    for (const answer of refused)
      expect([ABOVE_AVAILABLE, "This operation is not available for this transaction."]).toContain(answer.body.detail);
    expect(refused.some((answer) => answer.body.detail === ABOVE_AVAILABLE)).toBe(true);

    const after = await books(id);
    expect(after.refunded).toBeLessThanOrEqual(after.captured);
    expect(after).toMatchObject({
      refunded: done.length * 1000,
      ledger: done.length * 1000,
      succeeded: done.length * 1000,
      gateway: done.length * 1000,
      pending: 0,
    });
    const statistics = (await (
      await call(second.url, "GET", "/api/v1/plugins/payment_request/currency_statistics", tokens.admin)
    ).json()) as {
      received: { value: string }[];
      balance: { value: string }[];
    };
    const received = Math.round(Number(statistics.received[0].value) * 1000);
    expect(Math.round(Number(statistics.balance[0].value) * 1000)).toBe(received - (await refundedTotal()));
  });
});

/** Every refund of the shop in the ledger, minor units. */
async function refundedTotal() {
  const rows = await database.db
    .selectFrom("ledger_entries")
    .select("amount")
    .where("merchant_id", "=", shop.merchantId)
    .where("kind", "=", "refund")
    .execute();
  return rows.reduce((total, row) => total + Number(row.amount), 0);
}
