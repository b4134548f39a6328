import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { payByCard } from "../../../tests/support/card-payment";
import { createUser, seedMerchant } from "../../../tests/support/fixtures";
import { startHttpServer, type TestHttpServer } from "../../../tests/support/http-server";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import type { Permission } from "~/domain/identity/permissions";
import { loadSessionUser, type SessionUser } from "~/domain/identity/users.server";
import { decideOperationRequest, requestOperation } from "~/domain/payments/operations.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { formatAmount } from "~/lib/money";
import { answerOf } from "~/web/outcomes.server";
import {
  countPendingOperationRequests,
  findOperationRequest,
  listOperationRequests,
  operationRequestDecisions,
} from "./operation-requests.server";
import {
  countPendingPermissionRequests,
  decidePermissionRequest,
  findPermissionRequest,
  listPermissionRequests,
  requestPermissionGrant,
} from "./permission-requests.server";
import { parseRequestQuery } from "./request-filters";

/**
 * Maker-checker on a real database, with operations going to the card sandbox over HTTP
 * (the app behind a real server, as in production).
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let admin: SessionUser;
let staff: SessionUser;
let checker: SessionUser;
let secondChecker: SessionUser;
let maker: SessionUser;
let otherAdmin: SessionUser;
let addresses: { publicBaseUrl: string; internalBaseUrl: string };

/** As the messages show amounts (Intl puts a no-break space after the code). */
const kwd = (minor: number) => formatAmount(minor, "KWD", "en");
const OPERATOR: Permission[] = [
  "view_paymenttransaction",
  "refund_paymenttransaction",
  "capture_paymenttransaction",
  "void_paymenttransaction",
];

async function addUser(merchantId: number, username: string, permissions: Permission[]) {
  const id = await createUser(database.db, merchantId, {
    username,
    email: `${username}@example.com`,
    firstName: "Test",
    lastName: "User",
    permissions,
  });
  return (await loadSessionUser(database.db, id))!;
}

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Oa");
  other = await seedMerchant(database.db, "Elsewhere");
  await database.db.updateTable("merchants").set({ operations_approval: 1 }).execute();
  admin = (await loadSessionUser(database.db, shop.admin.id))!;
  staff = (await loadSessionUser(database.db, shop.staff.id))!;
  otherAdmin = (await loadSessionUser(database.db, other.admin.id))!;
  checker = await addUser(shop.merchantId, "oa-checker", [
    ...OPERATOR,
    "approve_operations",
    "approve_permission_requests",
  ]);
  secondChecker = await addUser(shop.merchantId, "oa-checker-2", [
    ...OPERATOR,
    "approve_operations",
    "approve_permission_requests",
  ]);
  maker = await addUser(shop.merchantId, "oa-maker", OPERATOR);
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  addresses = { publicBaseUrl: server.url, internalBaseUrl: server.url };
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

afterEach(() => resetClock());

const paid = (amount = "10.000") =>
  payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount });

// The outcomes as the pages and the API answer them: a status and an English message.
async function ask(
  transactionId: string,
  actor: SessionUser = maker,
  kind: "refund" | "capture" | "void" = "refund",
  amount: string | null = "2.000",
) {
  return answerOf(
    await requestOperation(database.db, { merchantId: shop.merchantId, actor, transactionId, kind, amount, addresses }),
    "en",
  );
}

async function decide(
  requestId: number,
  actor: SessionUser,
  decision: "approve" | "reject" | "cancel",
  merchantId = shop.merchantId,
) {
  return answerOf(
    await decideOperationRequest(database.db, { merchantId, actor, requestId, decision, addresses }),
    "en",
  );
}

async function money(transactionId: string) {
  const transaction = await database.db
    .selectFrom("transactions")
    .select(["state", "refunded_amount"])
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  const operations = await database.db
    .selectFrom("transaction_operations")
    .select(["kind", "state", "amount", "approval_request_id"])
    .where("transaction_id", "=", transactionId)
    .execute();
  const ledger = await database.db
    .selectFrom("ledger_entries")
    .select("kind")
    .where("transaction_id", "=", transactionId)
    .where("kind", "=", "refund")
    .execute();
  return { ...transaction, operations, refunds: ledger.length };
}

