import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payByCard } from "../support/card-payment";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { sessionCookieFrom } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import type { Permission } from "~/domain/identity/permissions";
import { loadSessionUser } from "~/domain/identity/users.server";
import { requestOperation } from "~/domain/payments/operations.server";

/**
 * Operations Requests and Permissions Requests through the real server: the pages (forms without
 * JavaScript) and the API v1 services, for the checker, the maker, staff and another merchant.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
const ids = { checker: 0, maker: 0, target: 0 };
const OPERATOR: Permission[] = [
  "view_paymenttransaction",
  "refund_paymenttransaction",
  "capture_paymenttransaction",
  "void_paymenttransaction",
];

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Tk");
  other = await seedMerchant(database.db, "Tx");
  await database.db.updateTable("merchants").set({ operations_approval: 1 }).execute();
  const user = (username: string, permissions: Permission[]) =>
    createUser(database.db, shop.merchantId, {
      username,
      email: `${username}@tk.example`,
      firstName: "Test",
      lastName: "User",
      permissions,
    });
  ids.checker = await user("tk-checker", [...OPERATOR, "approve_operations", "approve_permission_requests"]);
  ids.maker = await user("tk-maker", OPERATOR);
  ids.target = await user("tk-target", ["view_paymenttransaction"]);
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

async function signIn(username: string) {
  const response = await fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "login", username, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  const cookie = sessionCookieFrom(response);
  if (!cookie) throw new Error(`sign-in failed for ${username}: ${response.status}`);
  return cookie;
}

async function token(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

function page(path: string, cookie: string, form?: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method: form ? "POST" : "GET",
    headers: form
      ? { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" }
      : { Cookie: cookie },
    body: form ? new URLSearchParams(form) : undefined,
    redirect: "manual",
  });
}

function api(
  path: string,
  access: string,
  options: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  return fetch(`${server.url}/api/v1/${path}`, {
    method: options.method ?? (options.json === undefined ? "GET" : "POST"),
    headers: {
      Authorization: `Bearer ${access}`,
      ...(options.json === undefined ? {} : { "Content-Type": "application/json" }),
      ...options.headers,
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
}

/** A paid transaction and the maker's pending refund request for it. */
async function pendingRefund(amount = "2.000") {
  const { id, orderNo } = await payByCard(database.db, server.url, {
    merchantId: shop.merchantId,
    user: shop.admin,
    amount: "10.000",
  });
  const maker = (await loadSessionUser(database.db, ids.maker))!;
  const outcome = await requestOperation(database.db, {
    merchantId: shop.merchantId,
    actor: maker,
    transactionId: id,
    kind: "refund",
    amount,
    addresses: { publicBaseUrl: server.url, internalBaseUrl: server.url },
  });
  if (!outcome.ok || !outcome.requestId) throw new Error(outcome.code);
  return { transactionId: id, orderNo, requestId: outcome.requestId };
}

async function succeededOperations(transactionId: string) {
  const rows = await database.db
    .selectFrom("transaction_operations")
    .select("state")
    .where("transaction_id", "=", transactionId)
    .execute();
  return rows.filter((row) => row.state === "succeeded").length;
}

