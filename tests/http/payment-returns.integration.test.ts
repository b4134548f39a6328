import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { sessionCookieFrom } from "../support/http-app";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { writeTransaction } from "~/db/database.server";
import {
  decideOperationRequest,
  PLATFORM_ACTOR,
  requestOperation,
  reserveOperation,
} from "~/domain/payments/operations.server";
import { returnPayment, runPaymentReturn } from "~/domain/payments/returns.server";
import { nowIso, resetClock } from "~/lib/clock.server";
import { runReadyJobs } from "~/lib/jobs.server";
import { publicPayView } from "~/presentation/public-pay-view.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { CheckoutSchema } from "~/sections/food-ordering/domain/checkout-schema";
import { placeOrder } from "~/sections/food-ordering/domain/checkout.server";
import { cancelOrder } from "~/sections/food-ordering/domain/orders.server";
import { BookingSchema } from "~/sections/event/domain/booking-schema";
import { cancelBooking, createBooking } from "~/sections/event/domain/bookings.server";

/**
 * Money that should not have been taken goes back by itself: a payment that lands on a food order or
 * an event booking staff canceled while the customer was at the gateway, and a second payment of a
 * transaction already paid (two tabs), are refunded through the operations core, once, with the
 * customer told on the result page and by mail; through the KNET and the Mastercard Gateway sandboxes.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const noRedirect = { redirect: "manual" as const };
const form = { "Content-Type": "application/x-www-form-urlencoded" };
const KNET_CARD = "8888880000000001";

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Returns");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
});

afterEach(() => resetClock());

afterAll(async () => {
  await server?.close();
  await database?.destroy();
  vi.restoreAllMocks();
});

const addresses = () => ({ publicBaseUrl: server.url, internalBaseUrl: server.url });
const staff = () => ({ ...shop.admin, is_superuser: 1, permissions: [] });

async function payNow(transactionId: string, gatewayCode: string, lang = "en") {
  const response = await fetch(`${server.url}/${lang}/pay/${transactionId}`, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams({ gateway_code: gatewayCode, submission_token: `${transactionId}-${Math.random()}` }),
    ...noRedirect,
  });
  expect(response.status).toBe(303);
  const attempt = await database.db
    .selectFrom("payment_attempts")
    .select(["id", "track_id", "total"])
    .where("transaction_id", "=", transactionId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return { gatewayUrl: response.headers.get("Location")!, attempt };
}

/** The customer at KNET: the payment page opened, then the card submitted; answers where KNET sends the browser. */
async function openKnetTab(gatewayUrl: string) {
  const init = await fetch(gatewayUrl, noRedirect);
  expect(init.status).toBe(303);
  return new URL(init.headers.get("Location")!, gatewayUrl).toString();
}

async function payOnKnetTab(pageUrl: string) {
  const submitted = await fetch(pageUrl, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams({ intent: "submit", cardNumber: KNET_CARD, pin: "1234" }),
    ...noRedirect,
  });
  expect(submitted.status).toBe(303);
  return submitted.headers.get("Location")!;
}

/** The customer on the Mastercard Gateway's page: the test card, then back to the platform, which asks the gateway. */
async function payByCard(gatewayUrl: string) {
  const paid = await fetch(gatewayUrl, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
    ...noRedirect,
  });
  expect(paid.status).toBe(303);
  const returned = await fetch(new URL(paid.headers.get("Location")!, server.url), noRedirect);
  expect(returned.status).toBe(303);
  return returned.headers.get("Location")!;
}

async function operationsOf(transactionId: string) {
  return database.db
    .selectFrom("transaction_operations")
    .select(["kind", "amount", "state", "attempt_id", "requested_by"])
    .where("transaction_id", "=", transactionId)
    .orderBy("id")
    .execute();
}