describe("Operations Requests", () => {
  it("turns a maker's refund into a pending request that moves no money", async () => {
    const { id } = await paid();
    const outcome = await ask(id);
    expect(outcome).toMatchObject({
      ok: true,
      status: 201,
      message: `Your ${kwd(2000)} request is waiting for approval.`,
    });
    const requestId = outcome.ok ? outcome.requestId! : 0;
    expect(await money(id)).toMatchObject({ state: "paid", refunded_amount: 0, operations: [], refunds: 0 });
    const request = await findOperationRequest(database.db, shop.merchantId, checker, requestId);
    expect(request).toMatchObject({
      state: "pending",
      kind: "refund",
      amount: 2000,
      maker_name: "oa-maker",
      customer_email: "buyer@example.com",
    });
    expect(operationRequestDecisions(request!, checker)).toEqual(["approve", "reject"]);
    expect(operationRequestDecisions(request!, maker)).toEqual(["cancel"]);
    const audit = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_id", "=", id)
      .where("action", "=", "operation_requested")
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("executes once when the checker approves, and records who did what", async () => {
    const { id } = await paid();
    const outcome = await ask(id);
    const requestId = outcome.ok ? outcome.requestId! : 0;
    const approved = await decide(requestId, checker, "approve");
    expect(approved).toMatchObject({ ok: true, status: 200, message: `Refunded ${kwd(2000)}.` });
    const after = await money(id);
    expect(after.refunded_amount).toBe(2000);
    expect(after.operations).toEqual([
      { kind: "refund", state: "succeeded", amount: 2000, approval_request_id: requestId },
    ]);
    expect(after.refunds).toBe(1);
    const request = await findOperationRequest(database.db, shop.merchantId, checker, requestId);
    expect(request).toMatchObject({
      state: "approved",
      checker_name: "oa-checker",
      result_message: `Refunded ${kwd(2000)}.`,
    });
    const again = await decide(requestId, secondChecker, "approve");
    expect(again).toMatchObject({
      ok: false,
      status: 400,
      message: "This request has already been decided: Approved.",
    });
    expect((await money(id)).operations).toHaveLength(1);
    const actions = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name"])
      .where("object_id", "=", id)
      .orderBy("id")
      .execute();
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: "operation_requested", actor_name: "oa-maker" },
        { action: "operation_request_approved", actor_name: "oa-checker" },
        { action: "transaction_refund", actor_name: "oa-checker" },
      ]),
    );
  });

  it("executes once when two checkers approve at the same moment", async () => {
    const { id } = await paid();
    const outcome = await ask(id, maker, "refund", null);
    const requestId = outcome.ok ? outcome.requestId! : 0;
    const results = await Promise.all([
      decide(requestId, checker, "approve"),
      decide(requestId, secondChecker, "approve"),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ status: expect.any(Number) });
    const after = await money(id);
    expect(after.operations.filter((operation) => operation.state === "succeeded")).toHaveLength(1);
    expect(after.refunds).toBe(1);
    expect(after.state).toBe("refunded");
  });

  it("lets nobody approve their own request, and nobody without the right", async () => {
    const { id } = await paid();
    const outcome = await ask(id);
    const requestId = outcome.ok ? outcome.requestId! : 0;
    expect(await decide(requestId, maker, "approve")).toMatchObject({ ok: false, status: 403 });
    expect(await decide(requestId, staff, "reject")).toMatchObject({ ok: false, status: 403 });
    expect(await decide(requestId, staff, "cancel")).toMatchObject({ ok: false, status: 403 });
    // The maker becomes a checker later: still not for their own request.
    await database.db
      .insertInto("user_permissions")
      .values({ user_id: maker.id, permission: "approve_operations" })
      .execute();
    try {
      const promoted = (await loadSessionUser(database.db, maker.id))!;
      expect(await decide(requestId, promoted, "approve")).toMatchObject({
        ok: false,
        status: 403,
        message: "You cannot approve or reject your own request.",
      });
    } finally {
      await database.db
        .deleteFrom("user_permissions")
        .where("user_id", "=", maker.id)
        .where("permission", "=", "approve_operations")
        .execute();
    }
    expect((await money(id)).operations).toEqual([]);
    expect(await decide(requestId, maker, "cancel")).toMatchObject({ ok: true, message: "Request canceled." });
    expect((await findOperationRequest(database.db, shop.merchantId, maker, requestId))?.state).toBe("canceled");
  });

  it("refuses a second request while one is pending for the same transaction", async () => {
    const { id } = await paid();
    expect((await ask(id)).ok).toBe(true);
    expect(await ask(id, maker, "refund", "1.000")).toMatchObject({
      ok: false,
      status: 409,
      message: "A request for this transaction is already waiting for approval.",
    });
    // Two makers at the same moment: one request, one refusal.
    const fresh = (await paid()).id;
    const both = await Promise.all([ask(fresh), ask(fresh)]);
    expect(both.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(both.find((outcome) => !outcome.ok)).toMatchObject({ status: 409 });
  });

  it("lets a checker and a superuser execute directly", async () => {
    const { id } = await paid();
    expect(await ask(id, checker, "refund", "1.000")).toMatchObject({
      ok: true,
      status: 200,
      message: `Refunded ${kwd(1000)}.`,
    });
    expect(await ask(id, admin, "refund", "1.000")).toMatchObject({ ok: true, status: 200 });
    expect((await money(id)).refunds).toBe(2);
  });

  it("expires a pending request after the TTL (48 hours by default)", async () => {
    const { id } = await paid();
    const outcome = await ask(id);
    const requestId = outcome.ok ? outcome.requestId! : 0;
    advanceClock(47 * 3600_000);
    expect((await findOperationRequest(database.db, shop.merchantId, checker, requestId))?.state).toBe("pending");
    expect(await countPendingOperationRequests(database.db, shop.merchantId, checker)).toBeGreaterThanOrEqual(1);
    advanceClock(3600_000 + 1000);
    // Every request made before is now past its time; none counts as pending.
    expect(await countPendingOperationRequests(database.db, shop.merchantId, checker)).toBe(0);
    const { rows } = await listOperationRequests(database.db, {
      merchantId: shop.merchantId,
      viewer: checker,
      filters: { state: ["expired"] },
      page: 1,
      perPage: 100,
    });
    expect(rows.map((row) => row.id)).toContain(requestId);
    expect(await decide(requestId, checker, "approve")).toMatchObject({
      ok: false,
      status: 400,
      message: "This request has already been decided: Expired.",
    });
    expect((await money(id)).operations).toEqual([]);
    // Expired, it no longer blocks a new request.
    expect((await ask(id)).ok).toBe(true);
  });

  it("filters by state, type, date, gateway and currency, and shows a maker only their own", async () => {
    const query = (search: string) => parseRequestQuery(new URLSearchParams(search), ["refund", "capture", "void"]);
    const list = (search: string, viewer: SessionUser = checker) =>
      listOperationRequests(database.db, {
        merchantId: shop.merchantId,
        viewer,
        filters: query(search).filters,
        page: 1,
        perPage: 100,
      });
    const all = await list("");
    expect(all.count).toBeGreaterThan(0);
    expect((await list("state=pending")).rows.every((row) => row.state === "pending")).toBe(true);
    expect((await list("status=NEW")).rows.every((row) => row.state === "pending")).toBe(true);
    expect((await list("type=void")).count).toBe(0);
    expect((await list("type=refund")).count).toBe(all.count);
    expect((await list("gateway_code=mpgs-sandbox&currency_code=kwd")).count).toBe(all.count);
    expect((await list("gateway_code=knet-sandbox")).count).toBe(0);
    expect((await list("currency_code=USD")).count).toBe(0);
    expect((await list("created_after=2000-01-01&created_before=2000-01-02")).count).toBe(0);
    const kuwaitDay = (ms: number) => new Date(ms).toLocaleDateString("en-CA", { timeZone: "Asia/Kuwait" });
    expect((await list(`created_after=${kuwaitDay(Date.now())}`)).count).toBe(all.count);
    expect((await list(`created_before=${kuwaitDay(Date.now() - 86_400_000)}`)).count).toBe(0);
    expect(query("created_after=2026-05-02&created_before=2026-05-01").errors).toEqual({
      created_before: "tickets.errors.to_before_from",
    });
    const page = await listOperationRequests(database.db, {
      merchantId: shop.merchantId,
      viewer: checker,
      filters: {},
      page: 2,
      perPage: 2,
    });
    expect(page.rows).toHaveLength(Math.min(2, Math.max(0, all.count - 2)));
    const own = await list("", maker);
    expect(own.count).toBe(all.rows.filter((row) => row.maker_id === maker.id).length);
    const stranger = await addUser(shop.merchantId, "oa-other-maker", OPERATOR);
    expect((await list("", stranger)).count).toBe(0);
  });

  it("keeps another merchant's requests out of sight and out of reach", async () => {
    const { id } = await paid();
    const outcome = await ask(id);
    const requestId = outcome.ok ? outcome.requestId! : 0;
    expect(await findOperationRequest(database.db, other.merchantId, otherAdmin, requestId)).toBeUndefined();
    expect(
      (
        await listOperationRequests(database.db, {
          merchantId: other.merchantId,
          viewer: otherAdmin,
          filters: {},
          page: 1,
          perPage: 100,
        })
      ).count,
    ).toBe(0);
    expect(await decide(requestId, otherAdmin, "approve", other.merchantId)).toMatchObject({ ok: false, status: 404 });
    expect(await countPendingOperationRequests(database.db, other.merchantId, otherAdmin)).toBe(0);
    expect((await findOperationRequest(database.db, shop.merchantId, checker, requestId))?.state).toBe("pending");
  });
});

