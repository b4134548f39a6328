import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestEvent } from "../support/event-fixtures-public";

// Customers find an event, register for it (free at once, paid through the pay page), with or
// without JavaScript; a busy on-sale lets them in through a waiting zone, in the order they came.

let database: TestDatabase;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  merchant = await seedMerchant(database.db, "Evt");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

const BOOKING = "/api/v1/plugins/event/booking";

const booking = (event: { slug: string; ticketId: number }, extra: Record<string, unknown> = {}) => ({
  event: event.slug,
  ticket: event.ticketId,
  event_date: "2030-12-20",
  quantity: 2,
  email: "guest@example.com",
  customer_first_name: "Sara",
  customer_last_name: "Ali",
  customer_phone: "+96550001234",
  extra: {},
  ...extra,
});

/** "name=value" of each cookie a response sets, joined as a browser would send them back. */
function cookiesFrom(response: Response, jar: Record<string, string> = {}) {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const at = pair.indexOf("=");
    jar[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return jar;
}
const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");

describe("the public events API", () => {
  it("books a free event at once, with one place per member", async () => {
    const event = await createTestEvent(database.db, { merchantId: merchant.merchantId, isFree: true });
    const response = await app.request(BOOKING, { json: booking(event), ip: "10.0.0.1" });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: number; uuid: string; state: string; checkout_url: string | null };
    expect(body.state).toBe("paid");
    expect(body.checkout_url).toBeNull();
    const members = await database.db
      .selectFrom("booking_members")
      .select("number")
      .where("booking_id", "=", body.id)
      .execute();
    expect(members).toHaveLength(2);

    const tickets = await app.request(`/api/v1/plugins/event/tickets_for_booking/${body.id}/uuid/${body.uuid}`);
    expect(tickets.status).toBe(200);
    const places = (await tickets.json()) as {
      tickets: { number: string; is_purchased: boolean; qr_code: string | null }[];
    };
    expect(places.tickets.map((place) => place.number).sort()).toEqual(members.map((member) => member.number).sort());
    expect(places.tickets.every((place) => place.is_purchased && place.qr_code?.startsWith("EVT1."))).toBe(true);
    expect((await app.request(`/api/v1/plugins/event/tickets_for_booking/${body.id}/uuid/not-the-uuid`)).status).toBe(
      404,
    );
  });

  it("holds a paid booking's places while the customer pays on the pay page", async () => {
    const event = await createTestEvent(database.db, { merchantId: merchant.merchantId, price: 5000 });
    const response = await app.request(BOOKING, {
      json: booking(event, { gateway_code: "knet-sandbox" }),
      ip: "10.0.0.2",
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { state: string; checkout_url: string };
    expect(body.state).toBe("pending");
    expect(body.checkout_url).toMatch(/\/en\/pay\/[0-9A-Za-z]{22}$/);
    const page = await app.request(new URL(body.checkout_url).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("10.000");
  });

  it("refuses more places than are left, saying how many are, in the caller's language", async () => {
    const event = await createTestEvent(database.db, { merchantId: merchant.merchantId, isFree: true, quantity: 3 });
    expect((await app.request(BOOKING, { json: booking(event), ip: "10.0.0.3" })).status).toBe(201);
    const short = await app.request(BOOKING, { json: booking(event), ip: "10.0.0.3" });
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ quantity: ["Only 1 places are left on this date."] });
    expect((await app.request(BOOKING, { json: booking(event, { quantity: 1 }), ip: "10.0.0.3" })).status).toBe(201);
    const soldOut = await app.request(`${BOOKING}?lang=ar`, { json: booking(event, { quantity: 1 }), ip: "10.0.0.3" });
    expect(soldOut.status).toBe(400);
    expect(await soldOut.json()).toEqual({ quantity: ["نفدت التذاكر: لم يتبق أي مقعد في هذا التاريخ."] });

    const list = await app.request("/api/v1/plugins/event/ticket/qty-list", { json: { event: event.slug } });
    const tickets = (await list.json()) as {
      id: number;
      remaining_qty_per_date: Record<string, { status: string; remaining_quantity: number }>;
    }[];
    expect(tickets[0].remaining_qty_per_date["2030-12-20"]).toEqual({ status: "soldOut", remaining_quantity: 0 });
  });

  it("refuses a date that has passed and offers only dates to come", async () => {
    const event = await createTestEvent(database.db, {
      merchantId: merchant.merchantId,
      isFree: true,
      dates: ["2020-01-05", "2030-12-20"],
    });
    const response = await app.request(BOOKING, { json: booking(event, { event_date: "2020-01-05" }), ip: "10.0.0.4" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ event_date: ["This date has passed; choose a later one."] });
    const details = (await (await app.request(`/api/v1/plugins/event/events/${event.slug}`)).json()) as {
      available_dates: string[];
      tickets: { dates: string[] }[];
    };
    expect(details.available_dates).toEqual(["2030-12-20"]);
    expect(details.tickets[0].dates).toEqual(["2020-01-05", "2030-12-20"]);
    const page = await (await app.request(`/en/events/register/${event.slug}`)).text();
    expect(page).not.toContain('value="2020-01-05"');
  });

  it("answers the registration form's fields, and lists published events only", async () => {
    const event = await createTestEvent(database.db, {
      merchantId: merchant.merchantId,
      fields: [{ name: "civil_id", label_en: "Civil ID", label_ar: "الرقم المدني", type: "text", required: true }],
    });
    const draft = await createTestEvent(database.db, { merchantId: merchant.merchantId, status: "draft" });
    const options = await app.request(`/api/v1/plugins/event/registration/${event.slug}`, { method: "OPTIONS" });
    expect(options.status).toBe(200);
    const form = (await options.json()) as { extra_fields: { name: string; required: boolean }[]; dates: string[] };
    expect(form.extra_fields).toEqual([expect.objectContaining({ name: "civil_id", required: true })]);
    const missing = await app.request(`/api/v1/plugins/event/registration/${event.slug}`, {
      json: booking(event, { gateway_code: "knet-sandbox" }),
      ip: "10.0.0.5",
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ civil_id: ["This field is required"] });

    const list = (await (await app.request(`/api/v1/plugins/event/events?merchant=${merchant.merchantId}`)).json()) as {
      results: { slug: string }[];
    };
    expect(list.results.map((one) => one.slug)).toContain(event.slug);
    expect(list.results.map((one) => one.slug)).not.toContain(draft.slug);
    expect((await app.request(`/api/v1/plugins/event/events/${draft.slug}`)).status).toBe(404);
    expect((await app.request(`/en/events/${draft.slug}`)).status).toBe(404);
    const page = await (await app.request(`/en/events?merchant=${merchant.merchantId}`)).text();
    expect(page).toContain(`/en/events/${event.slug}`);
    expect(page).toContain("From KWD");
  });
});

describe("the customer pages, with JavaScript off", () => {
  it("registers through the plain form, keeping what was typed when something is wrong", async () => {
    const event = await createTestEvent(database.db, {
      merchantId: merchant.merchantId,
      isFree: true,
      termsEn: "No refunds.",
    });
    const path = `/en/events/register/${event.slug}`;
    const page = await app.request(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/enctype="multipart\/form-data"/i);
    expect(html).not.toContain('type="module"');
    const arabic = await (await app.request(`/ar/events/register/${event.slug}`)).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain("الاسم الأول");

    const fields = {
      event_date: "2030-12-20",
      ticket: String(event.ticketId),
      quantity: "1",
      customer_first_name: "Sara",
      customer_last_name: "Ali",
      email: "",
      customer_phone_country: "KW",
      customer_phone: "50001234",
    };
    const refused = await app.request(path, { form: fields, ip: "10.0.1.1" });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("This field is required");
    expect(refusedHtml).toContain("Accept the terms and conditions to register.");
    expect(refusedHtml).toContain('value="Sara"');

    const form = new FormData();
    for (const [name, value] of Object.entries({ ...fields, email: "sara@example.com", accept_terms: "on" }))
      form.append(name, value);
    const booked = await app.request(path, { body: form, ip: "10.0.1.1" });
    expect(booked.status).toBe(303);
    const location = booked.headers.get("Location")!;
    expect(location).toMatch(/^\/en\/events\/thanks-for-register\?booking=\d+&uuid=/);
    const thanks = await (await app.request(location)).text();
    expect(thanks).toContain("Thank you for registering");
    expect(thanks).toMatch(/href="\/en\/events\/tickets\/\d+\/[\w-]+"/);
  });

  it("keeps a customer's feedback", async () => {
    const event = await createTestEvent(database.db, { merchantId: merchant.merchantId, isFree: true });
    const path = `/en/events/leave-feedback/${event.slug}`;
    expect((await app.request(path, { form: { rating: "9", name: "" }, ip: "10.0.2.1" })).status).toBe(400);
    const sent = await app.request(path, {
      form: { rating: "4", comment: "Lovely evening", name: "Sara", email: "" },
      ip: "10.0.2.1",
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("Location")).toBe(`${path}/thanks`);
    const rows = await database.db
      .selectFrom("event_feedback")
      .select(["rating", "comment", "merchant_id"])
      .where("event_id", "=", event.id)
      .execute();
    expect(rows).toEqual([{ rating: 4, comment: "Lovely evening", merchant_id: merchant.merchantId }]);
  });
});

describe("the waiting zone", () => {
  it("lets customers in in the order they came, and nobody in without a pass", async () => {
    const event = await createTestEvent(database.db, {
      merchantId: merchant.merchantId,
      isFree: true,
      queueCapacity: 1,
    });
    const register = `/en/events/register/${event.slug}`;
    const zone = `/en/events/ticketwaitingzone?event=${event.slug}`;
    const direct = await app.request(register);
    expect(direct.status).toBe(303);
    expect(direct.headers.get("Location")).toBe(zone);
    const api = await app.request(BOOKING, { json: booking(event), ip: "10.0.3.9" });
    expect(api.status).toBe(403);

    const first = cookiesFrom(await app.request(zone));
    const firstIn = await app.request(zone, { cookie: cookieHeader(first) });
    expect(firstIn.status).toBe(303);
    expect(firstIn.headers.get("Location")).toBe(register);

    const second = await app.request(zone);
    expect(second.status).toBe(200);
    const secondJar = cookiesFrom(second);
    const secondHtml = await second.text();
    expect(secondHtml).toContain("Your place in the queue: 1");
    expect(secondHtml).toContain('http-equiv="refresh" content="10"');
    const third = await app.request(zone);
    const thirdJar = cookiesFrom(third);
    expect(await third.text()).toContain("Your place in the queue: 2");

    expect((await app.request(register, { cookie: cookieHeader(secondJar) })).status).toBe(303);
    expect((await app.request(register, { cookie: cookieHeader(first) })).status).toBe(200);
    const form = new FormData();
    for (const [name, value] of Object.entries({
      event_date: "2030-12-20",
      ticket: String(event.ticketId),
      quantity: "1",
      customer_first_name: "Sara",
      customer_last_name: "Ali",
      email: "first@example.com",
      accept_terms: "on",
    }))
      form.append(name, value);
    const booked = await app.request(register, { body: form, cookie: cookieHeader(first), ip: "10.0.3.1" });
    expect(booked.status).toBe(303);
    // The pass ended with the booking: the next in the queue is let in, the one after waits first.
    expect((await app.request(register, { cookie: cookieHeader(first) })).status).toBe(303);
    const thirdAgain = await app.request(zone, { cookie: cookieHeader(thirdJar) });
    expect(thirdAgain.status).toBe(200);
    expect(await thirdAgain.text()).toContain("Your place in the queue: 2");
    const secondIn = await app.request(zone, { cookie: cookieHeader(secondJar) });
    expect(secondIn.status).toBe(303);
    cookiesFrom(secondIn, secondJar);
    const withPass = await app.request(BOOKING, {
      json: booking(event, { quantity: 1 }),
      cookie: cookieHeader(secondJar),
      ip: "10.0.3.2",
    });
    expect(withPass.status).toBe(201);
    expect(await (await app.request(zone, { cookie: cookieHeader(thirdJar) })).text()).not.toContain(
      "Your place in the queue: 2",
    );
  });

  it("lets one pass make one booking when the same booking is sent many times at once", async () => {
    const event = await createTestEvent(database.db, {
      merchantId: merchant.merchantId,
      isFree: true,
      queueCapacity: 1,
      quantity: 50,
    });
    const zone = `/en/events/ticketwaitingzone?event=${event.slug}`;
    const jar = cookiesFrom(await app.request(zone));
    cookiesFrom(await app.request(zone, { cookie: cookieHeader(jar) }), jar);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        app.request(BOOKING, {
          json: booking(event, { quantity: 1, email: `rush${index}@example.com` }),
          cookie: cookieHeader(jar),
          ip: `10.0.4.${index + 1}`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
    const refused = (await answers.find((answer) => answer.status === 403)!.json()) as { code: string };
    expect(refused.code).toBe("waiting_zone");
    const bookings = await database.db.selectFrom("bookings").select("id").where("event_id", "=", event.id).execute();
    expect(bookings).toHaveLength(1);
  });
});
