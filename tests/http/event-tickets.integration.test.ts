import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";
import { bookPlaces, insertTicketedEvent } from "../support/event-fixtures-tickets";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/** A customer's tickets: the page their booking e-mail links to, its PDF, the mail's attachment, and the result page's Ticket button. */
let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Tix");
  other = await seedMerchant(database.db, "Elsewhere");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

const pageCount = (pdf: ArrayBuffer) =>
  Buffer.from(pdf)
    .toString("latin1")
    .match(/\/Type \/Page\b/g)?.length ?? 0;

function numbersOf(bookingId: number) {
  return database.db
    .selectFrom("booking_members")
    .select("number")
    .where("booking_id", "=", bookingId)
    .orderBy("position")
    .execute();
}

describe("the customer's tickets page", () => {
  it("shows each paid place's QR code and number, and links the PDF", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, event, { quantity: 2 });
    const response = await app.request(`/en/events/tickets/${booking.id}/${booking.uuid}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Winter Concert");
    expect(html).toContain("18:00–22:00");
    expect(html).toContain("Place 1 of 2");
    expect(html).toContain("Place 2 of 2");
    for (const { number } of await numbersOf(booking.id)) expect(html).toContain(number);
    expect(html.match(/<img[^>]+src="data:image\/svg\+xml;base64,/g)).toHaveLength(2);
    expect(html).toContain(`href="/en/events/tickets/${booking.id}/${booking.uuid}/tickets.pdf"`);
    expect(html).toContain("Download tickets");
    // A customer page: served without the app's scripts.
    expect(html).not.toMatch(/<script[^>]+type="module"/);
  });

  it("reads right to left in Arabic", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, event, { quantity: 1, lang: "ar" });
    const html = await (await app.request(`/ar/events/tickets/${booking.id}/${booking.uuid}`)).text();
    expect(html).toMatch(/<html[^>]+dir="rtl"/);
    expect(html).toContain("حفل الشتاء");
    expect(html).toContain("المقعد 1 من 1");
    expect(html).toContain("تنزيل التذاكر");
  });

  it("answers 404 for a wrong uuid or another booking's", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const first = await bookPlaces(database.db, event, { quantity: 1 });
    const second = await bookPlaces(database.db, event, { quantity: 1 });
    expect((await app.request(`/en/events/tickets/${first.id}/${first.uuid.slice(0, -2)}xx`)).status).toBe(404);
    expect((await app.request(`/en/events/tickets/${first.id}/${second.uuid}`)).status).toBe(404);
    expect((await app.request(`/en/events/tickets/${first.id}/${second.uuid}/tickets.pdf`)).status).toBe(404);
  });

  it("downloads the tickets as a PDF of one page per place", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, event, { quantity: 3 });
    const response = await app.request(`/en/events/tickets/${booking.id}/${booking.uuid}/tickets.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(
      new RegExp(`^attachment; filename="tickets-${booking.id}\\.pdf"`),
    );
    expect(pageCount(await response.arrayBuffer())).toBe(3);
  });

  it("says which places still wait for payment, with the link to pay them", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: false });
    const booking = await bookPlaces(database.db, event, { quantity: 2 });
    const item = await database.db
      .selectFrom("booking_items")
      .select("transaction_id")
      .where("booking_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    const html = await (await app.request(`/en/events/tickets/${booking.id}/${booking.uuid}`)).text();
    expect(html).toContain("Places waiting for payment: 2");
    expect(html).toContain(`href="/en/pay/${item.transaction_id}"`);
    expect(html).not.toContain("tickets.pdf");
    expect((await app.request(`/en/events/tickets/${booking.id}/${booking.uuid}/tickets.pdf`)).status).toBe(404);
  });
});

describe("the booking mail's tickets in the mailbox", () => {
  it("lists the tickets attachment and downloads it as the PDF, for the merchant's staff only", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, event, { quantity: 2, email: "mailbox-guest@example.com" });
    const mail = await database.db
      .selectFrom("outgoing_mail")
      .select("id")
      .where("to_address", "=", "mailbox-guest@example.com")
      .executeTakeFirstOrThrow();
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const page = await (await app.request(`/en/mailbox/${mail.id}`, { cookie })).text();
    expect(page).toContain(`tickets-${booking.id}.pdf`);
    expect(page).toContain(`href="/en/mailbox/${mail.id}/attachments/0"`);
    const file = await app.request(`/en/mailbox/${mail.id}/attachments/0`, { cookie });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("application/pdf");
    expect(pageCount(await file.arrayBuffer())).toBe(2);
    expect((await app.request(`/en/mailbox/${mail.id}/attachments/1`, { cookie })).status).toBe(404);
    const otherCookie = await app.signIn(other.admin.username, DEMO_PASSWORD);
    expect((await app.request(`/en/mailbox/${mail.id}/attachments/0`, { cookie: otherCookie })).status).toBe(404);
  });
});

describe("the result page of a paid booking", () => {
  it("shows the Ticket button once the payment confirmed the places, and the API answers tickets_url", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: false });
    const booking = await bookPlaces(database.db, event, { quantity: 1 });
    const { transaction_id: transactionId } = await database.db
      .selectFrom("booking_items")
      .select("transaction_id")
      .where("booking_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    const started = await startAttempt(database.db, {
      plugins: PAYABLE_SECTIONS,
      transactionId: transactionId!,
      gatewayCode: "knet-sandbox",
      submissionToken: "tickets",
      lang: "en",
      addresses,
    });
    if (!started.ok) throw new Error(started.error);
    const before = await (await app.request(`/api/v1/plugins/event/transaction/pay/${transactionId}`)).json();
    expect(before.tickets_url).toBeNull();
    const { total } = await database.db
      .selectFrom("payment_attempts")
      .select("total")
      .where("id", "=", started.attemptId)
      .executeTakeFirstOrThrow();
    await completeAttempt(database.db, started.attemptId, {
      status: "success",
      amount: total,
      refs: { paymentId: "P1", tranId: "T1" },
    });

    const ticketsPath = `/en/events/tickets/${booking.id}/${booking.uuid}`;
    const html = await (await app.request(`/en/pay/attempt-detail/${started.attemptId}`)).text();
    expect(html).toContain("Download tickets");
    expect(html).toContain(`href="${ticketsPath}"`);
    const after = await (await app.request(`/api/v1/plugins/event/transaction/pay/${transactionId}`)).json();
    expect(after.tickets_url).toBe(ticketsPath);

    const [{ number }] = await numbersOf(booking.id);
    expect(await (await app.request(ticketsPath)).text()).toContain(number);
  });
});