describe("Permissions Requests", () => {
  const grant = async (
    actor: SessionUser,
    userId: number,
    permission = "refund_paymenttransaction",
    merchantId = shop.merchantId,
  ) => answerOf(await requestPermissionGrant(database.db, { merchantId, actor, userId, permission, lang: "en" }), "en");
  const decidePermission = async (
    requestId: number,
    actor: SessionUser,
    decision: "approve" | "reject" | "cancel",
    merchantId = shop.merchantId,
  ) => answerOf(await decidePermissionRequest(database.db, { merchantId, actor, requestId, decision }), "en");
  const permissionsOf = async (userId: number) => (await loadSessionUser(database.db, userId))!.permissions;

  it("grants the rights once a checker approves, telling every checker first", async () => {
    const target = await addUser(shop.merchantId, "pr-target", ["view_paymenttransaction"]);
    const asked = await grant(admin, target.id);
    expect(asked).toMatchObject({ ok: true, status: 201 });
    const requestId = asked.ok ? asked.requestId! : 0;
    expect(await permissionsOf(target.id)).not.toContain("refund_paymenttransaction");
    const notices = await database.db
      .selectFrom("notifications")
      .select(["user_id", "title", "link"])
      .where("kind", "=", "permission_request")
      .where("link", "=", `/en/ticket/approve-permissions/${requestId}`)
      .orderBy("user_id")
      .execute();
    expect(notices.map((notice) => notice.user_id)).toEqual([checker.id, secondChecker.id]);
    expect(notices[0].title).toBe("New Permission Request");
    expect(await countPendingPermissionRequests(database.db, shop.merchantId)).toBeGreaterThanOrEqual(1);

    expect(await decidePermission(requestId, checker, "approve")).toMatchObject({
      ok: true,
      message: "Request approved.",
    });
    expect(await permissionsOf(target.id)).toContain("refund_paymenttransaction");
    expect(await findPermissionRequest(database.db, shop.merchantId, requestId)).toMatchObject({
      state: "approved",
      checker_name: "oa-checker",
    });
    const audit = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_type", "=", "user")
      .where("object_id", "=", String(target.id))
      .orderBy("id")
      .execute();
    expect(audit.map((row) => row.action)).toEqual(["permission_requested", "permission_request_approved"]);
  });

  it("approves at most once when two checkers decide together", async () => {
    const target = await addUser(shop.merchantId, "pr-race", []);
    const asked = await grant(admin, target.id, "void_paymenttransaction");
    const requestId = asked.ok ? asked.requestId! : 0;
    const results = await Promise.all([
      decidePermission(requestId, checker, "approve"),
      decidePermission(requestId, secondChecker, "approve"),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const rows = await database.db
      .selectFrom("user_permissions")
      .select("permission")
      .where("user_id", "=", target.id)
      .execute();
    expect(rows).toEqual([{ permission: "void_paymenttransaction" }]);
  });

  it("refuses staff, own requests, duplicates and unsuitable users", async () => {
    const target = await addUser(shop.merchantId, "pr-refused", []);
    expect(await grant(staff, target.id)).toMatchObject({ ok: false, status: 403 });
    expect(await grant(admin, target.id, "approve_operations")).toMatchObject({
      ok: false,
      status: 400,
      field: "permission",
    });
    expect(await grant(admin, shop.admin.id)).toMatchObject({ ok: false, status: 400, field: "user" });
    expect(await grant(admin, other.staff.id)).toMatchObject({ ok: false, status: 400, field: "user" });
    expect(await grant(admin, checker.id)).toMatchObject({
      ok: false,
      status: 400,
      key: "tickets.errors.already_granted",
    });
    const asked = await grant(checker, target.id);
    const requestId = asked.ok ? asked.requestId! : 0;
    expect(await grant(admin, target.id)).toMatchObject({ ok: false, status: 409 });
    expect(await decidePermission(requestId, staff, "approve")).toMatchObject({ ok: false, status: 403 });
    expect(await decidePermission(requestId, checker, "approve")).toMatchObject({
      ok: false,
      status: 403,
      message: expect.stringContaining("cannot approve"),
    });
    expect(await decidePermission(requestId, otherAdmin, "approve", other.merchantId)).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await findPermissionRequest(database.db, other.merchantId, requestId)).toBeUndefined();
    expect(
      (await listPermissionRequests(database.db, { merchantId: other.merchantId, filters: {}, limit: 100, offset: 0 }))
        .count,
    ).toBe(0);
    expect(await decidePermission(requestId, secondChecker, "reject")).toMatchObject({
      ok: true,
      message: "Request rejected.",
    });
    expect(await permissionsOf(target.id)).toEqual([]);
    expect(await decidePermission(requestId, admin, "approve")).toMatchObject({ ok: false, status: 400 });
  });

  it("filters by state, permission and date", async () => {
    const query = (search: string) =>
      parseRequestQuery(new URLSearchParams(search), ["refund_paymenttransaction", "void_paymenttransaction"]).filters;
    const list = async (search: string) =>
      (
        await listPermissionRequests(database.db, {
          merchantId: shop.merchantId,
          filters: query(search),
          limit: 100,
          offset: 0,
        })
      ).rows;
    const all = await list("");
    expect(all.length).toBeGreaterThan(2);
    expect((await list("status=NEW")).every((row) => row.state === "pending")).toBe(true);
    expect((await list("state=approved")).every((row) => row.state === "approved")).toBe(true);
    expect(
      (await list("type=void_paymenttransaction")).every((row) => row.permission === "void_paymenttransaction"),
    ).toBe(true);
    expect(await list("created_before=2000-01-01")).toEqual([]);
  });
});