async function transactionOf(id: string) {
  return database.db
    .selectFrom("transactions")
    .select(["state", "paid_attempt_id", "captured_amount", "refunded_amount"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

const mailsTo = (address: string) =>
  database.db
    .selectFrom("outgoing_mail")
    .select(["subject", "text_body"])
    .where("to_address", "=", address)
    .orderBy("id")
    .execute();

const knetRefunds = async () =>
  (await database.db.selectFrom("sandbox_knet_payments").select("payment_id").where("action", "=", "2").execute())
    .length;

let cookie: string | null = null;

/** The merchant's admin, signed in once for the file. */
async function signedIn() {
  if (cookie) return cookie;
  const response = await fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams({ intent: "login", username: shop.admin.username, password: DEMO_PASSWORD }),
    ...noRedirect,
  });
  cookie = sessionCookieFrom(response);
  if (!cookie) throw new Error(`Sign-in failed: HTTP ${response.status}`);
  return cookie;
}

async function pageText(url: string, options: { staff?: boolean } = {}) {
  const headers: Record<string, string> = options.staff ? { Cookie: await signedIn() } : {};
  const response = await fetch(new URL(url, server.url), { ...noRedirect, headers });
  expect(response.status).toBe(200);
  return response.text();
}

/** A branch open all day, a category and a dish with `quantity` portions. */
async function makeMenu() {
  const at = nowIso();
  const branch = await database.db
    .insertInto("food_branches")
    .values({
      merchant_id: shop.merchantId,
      name_en: "Salmiya",
      name_ar: "السالمية",
      min_order: 1000,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (let weekday = 1; weekday <= 7; weekday++)
    await database.db
      .insertInto("food_branch_hours")
      .values({ branch_id: branch.id, weekday, opens: "00:00", closes: "24:00" })
      .execute();
  const category = await database.db
    .insertInto("food_categories")
    .values({ merchant_id: shop.merchantId, name_en: "Grills", name_ar: "مشويات", created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  const item = await database.db
    .insertInto("food_items")
    .values({
      merchant_id: shop.merchantId,
      category_id: category.id,
      name_en: "Mixed grill",
      name_ar: "مشاوي مشكلة",
      price: 4500,
      quantity: 10,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { branchId: branch.id, itemId: item.id };
}

describe("a food order staff canceled while the customer was at KNET", () => {
  it("stays canceled; its payment is refunded once in full, and the customer is told on the result page and by mail", async () => {
    const menu = await makeMenu();
    const placed = await placeOrder(database.db, {
      request: CheckoutSchema.parse({
        delivery_type: "pickup",
        branch: menu.branchId,
        customer_name: "Fatima",
        customer_phone: "51234567",
        customer_email: "fatima@example.com",
        gateway_code: "knet-sandbox",
        lines: [{ menu_item: menu.itemId, quantity: 2 }],
      }),
      lang: "en",
      baseUrl: server.url,
      addresses: addresses(),
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const { transaction_id } = await database.db
      .selectFrom("food_orders")
      .select("transaction_id")
      .where("id", "=", placed.order.id)
      .executeTakeFirstOrThrow();
    const transactionId = transaction_id!;
    const { gatewayUrl, attempt } = await payNow(transactionId, "knet-sandbox");
    const tab = await openKnetTab(gatewayUrl);

    const canceled = await cancelOrder(database.db, {
      merchantId: shop.merchantId,
      actor: staff(),
      id: placed.order.id,
      addresses: addresses(),
    });
    expect(canceled).toMatchObject({ ok: true, refunds: [] });
    const refundsBefore = await knetRefunds();

    // KNET's server posts the capture; the customer's browser is sent to the result page.
    const resultUrl = await payOnKnetTab(tab);
    expect(resultUrl).toBe(`${server.url}/en/pay/attempt-detail/${attempt.id}`);
    const order = await database.db
      .selectFrom("food_orders")
      .select("status")
      .where("id", "=", placed.order.id)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("canceled");
    const flagged = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_type", "=", "food_order")
      .where("object_id", "=", String(placed.order.id))
      .execute();
    expect(flagged.map((entry) => entry.action)).toContain("food_order_paid_after_cancel");

    const page = await pageText(resultUrl);
    expect(page).toContain("Your payment is being returned");
    expect(page).toContain("The order was canceled before your payment arrived.");
    expect(page).not.toContain("Your payment was successful");
    const mails = await mailsTo("fatima@example.com");
    const notice = mails.filter((mail) => mail.subject.includes("is being returned"));
    expect(notice).toHaveLength(1);
    expect(notice[0].text_body).toContain("the order was canceled before the payment arrived");

    await runReadyJobs(database.db);
    expect(await operationsOf(transactionId)).toEqual([
      { kind: "refund", amount: attempt.total, state: "succeeded", attempt_id: attempt.id, requested_by: null },
    ]);
    expect(await knetRefunds()).toBe(refundsBefore + 1);
    expect(await transactionOf(transactionId)).toMatchObject({ state: "refunded", refunded_amount: attempt.total });
    expect(
      (
        await database.db
          .selectFrom("food_orders")
          .select("status")
          .where("id", "=", placed.order.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("canceled");

    // The job run again (a retry after a crash) and the payment heard again give nothing back twice.
    await runPaymentReturn(database.db, { attemptId: attempt.id }, addresses());
    expect(
      await writeTransaction(database.db, (trx) =>
        returnPayment(trx, { attemptId: attempt.id, reason: "order_canceled" }),
      ),
    ).toBe(false);
    await runReadyJobs(database.db);
    expect(await operationsOf(transactionId)).toHaveLength(1);
    expect(await knetRefunds()).toBe(refundsBefore + 1);
    expect(
      (await mailsTo("fatima@example.com")).filter((mail) => mail.subject.includes("is being returned")),
    ).toHaveLength(1);

    expect(await pageText(resultUrl)).toContain("Your payment has been returned");
    expect(await pageText(`/en/pay/${transactionId}`)).toContain("This payment has been returned");
    const view = await publicPayView(database.db, transactionId, "en", PAYABLE_SECTIONS);
    expect(view.ok && view.body).toMatchObject({ details: { title: "This payment has been returned" } });
    // The merchant sees it on the order and on its transaction.
    for (const page of [
      `/en/food-ordering/orders/${placed.order.id}`,
      `/en/food-ordering/transactions/${transactionId}`,
    ]) {
      const text = await pageText(page, { staff: true });
      expect(text).toContain("Payment given back by itself");
      expect(text).toContain("the order was canceled before the payment arrived");
      expect(text).toContain("Given back to the customer");
    }
  });
});

describe("an event booking staff canceled while the customer was at the Mastercard Gateway", () => {
  it("stays canceled and its card payment is refunded once in full", async () => {
    const at = nowIso();
    const event = await database.db
      .insertInto("events")
      .values({
        merchant_id: shop.merchantId,
        slug: `concert-${Math.random().toString(36).slice(2, 8)}`,
        title_en: "Winter Concert",
        title_ar: "حفل الشتاء",
        currency_code: "KWD",
        is_free: 0,
        status: "published",
        gateway_codes: "mpgs-sandbox",
        hold_minutes: 15,
        max_per_booking: 10,
        created_at: at,
        updated_at: at,
      })
      .returning(["id", "slug"])
      .executeTakeFirstOrThrow();
    const ticket = await database.db
      .insertInto("event_tickets")
      .values({
        merchant_id: shop.merchantId,
        event_id: event.id,
        name_en: "Standard",
        name_ar: "عادي",
        price: 5000,
        start_time: "18:00",
        end_time: "22:00",
        quantity: 10,
        position: 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto("event_ticket_dates")
      .values({
        merchant_id: shop.merchantId,
        event_id: event.id,
        ticket_id: ticket.id,
        event_date: "2099-12-20",
        quantity: 10,
      })
      .execute();
    const booked = await createBooking(database.db, {
      request: BookingSchema.parse({
        event: event.slug,
        ticket: ticket.id,
        event_date: "2099-12-20",
        quantity: 2,
        email: "sara@example.com",
        customer_first_name: "Sara",
      }),
      lang: "ar",
      baseUrl: server.url,
    });
    if (!booked.ok) throw new Error("the booking was refused");
    const item = await database.db
      .selectFrom("booking_items")
      .select(["id", "transaction_id"])
      .where("booking_id", "=", booked.booking.id)
      .executeTakeFirstOrThrow();
    const transactionId = item.transaction_id!;
    const { gatewayUrl, attempt } = await payNow(transactionId, "mpgs-sandbox", "ar");
    const canceled = await cancelBooking(database.db, {
      merchantId: shop.merchantId,
      actor: staff(),
      id: booked.booking.id,
      addresses: addresses(),
    });
    expect(canceled).toMatchObject({ ok: true, refunds: [] });

    const resultUrl = await payByCard(gatewayUrl);
    expect(await transactionOf(transactionId)).toMatchObject({ state: "paid", paid_attempt_id: attempt.id });
    const flagged = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_type", "=", "booking")
      .where("object_id", "=", String(booked.booking.id))
      .execute();
    expect(flagged.map((row) => row.action)).toContain("booking_paid_after_cancel");
    // The customer paid in Arabic: the result page and the mail are in Arabic.
    expect(await pageText(resultUrl)).toContain("تُعاد دفعتك إليك");
    const mails = await mailsTo("sara@example.com");
    expect(mails.filter((mail) => mail.subject.includes("تُعاد إليك"))).toHaveLength(1);

    await runReadyJobs(database.db);
    await runPaymentReturn(database.db, { attemptId: attempt.id }, addresses());
    expect(await operationsOf(transactionId)).toEqual([
      { kind: "refund", amount: attempt.total, state: "succeeded", attempt_id: attempt.id, requested_by: null },
    ]);
    const gateway = await database.db
      .selectFrom("sandbox_mpgs_orders")
      .select(["status", "total_refunded"])
      .where("order_id", "=", attempt.track_id)
      .executeTakeFirstOrThrow();
    expect(gateway).toEqual({ status: "REFUNDED", total_refunded: attempt.total });
    const items = await database.db
      .selectFrom("booking_items")
      .select(["status", "note"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(items).toEqual({ status: "cancel", note: "paid_after_cancel" });
    const bookingPage = await pageText(`/en/event/bookings/${booked.booking.id}`, { staff: true });
    expect(bookingPage).toContain("Payment given back by itself");
    expect(bookingPage).toContain("Given back to the customer");
  });
});

/** Runs the body with the merchant's operations approval on (maker-checker), and turns it off after. */
async function withOperationsApproval(body: () => Promise<void>) {
  const set = (value: number) =>
    database.db
      .updateTable("merchants")
      .set({ operations_approval: value })
      .where("id", "=", shop.merchantId)
      .execute();
  await set(1);
  try {
    await body();
  } finally {
    await set(0);
  }
}

async function newRequest(amount: string, email: string, pgCodes = "knet-sandbox,mpgs-sandbox") {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount, pg_codes: pgCodes, customer_email: email }),
    baseUrl: server.url,
    lang: "en",
  });
  if (!created.ok) throw new Error("could not create");
  return created.transaction.id;
}

describe("one transaction paid in two tabs", () => {
  it("keeps the first payment and refunds the second by itself, once", async () => {
    const id = await newRequest("3.500", "twice@example.com");
    const first = await payNow(id, "knet-sandbox");
    const second = await payNow(id, "mpgs-sandbox");
    const firstResult = await payOnKnetTab(await openKnetTab(first.gatewayUrl));
    const secondResult = await payByCard(second.gatewayUrl);
    expect(await transactionOf(id)).toMatchObject({ state: "paid", paid_attempt_id: first.attempt.id });

    expect(await pageText(secondResult)).toContain("This order had already been paid");
    const firstPage = await pageText(firstResult);
    expect(firstPage).toContain("Your payment was successful");
    expect(firstPage).not.toContain("being returned");
    expect(await pageText(`/en/pay/${id}`)).toContain("This request has been paid");

    await runReadyJobs(database.db);
    await runPaymentReturn(database.db, { attemptId: second.attempt.id }, addresses());
    expect(await operationsOf(id)).toEqual([
      {
        kind: "refund",
        amount: second.attempt.total,
        state: "succeeded",
        attempt_id: second.attempt.id,
        requested_by: null,
      },
    ]);
    expect(await transactionOf(id)).toMatchObject({
      state: "paid",
      paid_attempt_id: first.attempt.id,
      captured_amount: 3500,
      refunded_amount: 0,
    });
    const gateway = await database.db
      .selectFrom("sandbox_mpgs_orders")
      .select(["status", "total_refunded"])
      .where("order_id", "=", second.attempt.track_id)
      .executeTakeFirstOrThrow();
    expect(gateway).toEqual({ status: "REFUNDED", total_refunded: second.attempt.total });
    expect(await pageText(secondResult)).toContain("Your payment has been returned");
    const details = await pageText(`/en/payment-request/transactions/${id}`, { staff: true });
    expect(details).toContain("the order had already been paid");
    expect(details).toContain("Given back to the customer");
  });

  it("voids a second payment that is only an authorization (the card gateway capturing by hand)", async () => {
    const gateway = database.db
      .updateTable("gateways")
      .where("merchant_id", "=", shop.merchantId)
      .where("code", "=", "mpgs-sandbox");
    await gateway.set({ capture_mode: "manual" }).execute();
    try {
      const id = await newRequest("4.125", "authorized@example.com");
      const first = await payNow(id, "knet-sandbox");
      const second = await payNow(id, "mpgs-sandbox");
      await fetch(await payOnKnetTab(await openKnetTab(first.gatewayUrl)), noRedirect);
      await payByCard(second.gatewayUrl);
      await runReadyJobs(database.db);
      expect(await operationsOf(id)).toEqual([
        {
          kind: "void",
          amount: second.attempt.total,
          state: "succeeded",
          attempt_id: second.attempt.id,
          requested_by: null,
        },
      ]);
      expect(await transactionOf(id)).toMatchObject({ state: "paid", paid_attempt_id: first.attempt.id });
      const order = await database.db
        .selectFrom("sandbox_mpgs_orders")
        .select(["status", "total_captured"])
        .where("order_id", "=", second.attempt.track_id)
        .executeTakeFirstOrThrow();
      expect(order).toEqual({ status: "CANCELLED", total_captured: 0 });
    } finally {
      await gateway.set({ capture_mode: "auto" }).execute();
    }
  });

  it("refunds once when the job dies after reserving the refund and runs again", async () => {
    const id = await newRequest("2.250", "crash@example.com");
    const first = await payNow(id, "mpgs-sandbox");
    const second = await payNow(id, "knet-sandbox");
    await payByCard(first.gatewayUrl);
    await fetch(await payOnKnetTab(await openKnetTab(second.gatewayUrl)), noRedirect);
    const refundsBefore = await knetRefunds();
    const pending = await database.db
      .selectFrom("payment_returns")
      .select(["reference", "kind"])
      .where("attempt_id", "=", second.attempt.id)
      .executeTakeFirstOrThrow();
    // The first run reserved the refund under the return's reference, then its process died.
    const reserved = await writeTransaction(database.db, (trx) =>
      reserveOperation(trx, {
        merchantId: shop.merchantId,
        actor: PLATFORM_ACTOR,
        transactionId: id,
        kind: pending.kind,
        attemptId: second.attempt.id,
        reference: pending.reference,
        requestId: null,
      }),
    );
    expect(reserved.ok).toBe(true);
    await runReadyJobs(database.db);
    await runPaymentReturn(database.db, { attemptId: second.attempt.id }, addresses());
    expect(await operationsOf(id)).toEqual([
      {
        kind: "refund",
        amount: second.attempt.total,
        state: "succeeded",
        attempt_id: second.attempt.id,
        requested_by: null,
      },
    ]);
    expect(await knetRefunds()).toBe(refundsBefore + 1);
  });

  it("leaves to staff a card payment that completes after cash on delivery was chosen: it is the only money taken", async () => {
    const id = await newRequest("1.250", "cash@example.com", "mpgs-sandbox,cod");
    const card = await payNow(id, "mpgs-sandbox");
    await payNow(id, "cod");
    expect(await transactionOf(id)).toMatchObject({ state: "cod" });
    await payByCard(card.gatewayUrl);
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select("state")
      .where("id", "=", card.attempt.id)
      .executeTakeFirstOrThrow();
    expect(attempt.state).toBe("success");
    const returns = await database.db
      .selectFrom("payment_returns")
      .select("attempt_id")
      .where("transaction_id", "=", id)
      .execute();
    expect(returns).toEqual([]);
    await runReadyJobs(database.db);
    expect(await operationsOf(id)).toEqual([]);
  });

  it("asks again later, refusing nothing, while another request of the transaction waits for a checker", async () => {
    await withOperationsApproval(async () => {
      const id = await newRequest("2.250", "waiting@example.com");
      const first = await payNow(id, "knet-sandbox");
      const second = await payNow(id, "mpgs-sandbox");
      await fetch(await payOnKnetTab(await openKnetTab(first.gatewayUrl)), noRedirect);
      // A refund of the first payment already waits for a checker: one request per transaction at a time.
      const waiting = await requestOperation(database.db, {
        merchantId: shop.merchantId,
        actor: PLATFORM_ACTOR,
        transactionId: id,
        kind: "refund",
        attemptId: first.attempt.id,
        addresses: addresses(),
      });
      expect(waiting.ok).toBe(true);
      await payByCard(second.gatewayUrl);
      const before = nowIso();
      await runPaymentReturn(database.db, { attemptId: second.attempt.id }, addresses());
      const kept = await database.db
        .selectFrom("payment_returns")
        .select(["refusal", "request_id"])
        .where("attempt_id", "=", second.attempt.id)
        .executeTakeFirstOrThrow();
      expect(kept).toEqual({ refusal: null, request_id: null });
      const again = await database.db
        .selectFrom("jobs")
        .select(["run_at", "payload"])
        .where("type", "=", "return_payment")
        .where("status", "=", "queued")
        .where("run_at", ">", before)
        .execute();
      expect(again.map((job) => JSON.parse(job.payload))).toContainEqual({ attemptId: second.attempt.id });
    });
  });

  it("waits for the merchant's checker when operations approval is on", async () => {
    await withOperationsApproval(async () => {
      const id = await newRequest("1.750", "checked@example.com");
      const first = await payNow(id, "knet-sandbox");
      const second = await payNow(id, "mpgs-sandbox");
      await fetch(await payOnKnetTab(await openKnetTab(first.gatewayUrl)), noRedirect);
      const secondResult = await payByCard(second.gatewayUrl);
      await runReadyJobs(database.db);
      await runPaymentReturn(database.db, { attemptId: second.attempt.id }, addresses());
      const requests = await database.db
        .selectFrom("operation_requests")
        .select(["id", "kind", "amount", "state", "maker_id", "attempt_id"])
        .where("transaction_id", "=", id)
        .execute();
      expect(requests).toEqual([
        {
          id: expect.any(Number),
          kind: "refund",
          amount: second.attempt.total,
          state: "pending",
          maker_id: null,
          attempt_id: second.attempt.id,
        },
      ]);
      expect(await operationsOf(id)).toEqual([]);
      expect(await pageText(secondResult)).toContain("Your payment is being returned");
      expect(await pageText(`/en/payment-request/transactions/${id}`, { staff: true })).toContain(
        "Waiting for a checker&#x27;s approval to give it back",
      );

      // The checker reads who asked for it: the platform, not a user.
      expect(await pageText(`/en/ticket/approve-refund-void/${requests[0].id}`, { staff: true })).toContain(
        "The platform (a payment to give back)",
      );
      const approved = await decideOperationRequest(database.db, {
        merchantId: shop.merchantId,
        actor: { ...staff(), username: shop.admin.username },
        requestId: requests[0].id,
        decision: "approve",
        addresses: addresses(),
      });
      expect(approved.ok).toBe(true);
      await runPaymentReturn(database.db, { attemptId: second.attempt.id }, addresses());
      expect(await operationsOf(id)).toEqual([
        {
          kind: "refund",
          amount: second.attempt.total,
          state: "succeeded",
          attempt_id: second.attempt.id,
          requested_by: shop.admin.id,
        },
      ]);
      expect(await pageText(secondResult)).toContain("Your payment has been returned");
    });
  });
});
