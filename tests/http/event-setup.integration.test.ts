import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookingSchema } from "~/sections/event/domain/booking-schema";
import { createBooking } from "~/sections/event/domain/bookings.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

// A merchant sets up its events (the editor pages and GET/POST/PATCH dashboard/events): texts in
// both languages, a slug that names it on the public pages, paid or free, tickets with places per
// date; places already taken are never given away by an edit.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let adminToken: string;
let betaToken: string;
let viewerToken: string;
let staffToken: string;

const API = "/api/v1/plugins/event/dashboard/events";
// The smallest PNG there is: 1×1, transparent.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** The exact payload. */
const concert = (changes: Record<string, unknown> = {}) => ({
  slug: "winter-concert",
  title_en: "Winter concert",
  title_ar: "حفل الشتاء",
  description_en: "An evening of oud and strings.",
  description_ar: "أمسية من العود والوتريات.",
  currency_code: "KWD",
  is_free: false,
  status: "published",
  gateway_codes: ["knet-sandbox", "mpgs-sandbox"],
  fields: [{ name: "civil_id", label_en: "Civil ID", label_ar: "الرقم المدني", type: "text", required: true }],
  tickets: [
    {
      name_en: "Standard",
      name_ar: "عادي",
      price: "5.000",
      start_time: "18:00",
      end_time: "22:00",
      quantity: 10,
      dates: ["2026-12-20", "2026-12-21"],
    },
  ],
  ...changes,
});

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await createUser(database.db, alpha.merchantId, {
    username: "alpha-viewer",
    email: "viewer@alpha.example",
    firstName: "Vera",
    lastName: "Viewer",
    permissions: ["view_booking"],
  });
  app = await loadApp({ ...database.env, SEED_DEMO: "0", UPLOADS_DIR: `/tmp/kp-event-setup-${Date.now()}.uploads` });
  adminToken = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
  betaToken = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
  viewerToken = (await app.apiToken("alpha-viewer", DEMO_PASSWORD)).access;
  staffToken = (await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

const bearer = (access: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${access}`,
  ...extra,
});
type Event = {
  id: number;
  slug: string;
  title: string;
  title_en: string;
  status: string;
  is_free: boolean;
  image_url: string | null;
  gateway_codes: string[];
  tickets: { id: number; name_en: string; price: string; quantity: number; dates: string[] }[];
  fields: { name: string }[];
};

async function create(body: Record<string, unknown>, token = adminToken, headers: Record<string, string> = {}) {
  const response = await app.request(API, { headers: bearer(token, headers), json: body });
  return { status: response.status, body: (await response.json()) as Event & Record<string, string[]> };
}

describe("creating an event by API", () => {
  it("answers 201 with the event, its id and each ticket's id, as the issue's payload gives it", async () => {
    const { status, body } = await create(concert());
    expect(status).toBe(201);
    expect(body.id).toEqual(expect.any(Number));
    expect(body).toMatchObject({
      slug: "winter-concert",
      title: "Winter concert",
      title_ar: "حفل الشتاء",
      currency_code: "KWD",
      is_free: false,
      status: "published",
      gateway_codes: ["knet-sandbox", "mpgs-sandbox"],
    });
    expect(body.fields).toEqual([
      { name: "civil_id", label_en: "Civil ID", label_ar: "الرقم المدني", type: "text", required: true },
    ]);
    expect(body.tickets).toHaveLength(1);
    expect(body.tickets[0]).toMatchObject({
      id: expect.any(Number),
      name_en: "Standard",
      price: "5.000",
      start_time: "18:00",
      end_time: "22:00",
      quantity: 10,
      dates: ["2026-12-20", "2026-12-21"],
    });
    const rows = await database.db
      .selectFrom("event_ticket_dates")
      .select(["event_date", "quantity", "taken"])
      .where("event_id", "=", body.id)
      .orderBy("event_date")
      .execute();
    expect(rows).toEqual([
      { event_date: "2026-12-20", quantity: 10, taken: 0 },
      { event_date: "2026-12-21", quantity: 10, taken: 0 },
    ]);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "description"])
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "=", "event_created")
      .execute();
    expect(audit).toEqual([
      { action: "event_created", description: "Created the event Winter concert (winter-concert) as Published" },
    ]);
  });

  it("refuses what is wrong, field by field, a ticket's by its place in the list, in the reader's language", async () => {
    const { status, body } = await create(
      concert({
        slug: "Winter Concert",
        title_ar: "",
        gateway_codes: ["cod"],
        tickets: [
          {
            name_en: "Standard",
            name_ar: "عادي",
            price: "5.0001",
            start_time: "22:00",
            end_time: "18:00",
            quantity: 10,
            dates: ["2026-02-30"],
          },
          {
            name_en: "VIP",
            name_ar: "",
            price: "20",
            start_time: "7pm",
            end_time: "22:00",
            quantity: -1,
            dates: ["20-12-2026"],
          },
        ],
      }),
    );
    expect(status).toBe(400);
    expect(Object.keys(body).sort()).toEqual(
      ["slug", "tickets.1.dates.0", "tickets.1.name_ar", "tickets.1.quantity", "tickets.1.start_time"].sort(),
    );
    expect(body["tickets.1.name_ar"]).toEqual(["This field is required"]);

    const second = await create(
      concert({
        slug: "winter-concert-2",
        title_ar: "",
        gateway_codes: ["cod"],
        tickets: [
          {
            name_en: "Standard",
            name_ar: "عادي",
            price: "5.0001",
            start_time: "22:00",
            end_time: "18:00",
            quantity: 10,
            dates: ["2026-02-30"],
          },
        ],
      }),
    );
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      title_ar: ["This field is required"],
      gateway_codes: ["These gateways cannot take this event's payments in KWD (cod)."],
      "tickets.0.price": ["Too many decimal places for this currency"],
      "tickets.0.end_time": ["The end time must be after the start time."],
      "tickets.0.dates": ["Not a date on the calendar (2026-02-30)."],
    });

    const arabic = await app.request(API, {
      headers: bearer(adminToken, { "Accept-Language": "ar" }),
      json: concert({ slug: "winter-concert-3", gateway_codes: [] }),
    });
    expect(arabic.status).toBe(400);
    expect(await arabic.json()).toEqual({ gateway_codes: ["تحتاج الفعالية المدفوعة إلى بوابة دفع واحدة على الأقل."] });

    const unpublishable = await create(concert({ slug: "winter-concert-4", tickets: [] }));
    expect(unpublishable.body).toEqual({
      tickets: ["To publish the event, give it at least one ticket with at least one date."],
    });
    const freePriced = await create(concert({ slug: "winter-concert-5", is_free: true, gateway_codes: [] }));
    expect(freePriced.body).toEqual({
      "tickets.0.price": ["A free event's tickets cost nothing; leave the price at 0."],
    });
    expect(
      await database.db.selectFrom("events").select("slug").where("slug", "like", "winter-concert-%").execute(),
    ).toEqual([]);
  });

  it("refuses a slug another event has, on the whole installation", async () => {
    const taken = await create(concert(), betaToken);
    expect(taken).toEqual({ status: 400, body: { slug: ["This address is taken."] } });
  });

  it("creates once for one Idempotency-Key", async () => {
    const headers = { "Idempotency-Key": "event-once-1" };
    const body = concert({ slug: "spring-fair", status: "draft" });
    const first = await create(body, adminToken, headers);
    const again = await create(body, adminToken, headers);
    expect(first.status).toBe(201);
    expect(again).toEqual(first);
    expect(
      await database.db.selectFrom("events").select("id").where("slug", "=", "spring-fair").execute(),
    ).toHaveLength(1);
  });
});

describe("reading and changing an event by API", () => {
  let event: Event;
  beforeAll(async () => {
    event = (
      await create(
        concert({
          slug: "free-talk",
          is_free: true,
          gateway_codes: [],
          tickets: [
            {
              name_en: "Seat",
              name_ar: "مقعد",
              price: "0",
              start_time: "10:00",
              end_time: "12:00",
              quantity: 5,
              dates: ["2099-01-10", "2099-01-11"],
            },
            {
              name_en: "Standing",
              name_ar: "وقوف",
              start_time: "10:00",
              end_time: "12:00",
              quantity: 5,
              dates: ["2099-01-10"],
            },
          ],
        }),
      )
    ).body;
    const booked = await createBooking(database.db, {
      request: BookingSchema.parse({
        event: "free-talk",
        ticket: event.tickets[0].id,
        event_date: "2099-01-10",
        quantity: 3,
        email: "guest@example.com",
        extra: { civil_id: "289010112348" },
      }),
      lang: "en",
      baseUrl: "http://localhost",
    });
    expect(booked.ok).toBe(true);
  });

  it("lists the merchant's events, with available and q", async () => {
    const list = (await (await app.request(`${API}?q=TALK`, { headers: bearer(adminToken) })).json()) as {
      count: number;
      results: Event[];
    };
    expect(list.results.map((row) => row.slug)).toEqual(["free-talk"]);
    const available = (await (await app.request(`${API}?available=true`, { headers: bearer(adminToken) })).json()) as {
      results: Event[];
    };
    // The concert's dates are in 2026 and the fair is a draft; only the talk has places on dates still to come.
    expect(available.results.map((row) => row.slug)).toContain("free-talk");
    expect(available.results.map((row) => row.slug)).not.toContain("spring-fair");
    const beta = (await (await app.request(API, { headers: bearer(betaToken) })).json()) as { count: number };
    expect(beta.count).toBe(0);
  });

  it("answers one event with the places left per date", async () => {
    const response = await app.request(`${API}/${event.id}`, { headers: bearer(viewerToken) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Event & { tickets: { remaining_qty_per_date: Record<string, unknown> }[] };
    expect(body.tickets[0].remaining_qty_per_date).toEqual({
      "2099-01-10": { status: "available", remaining_quantity: 2 },
      "2099-01-11": { status: "available", remaining_quantity: 5 },
    });
  });

  it("changes only what a PATCH names", async () => {
    const response = await app.request(`${API}/${event.id}`, {
      method: "PATCH",
      headers: bearer(adminToken),
      json: { title_en: "Free talk on pearls" },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Event;
    expect(body).toMatchObject({
      title_en: "Free talk on pearls",
      title_ar: "حفل الشتاء",
      slug: "free-talk",
      status: "published",
    });
    expect(body.tickets.map((ticket) => ticket.id)).toEqual(event.tickets.map((ticket) => ticket.id));
  });

  it("never takes back places already taken, naming the ticket and the date", async () => {
    const [seat] = event.tickets;
    const patch = (tickets: unknown[]) =>
      app.request(`${API}/${event.id}`, { method: "PATCH", headers: bearer(adminToken), json: { tickets } });
    const below = await patch([{ ...seat, quantity: 2 }]);
    expect(below.status).toBe(400);
    expect(await below.json()).toEqual({
      "tickets.0.quantity": ["Seat has 3 places taken on 2099-01-10; the places cannot go below that."],
    });
    const removed = await patch([{ ...seat, dates: ["2099-01-11"] }]);
    expect(await removed.json()).toEqual({
      "tickets.0.dates": ["Seat has bookings on 2099-01-10; that date cannot be removed."],
    });

    // The standing ticket is left out (taken off sale, kept), a new one is added, the seat gets a date and loses an unbooked one.
    const changed = await patch([
      { ...seat, quantity: 3, dates: ["2099-01-10", "2099-01-12"] },
      {
        name_en: "Balcony",
        name_ar: "شرفة",
        price: "0",
        start_time: "10:00",
        end_time: "12:00",
        quantity: 4,
        dates: ["2099-01-12"],
      },
    ]);
    expect(changed.status).toBe(200);
    const body = (await changed.json()) as Event;
    expect(body.tickets.map((ticket) => [ticket.name_en, ticket.quantity, ticket.dates])).toEqual([
      ["Seat", 3, ["2099-01-10", "2099-01-12"]],
      ["Balcony", 4, ["2099-01-12"]],
    ]);
    const standing = await database.db
      .selectFrom("event_tickets")
      .select(["is_active"])
      .where("id", "=", event.tickets[1].id)
      .executeTakeFirstOrThrow();
    expect(standing.is_active).toBe(0);
    const seatDates = await database.db
      .selectFrom("event_ticket_dates")
      .select(["event_date", "quantity", "taken"])
      .where("ticket_id", "=", seat.id)
      .orderBy("event_date")
      .execute();
    expect(seatDates).toEqual([
      { event_date: "2099-01-10", quantity: 3, taken: 3 },
      { event_date: "2099-01-12", quantity: 3, taken: 0 },
    ]);
  });

  it("answers 404 for another merchant's event and for one that does not exist", async () => {
    expect((await app.request(`${API}/${event.id}`, { headers: bearer(betaToken) })).status).toBe(404);
    expect(
      (
        await app.request(`${API}/${event.id}`, {
          method: "PATCH",
          headers: bearer(betaToken),
          json: { title_en: "Mine" },
        })
      ).status,
    ).toBe(404);
    expect((await app.request(`${API}/999999`, { headers: bearer(adminToken) })).status).toBe(404);
    expect(
      (await database.db.selectFrom("events").select("title_en").where("id", "=", event.id).executeTakeFirstOrThrow())
        .title_en,
    ).toBe("Free talk on pearls");
  });

  it("needs view_booking to read and change_booking to write", async () => {
    expect((await app.request(API, { headers: bearer(staffToken) })).status).toBe(403);
    expect((await app.request(API)).status).toBe(401);
    expect((await app.request(API, { headers: bearer(viewerToken) })).status).toBe(200);
    expect((await create(concert({ slug: "viewer-made" }), viewerToken)).status).toBe(403);
    expect(
      (
        await app.request(`${API}/${event.id}`, {
          method: "PATCH",
          headers: bearer(viewerToken),
          json: { title_en: "Nope" },
        })
      ).status,
    ).toBe(403);
  });

  it("takes a PNG as the event's image and serves it to anyone", async () => {
    const form = new FormData();
    form.set("image", new File([new Uint8Array(PNG)], "poster.png"));
    const response = await app.request(`${API}/${event.id}/image`, {
      method: "POST",
      headers: bearer(adminToken),
      body: form,
    });
    expect(response.status).toBe(200);
    const { image_url } = (await response.json()) as Event;
    expect(image_url).toMatch(/^\/media\/event\/\d+\/event-[\w-]{12}\.png$/);
    const image = await app.request(image_url!);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");

    const text = new FormData();
    text.set("image", new File(["<svg/>"], "poster.svg"));
    const refused = await app.request(`${API}/${event.id}/image`, {
      method: "POST",
      headers: bearer(adminToken),
      body: text,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ image: ["Choose a PNG, JPEG or WebP image."] });
  });
});

describe("the event pages, without JavaScript", () => {
  it("list the merchant's events with their places, for those who may view bookings", async () => {
    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/event/events", { cookie: staff })).status).toBe(403);
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const page = await app.request("/en/event/events", { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Winter concert");
    expect(html).toContain("New event");
    expect(html).toContain("0 / 20");
  });

  it("save a new event from one form, keep what was typed on an error and add field rows with a submit button", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const form = {
      title_en: "Dhow race",
      title_ar: "سباق القوارب",
      slug: "dhow-race",
      currency_code: "KWD",
      gateway_codes: "knet-sandbox",
      hold_minutes: "15",
      max_per_booking: "10",
      "tickets[0].name_en": "Shore",
      "tickets[0].name_ar": "الشاطئ",
      "tickets[0].price": "2.500",
      "tickets[0].start_time": "16:00",
      "tickets[0].end_time": "15:00",
      "tickets[0].quantity": "40",
      "tickets[0].dates": "2099-03-01\n2099-03-02",
      status: "published",
    };
    const refused = await app.request("/en/event/events/new", { cookie, form });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("The end time must be after the start time.");
    expect(html).toContain('value="Dhow race"');
    expect(html).toContain("2099-03-02");

    // The "Add field" button is a submit button of the form: without JavaScript the server answers the form with one more row.
    const buttons = (html.match(/<button[^>]*>/g) ?? []).map((tag) => tag.replaceAll("&quot;", '"'));
    const insert = buttons.find(
      (tag) =>
        tag.includes('type="submit"') &&
        tag.includes('name="__intent__"') &&
        tag.includes('"type":"insert","payload":{"name":"fields"'),
    );
    expect(insert).not.toBeNull();
    const added = await app.request("/en/event/events/new", {
      cookie,
      form: { ...form, __intent__: /value="(\{.*\})"/.exec(insert!)![1] },
    });
    expect(added.status).toBe(200);
    const withRow = await added.text();
    expect(withRow).toContain('name="fields[0].name"');
    expect(withRow).toContain('value="Dhow race"');

    const saved = await app.request("/en/event/events/new", {
      cookie,
      form: {
        ...form,
        "tickets[0].end_time": "19:00",
        "fields[0].name": "boat",
        "fields[0].label_en": "Boat",
        "fields[0].label_ar": "القارب",
        "fields[0].type": "text",
      },
    });
    expect(saved.status).toBe(302);
    const location = saved.headers.get("Location")!;
    expect(location).toMatch(/^\/en\/event\/events\/\d+$/);
    const event = await database.db
      .selectFrom("events")
      .selectAll()
      .where("slug", "=", "dhow-race")
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      merchant_id: alpha.merchantId,
      status: "published",
      gateway_codes: "knet-sandbox",
      is_free: 0,
    });
    const edit = await (await app.request(location, { cookie })).text();
    expect(edit).toContain('value="boat"');
    expect(edit).toContain("2099-03-01\n2099-03-02");

    const closed = await app.request(location, {
      cookie: cookie,
      form: { ...form, "tickets[0].end_time": "19:00", "tickets[0].id": "", status: "closed" },
    });
    expect(closed.status).toBe(302);
    expect(
      (await database.db.selectFrom("events").select("status").where("id", "=", event.id).executeTakeFirstOrThrow())
        .status,
    ).toBe("closed");
  });
});

describe("the demo merchant's events", () => {
  it("are a published paid event and a published free one with bookings, places counted once", async () => {
    const { seedDemoEvents } = await import("~/sections/event/domain/demo-events.server");
    await seedDemoEvents(database.db, { merchantId: beta.merchantId, userId: beta.admin.id });
    await seedDemoEvents(database.db, { merchantId: beta.merchantId, userId: beta.admin.id });
    const events = await database.db
      .selectFrom("events")
      .select(["id", "slug", "status", "is_free", "gateway_codes"])
      .where("merchant_id", "=", beta.merchantId)
      .orderBy("id")
      .execute();
    expect(events.map((event) => [event.slug, event.status, event.is_free, event.gateway_codes])).toEqual([
      ["gulf-jazz-night", "published", 0, "knet-sandbox,mpgs-sandbox"],
      ["pearl-diving-talk", "published", 1, ""],
    ]);
    const taken = await database.db
      .selectFrom("event_ticket_dates")
      .select((eb) => eb.fn.sum<number>("taken").as("taken"))
      .where("event_id", "=", events[1].id)
      .executeTakeFirstOrThrow();
    const items = await database.db
      .selectFrom("booking_items")
      .innerJoin("bookings", "bookings.id", "booking_items.booking_id")
      .select((eb) => eb.fn.sum<number>("booking_items.quantity").as("places"))
      .where("bookings.event_id", "=", events[1].id)
      .where("booking_items.status", "in", ["pending", "paid"])
      .executeTakeFirstOrThrow();
    expect(Number(taken.taken)).toBe(6);
    expect(Number(items.places)).toBe(6);
    const list = (await (await app.request(`${API}?available=true`, { headers: bearer(betaToken) })).json()) as {
      results: Event[];
    };
    expect(list.results.map((event) => event.slug).sort()).toEqual(["gulf-jazz-night", "pearl-diving-talk"]);
  });
});