describe("the Operations Requests pages", () => {
  it("lists a pending request for the checker, with filters in the query string and a menu badge", async () => {
    const { transactionId, orderNo, requestId } = await pendingRefund();
    const cookie = await signIn("tk-checker");
    const list = await page("/en/ticket/approve-refund-void", cookie);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain(`href="/en/transactions/${transactionId}"`);
    expect(html).toMatch(new RegExp(`#(<!-- -->)?${orderNo}<`));
    expect(html).toContain(`href="/en/ticket/approve-refund-void/${requestId}"`);
    expect(html).toContain("Pending");
    expect(html).toMatch(/title="Pending requests: \d+"/);
    const approvedOnly = await (await page("/en/ticket/approve-refund-void?state=approved", cookie)).text();
    expect(approvedOnly).not.toContain(`/en/ticket/approve-refund-void/${requestId}"`);
    const badDates = await (
      await page("/en/ticket/approve-refund-void?created_after=2026-05-02&created_before=2026-05-01", cookie)
    ).text();
    expect(badDates).toContain("To cannot be before From.");
    const arabic = await (await page("/ar/ticket/approve-refund-void", cookie)).text();
    expect(arabic).toContain("قيد الانتظار");
  });

  it("approves once from the details page's form; the maker may only cancel", async () => {
    const { transactionId, requestId } = await pendingRefund();
    const path = `/en/ticket/approve-refund-void/${requestId}`;
    const makerCookie = await signIn("tk-maker");
    const makerView = await (await page(path, makerCookie)).text();
    expect(makerView).toContain('value="cancel"');
    expect(makerView).not.toContain('value="approve"');
    const ownApproval = await page(path, makerCookie, { intent: "approve" });
    expect(ownApproval.status).toBe(403);
    expect(await ownApproval.text()).toContain("You do not have permission for this operation.");

    const cookie = await signIn("tk-checker");
    const details = await (await page(path, cookie)).text();
    expect(details).toContain('value="approve"');
    expect(details).toContain('value="reject"');
    expect(details).toContain("buyer@example.com");
    // Approve first shows what will happen; nothing moves until the checker says yes.
    const unconfirmed = await page(path, cookie, { intent: "approve" });
    expect(unconfirmed.status).toBe(302);
    expect(unconfirmed.headers.get("Location")).toBe(`${path}?confirm=approve`);
    expect(await succeededOperations(transactionId)).toBe(0);
    const confirmation = await (await page(`${path}?confirm=approve`, cookie)).text();
    expect(confirmation).toMatch(/Approve refunding KWD.2\.000 on order #(<!-- -->)?\d+\?/);
    expect(confirmation).toContain("The money moves as soon as you approve. Are you sure?");
    const approved = await page(path, cookie, { intent: "approve", confirmed: "yes" });
    expect(approved.status).toBe(200);
    const html = await approved.text();
    expect(html).toMatch(/Refunded KWD.2\.000\./);
    expect(html).not.toContain('value="approve"');
    const again = await page(path, cookie, { intent: "approve", confirmed: "yes" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This request has already been decided: Approved.");
    expect(await succeededOperations(transactionId)).toBe(1);
  });

  it("tells the maker on the transaction that a request waits, before asking 'Are you sure?'", async () => {
    const { transactionId, requestId } = await pendingRefund();
    const makerCookie = await signIn("tk-maker");
    const details = await (await page(`/en/transactions/${transactionId}?operation=refund`, makerCookie)).text();
    expect(details).toMatch(/Refund of KWD.2\.000 asked by tk-maker: waiting for approval\./);
    expect(details).toContain(`href="/en/ticket/approve-refund-void/${requestId}"`);
    expect(details).toContain("A request for this transaction is already waiting for approval.");
    expect(details).not.toContain('name="amount"');
    const review = await page(`/en/transactions/${transactionId}`, makerCookie, {
      intent: "operation",
      id: transactionId,
      kind: "refund",
      amount: "1.000",
      step: "review",
    });
    expect(review.status).toBe(409);
    expect(await review.text()).not.toContain("Are you sure?");

    // The checker sees the waiting request too, and may still refund directly.
    const checkerView = await (
      await page(`/ar/transactions/${transactionId}?operation=refund`, await signIn("tk-checker"))
    ).text();
    expect(checkerView).toContain("بانتظار الموافقة");
    expect(checkerView).toContain('name="amount"');
  });

  it("answers 403 to staff and 404 to another merchant", async () => {
    const { requestId } = await pendingRefund();
    const staff = await signIn(shop.staff.username);
    expect((await page("/en/ticket/approve-refund-void", staff)).status).toBe(403);
    expect((await page("/en/ticket/approve-permissions", staff)).status).toBe(403);
    const stranger = await signIn(other.admin.username);
    expect((await page(`/en/ticket/approve-refund-void/${requestId}`, stranger)).status).toBe(404);
    expect((await page(`/en/ticket/approve-refund-void/${requestId}`, stranger, { intent: "approve" })).status).toBe(
      404,
    );
    expect(await (await page("/en/ticket/approve-refund-void", stranger)).text()).not.toContain(
      `/en/ticket/approve-refund-void/${requestId}"`,
    );
  });
});

describe("the Permissions Requests pages", () => {
  it("asks for rights with the form, and a checker approves them", async () => {
    const admin = await signIn(shop.admin.username);
    const list = await (await page("/en/ticket/approve-permissions", admin)).text();
    expect(list).toContain("Request permission");
    expect(list).toContain(`<option value="${ids.target}">tk-target`);
    const asked = await page("/en/ticket/approve-permissions", admin, {
      user: String(ids.target),
      permission: "refund_paymenttransaction",
    });
    expect(asked.status).toBe(303);
    const location = asked.headers.get("Location")!;
    expect(location).toMatch(/^\/en\/ticket\/approve-permissions\/\d+$/);
    const duplicate = await page("/en/ticket/approve-permissions", admin, {
      user: String(ids.target),
      permission: "refund_paymenttransaction",
    });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain("A request for these rights is already waiting for approval.");
    const missing = await page("/en/ticket/approve-permissions", admin, { user: "", permission: "approve_operations" });
    expect(missing.status).toBe(400);

    const checker = await signIn("tk-checker");
    expect(await (await page("/en/ticket/approve-permissions?status=NEW", checker)).text()).toContain(
      `href="${location}"`,
    );
    const approved = await page(location, checker, { intent: "approve" });
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain("Request approved.");
    expect((await loadSessionUser(database.db, ids.target))!.permissions).toContain("refund_paymenttransaction");
    const stranger = await signIn(other.admin.username);
    expect((await page(location, stranger)).status).toBe(404);
  });
});

describe("the Operations service (API v1 plugins/c/oa)", () => {
  it("lists, describes, counts and shows the open task with its action URLs", async () => {
    const { transactionId, requestId } = await pendingRefund("1.500");
    const access = await token("tk-checker");
    const list = await api("plugins/c/oa/processes/operation/?state=pending&type=refund&per_page=50", access);
    expect(list.status).toBe(200);
    const body = (await list.json()) as {
      count: number;
      results: { id: number; status: string; amount: string; transaction: { id: string } }[];
    };
    expect(body.results.find((row) => row.id === requestId)).toMatchObject({
      status: "NEW",
      amount: "1.500",
      transaction: { id: transactionId },
    });
    const options = await api("plugins/c/oa/processes/operation/", access, { method: "OPTIONS" });
    expect(await options.json()).toMatchObject({
      filters_data: { types: [{ value: "refund" }, { value: "capture" }, { value: "void" }] },
    });
    const details = await (await api(`plugins/c/oa/processes/operation/${requestId}/`, access)).json();
    expect(details).toMatchObject({
      id: requestId,
      maker: { username: "tk-maker" },
      transaction: { customer_email: "buyer@example.com" },
    });
    const tasks = (await (
      await api(`plugins/c/oa/tasks/operation/?process_id=${requestId}&task_list=ACTIVE`, access)
    ).json()) as {
      count: number;
      results: { actions: { value: string; url: string }[] }[];
    };
    expect(tasks.count).toBe(1);
    expect(tasks.results[0].actions.map((action) => [action.value, action.url])).toEqual([
      ["approve", `/api/v1/plugins/c/oa/processes/operation/${requestId}/approve/`],
      ["reject", `/api/v1/plugins/c/oa/processes/operation/${requestId}/reject/`],
    ]);
    const counter = (await (await api("plugins/c/oa/counter", access)).json()) as { count: number };
    expect(counter.count).toBeGreaterThanOrEqual(1);
    const bad = await api(
      "plugins/c/oa/processes/operation/?created_after=2026-05-02&created_before=2026-05-01",
      access,
      { headers: { "Accept-Language": "ar" } },
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ created_before: ['لا يمكن أن يكون تاريخ "إلى" قبل تاريخ "من".'] });
  });

  it("approves once per Idempotency-Key and once under two concurrent posts", async () => {
    const first = await pendingRefund();
    const access = await token("tk-checker");
    const url = `plugins/c/oa/processes/operation/${first.requestId}/approve/`;
    const once = await api(url, access, { json: {}, headers: { "Idempotency-Key": "approve-1" } });
    expect(once.status).toBe(200);
    const answer = await once.json();
    const replay = await api(url, access, { json: {}, headers: { "Idempotency-Key": "approve-1" } });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.json()).toEqual(answer);
    expect(await succeededOperations(first.transactionId)).toBe(1);

    const second = await pendingRefund();
    const race = `plugins/c/oa/processes/operation/${second.requestId}/approve/`;
    const responses = await Promise.all([api(race, access, { json: {} }), api(race, access, { json: {} })]);
    expect(responses.map((response) => response.status).filter((status) => status === 200)).toHaveLength(1);
    expect(responses.map((response) => response.status).find((status) => status !== 200)).toBeOneOf([400, 409]);
    expect(await succeededOperations(second.transactionId)).toBe(1);
  });

  it("refuses the maker's own approval, staff, and another merchant, in the caller's language", async () => {
    const { requestId } = await pendingRefund();
    const maker = await token("tk-maker");
    const own = await api(`plugins/c/oa/processes/operation/${requestId}/approve/`, maker, {
      json: {},
      headers: { "Accept-Language": "ar" },
    });
    expect(own.status).toBe(403);
    expect(await own.json()).toMatchObject({ detail: "ليست لديك صلاحية لهذه العملية." });
    expect((await (await api(`plugins/c/oa/processes/operation/${requestId}/`, maker)).json()).actions).toEqual([
      {
        value: "cancel",
        display_name: "Cancel request",
        url: `/api/v1/plugins/c/oa/processes/operation/${requestId}/cancel/`,
      },
    ]);
    const staff = await token(shop.staff.username);
    expect((await api("plugins/c/oa/processes/operation/", staff)).status).toBe(403);
    const stranger = await token(other.admin.username);
    expect((await api(`plugins/c/oa/processes/operation/${requestId}/`, stranger)).status).toBe(404);
    expect((await api(`plugins/c/oa/processes/operation/${requestId}/approve/`, stranger, { json: {} })).status).toBe(
      404,
    );
    expect((await api(`plugins/c/oa/tasks/operation/?process_id=${requestId}`, stranger)).status).toBe(404);
    const strangerList = (await (await api("plugins/c/oa/processes/operation/", stranger)).json()) as { count: number };
    expect(strangerList.count).toBe(0);
    const canceled = await api(`plugins/c/oa/processes/operation/${requestId}/cancel/`, maker, { json: {} });
    expect(await canceled.json()).toMatchObject({ message: "Request canceled.", process: { status: "CANCELED" } });
  });
});

describe("the Permission request service (API v1 plugins/ticket/permission-requests)", () => {
  it("creates, lists, describes and approves a grant; refuses staff and another merchant", async () => {
    const admin = await token(shop.admin.username);
    const created = await api("plugins/ticket/permission-requests/", admin, {
      json: { user: ids.target, permission: "void_paymenttransaction" },
      headers: { "Idempotency-Key": "grant-void-1" },
    });
    expect(created.status).toBe(201);
    const request = (await created.json()) as { id: number; status: string };
    expect(request.status).toBe("NEW");
    const replay = await api("plugins/ticket/permission-requests/", admin, {
      json: { user: ids.target, permission: "void_paymenttransaction" },
      headers: { "Idempotency-Key": "grant-void-1" },
    });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const duplicate = await api("plugins/ticket/permission-requests/", admin, {
      json: { user: ids.target, permission: "void_paymenttransaction" },
    });
    expect(duplicate.status).toBe(409);
    const invalid = await api("plugins/ticket/permission-requests/", admin, {
      json: { user: ids.target, permission: "approve_operations" },
    });
    expect(await invalid.json()).toEqual({ permission: ["Choose Refund or Void rights."] });

    const checker = await token("tk-checker");
    const list = (await (await api("plugins/ticket/permission-requests/?status=NEW&limit=100", checker)).json()) as {
      results: { id: number }[];
    };
    expect(list.results.map((row) => row.id)).toContain(request.id);
    const options = await (await api("plugins/ticket/permission-requests/", checker, { method: "OPTIONS" })).json();
    expect(options).toMatchObject({
      actions: {
        POST: {
          permission: { choices: [{ value: "refund_paymenttransaction" }, { value: "void_paymenttransaction" }] },
        },
      },
    });
    expect(await (await api(`plugins/ticket/permission-requests/${request.id}/`, checker)).json()).toMatchObject({
      id: request.id,
      user: { username: "tk-target" },
      requested_by: { username: shop.admin.username },
    });

    const staff = await token(shop.staff.username);
    expect((await api(`plugins/ticket/permission-requests/${request.id}/approve/`, staff, { json: {} })).status).toBe(
      403,
    );
    const stranger = await token(other.admin.username);
    expect((await api(`plugins/ticket/permission-requests/${request.id}/`, stranger)).status).toBe(404);
    expect(
      (await api(`plugins/ticket/permission-requests/${request.id}/approve/`, stranger, { json: {} })).status,
    ).toBe(404);

    const approved = await api(`plugins/ticket/permission-requests/${request.id}/approve/`, checker, { json: {} });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ message: "Request approved.", request: { status: "APPROVED" } });
    expect((await loadSessionUser(database.db, ids.target))!.permissions).toContain("void_paymenttransaction");
  });
});

describe("a maker's reason and the confirmation before money moves", () => {
  it("takes the refund with its reason through the details page's dialog without JavaScript; the checker sees paid, refunded and the reason", async () => {
    const { id, orderNo } = await payByCard(database.db, server.url, {
      merchantId: shop.merchantId,
      user: shop.admin,
      amount: "10.000",
    });
    const maker = await signIn("tk-maker");
    const path = `/en/transactions/${id}?operation=refund`;
    // The first step checks the amount; an amount above what is available keeps the error, a good one clears it.
    const above = await page(path, maker, {
      intent: "operation",
      id,
      kind: "refund",
      step: "review",
      amount: "99.000",
    });
    expect(above.status).toBe(400);
    expect(await above.text()).toContain("The amount cannot be greater than the available amount.");
    const review = await page(path, maker, {
      intent: "operation",
      id,
      kind: "refund",
      step: "review",
      amount: "3.000",
    });
    expect(review.status).toBe(200);
    const reviewHtml = await review.text();
    expect(reviewHtml).not.toContain("The amount cannot be greater than the available amount.");
    expect(reviewHtml).toMatch(/Amount to refund<\/th><td[^>]*><span dir="ltr">KWD.3\.000/);
    expect(reviewHtml).toContain("buyer@example.com");
    expect(reviewHtml).toMatch(new RegExp(`#(<!-- -->)?${orderNo}<`));
    expect(reviewHtml).toContain('name="reason"');
    const sent = await page(path, maker, {
      intent: "operation",
      id,
      kind: "refund",
      step: "confirm",
      amount: "3.000",
      reason: "Damaged on delivery",
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toContain("done=requested");
    const request = await database.db
      .selectFrom("operation_requests")
      .select(["id", "note", "amount"])
      .where("transaction_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ note: "Damaged on delivery", amount: 3000 });

    const checker = await signIn("tk-checker");
    const requestPath = `/en/ticket/approve-refund-void/${request.id}`;
    for (const html of [
      await (await page(requestPath, checker)).text(),
      await (await page(`${requestPath}?confirm=approve`, checker)).text(),
    ]) {
      expect(html).toContain("Damaged on delivery");
      expect(html).toMatch(/Paid<\/th><td[^>]*><span dir="ltr">KWD.10\.\d{3}/);
      expect(html).toMatch(/Already refunded<\/th><td[^>]*><span dir="ltr">KWD.0\.000/);
    }
    const arabic = await (await page(`/ar/ticket/approve-refund-void/${request.id}?confirm=approve`, checker)).text();
    expect(arabic).toContain("سبب مقدّم الطلب");
    expect(arabic).toContain("نعم، اعتمد");
    expect(await succeededOperations(id)).toBe(0);
    expect((await page(requestPath, checker, { intent: "approve", confirmed: "yes" })).status).toBe(200);
    expect(await succeededOperations(id)).toBe(1);
    const trail = await database.db
      .selectFrom("audit_log")
      .select("description")
      .where("object_id", "=", id)
      .where("action", "=", "operation_reason")
      .execute();
    expect(trail.map((row) => row.description)).toEqual([expect.stringContaining("Damaged on delivery")]);
  });
});

describe("expiry", () => {
  it("shows a request past its 48 hours as expired and no longer approvable", async () => {
    const { transactionId, requestId } = await pendingRefund();
    // Moves the server's clock (it cannot be moved back: this test comes last).
    await fetch(`${server.url}/__test/clock`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ ms: 48 * 3600_000 + 60_000 }),
    });
    const access = await token("tk-checker");
    const details = (await (await api(`plugins/c/oa/processes/operation/${requestId}/`, access)).json()) as {
      status: string;
      actions: unknown[];
    };
    expect(details).toMatchObject({ status: "EXPIRED", actions: [] });
    const approve = await api(`plugins/c/oa/processes/operation/${requestId}/approve/`, access, { json: {} });
    expect(approve.status).toBe(400);
    expect(await succeededOperations(transactionId)).toBe(0);
  });
});
