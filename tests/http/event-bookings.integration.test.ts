import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { insertEvent, placesTaken, scanPlaces } from "../support/event-fixtures-dash";
import { loadApp, type TestApp } from "../support/http-app";
import { createBooking } from "~/sections/event/domain/bookings.server";
import { localPathOf } from "~/lib/storage.server";
import { resetEnvCache } from "~/lib/env.server";
import { runReadyJobs } from "~/lib/jobs.server";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let reportsDir: string;
let concert: Awaited<ReturnType<typeof insertEvent>>;
let talk: Awaited<ReturnType<typeof insertEvent>>;
const bookings: Record<string, number> = {};
let betaBooking: number;
const cookies: Record<string, string> = {};
const tokens: Record<string, string> = {};

async function book(
  merchantId: number,
  event: string,
  ticket: number,
  date: string,
  quantity: number,
  who: { email: string; first?: string; last?: string; phone?: string; company?: string },
) {
  const made = await createBooking(database.db, {
    request: {
      event,
      ticket,
      event_date: date,
      quantity,
      email: who.email,
      customer_first_name: who.first,
      customer_last_name: who.last,
      customer_phone: who.phone,
      extra: who.company ? { company: who.company } : {},
      gateway_code: undefined,
    },
    merchantId,
    actor: null,
    lang: "en",
    baseUrl: "http://localhost",
  });
  if (!made.ok) throw new Error(JSON.stringify(made.errors));
  return made.booking.id;
}

const api = (
  pathname: string,
  user: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) =>
  app.request(`/api/v1/plugins/event/${pathname}`, {
    ...init,
    headers: { Authorization: `Bearer ${tokens[user]}`, ...init.headers },
  });

beforeAll(async () => {
  reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-http-bookings-"));
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await createUser(database.db, alpha.merchantId, {
    username: "Alpha-viewer",
    email: "viewer@alpha.example",
    firstName: "V",
    lastName: "W",
    permissions: ["view_booking"],
  });
  concert = await insertEvent(database.db, alpha.merchantId, {
    slug: "concert",
    title: "Winter Concert",
    tickets: [
      { name: "Hall", dates: { "2030-12-20": 10, "2030-12-21": 2 } },
      { name: "Balcony", dates: { "2030-12-20": 5 } },
    ],
    fields: [{ name: "company", label_en: "Company", label_ar: "الشركة" }],
  });
  talk = await insertEvent(database.db, alpha.merchantId, {
    slug: "talk",
    title: "Evening Talk",
    tickets: [{ dates: { "2030-12-22": 50 } }],
  });
  const hall = concert.tickets[0].id;
  bookings.sara = await book(alpha.merchantId, "concert", hall, "2030-12-20", 3, {
    email: "sara@example.com",
    first: "Sara",
    last: "Ali",
    phone: "+96550001234",
    company: "Acme",
  });
  bookings.omar = await book(alpha.merchantId, "concert", hall, "2030-12-20", 2, {
    email: "omar@example.com",
    first: "Omar",
    last: "Said",
  });
  bookings.lina = await book(alpha.merchantId, "talk", talk.tickets[0].id, "2030-12-22", 1, {
    email: "lina@example.com",
    first: "Lina",
    last: "Haddad",
  });
  for (let index = 0; index < 9; index++) {
    await book(alpha.merchantId, "talk", talk.tickets[0].id, "2030-12-22", 1, {
      email: `guest${index}@example.com`,
      first: "Guest",
      last: String(index),
    });
  }
  await scanPlaces(database.db, bookings.sara, 3);
  await scanPlaces(database.db, bookings.omar, 1);
  const other = await insertEvent(database.db, beta.merchantId, {
    slug: "beta-show",
    tickets: [{ dates: { "2030-12-20": 5 } }],
  });
  betaBooking = await book(beta.merchantId, "beta-show", other.tickets[0].id, "2030-12-20", 1, {
    email: "someone@beta.example",
  });

  app = await loadApp({ ...database.env, SEED_DEMO: "0", REPORTS_DIR: reportsDir });
  resetEnvCache();
  for (const user of [alpha.admin.username, alpha.staff.username, "Alpha-viewer"]) {
    cookies[user] = await app.signIn(user, DEMO_PASSWORD);
    tokens[user] = (await app.apiToken(user, DEMO_PASSWORD)).access;
  }
});

afterAll(async () => {
  await database?.destroy();
  fs.rmSync(reportsDir, { recursive: true, force: true });
});

type ListAnswer = { count: number; results: { id: number; full_name: string; purchase_type: string }[] };

describe("the bookings list", () => {
  it("filters by event, keyword, e-mail, name, date and attendance, and counts the tiles for the same filters", async () => {
    const admin = alpha.admin.username;
    const list = async (query: string) => (await (await api(`booking/list?${query}`, admin)).json()) as ListAnswer;
    expect((await list("")).count).toBe(12);
    expect((await list(`event=${concert.id}`)).results.map((row) => row.id).sort()).toEqual(
      [bookings.sara, bookings.omar].sort(),
    );
    expect((await list("q=sara")).results.map((row) => row.id)).toEqual([bookings.sara]);
    expect((await list("q=50001234")).results.map((row) => row.id)).toEqual([bookings.sara]);
    expect((await list("email=OMAR@")).results.map((row) => row.id)).toEqual([bookings.omar]);
    expect((await list("full_name=lina%20had")).results.map((row) => row.id)).toEqual([bookings.lina]);
    expect((await list(`event=${concert.id}&event_date=2030-12-20`)).count).toBe(2);
    expect((await list("attendance=attended")).results.map((row) => row.id)).toEqual([bookings.sara]);
    expect((await list("attendance=partial_attended")).results.map((row) => row.id)).toEqual([bookings.omar]);
    expect((await list("attendance=not_attended")).count).toBe(10);
    expect((await list("q=sara")).results[0]).toMatchObject({ full_name: "Sara Ali", purchase_type: "free" });

    const member = await database.db
      .selectFrom("booking_members")
      .select("number")
      .where("booking_id", "=", bookings.omar)
      .executeTakeFirstOrThrow();
    expect((await list(`q=${member.number.toLowerCase()}`)).results.map((row) => row.id)).toEqual([bookings.omar]);

    const tiles = await (await api(`booking_statistics?event=${concert.id}`, admin)).json();
    expect(tiles).toEqual({ booked: 5, attended: 4, not_attended: 1 });
    expect(await (await api("booking_statistics", admin)).json()).toEqual({
      booked: 15,
      attended: 4,
      not_attended: 11,
    });
  });

  it("pages by 10 by default and shows every booking with All", async () => {
    const admin = alpha.admin.username;
    const first = (await (await api("booking/list", admin)).json()) as ListAnswer;
    expect(first.results).toHaveLength(10);
    const second = (await (await api("booking/list?page=2", admin)).json()) as ListAnswer;
    expect(second.results).toHaveLength(2);
    expect((await (await api("booking/list?page_size=all", admin)).json()).results).toHaveLength(12);

    const page = await app.request(`/en/event/bookings?event=${concert.id}`, { cookie: cookies[admin] });
    expect(page.status).toBe(200);
    const html = text(await page.text());
    for (const words of [
      "Booked",
      "Attended",
      "Not attended",
      "Sara Ali",
      "Omar Said",
      "Company",
      "Acme",
      "Free",
      "Send email",
      "Manage events",
    ])
      expect(html).toContain(words);
    expect(html).not.toContain("Lina Haddad");
  });

  it("offers the events, an event's tickets and its dates as filter choices", async () => {
    const admin = alpha.admin.username;
    expect(await (await api("get-filter-choices?field_name=event&field_value=wint", admin)).json()).toEqual([
      { value: String(concert.id), display_name: "Winter Concert" },
    ]);
    const dates = await (await api(`get-filter-choices?field_name=event_date&field_value=${concert.id}`, admin)).json();
    expect(dates.map((choice: { value: string }) => choice.value)).toEqual(["2030-12-20", "2030-12-21"]);
    const tickets = await (await api(`get-filter-choices?field_name=ticket&field_value=${concert.id}`, admin)).json();
    expect(tickets).toHaveLength(2);
  });
});

describe("changing a booking", () => {
  it("refuses a move to a date without enough places, in the reader's language, and changes nothing", async () => {
    const admin = alpha.admin.username;
    const hallDay = concert.tickets[0].dates["2030-12-20"];
    const smallDay = concert.tickets[0].dates["2030-12-21"];
    const refused = await api(`booking/update/${bookings.sara}`, admin, {
      method: "PATCH",
      json: { event_date: "2030-12-21", quantity: 0 },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ quantity: ["Only 2 places are left on this date."] });

    const page = await app.request(`/ar/event/bookings/${bookings.sara}`, {
      cookie: cookies[admin],
      form: { intent: "places", event_date: "2030-12-21", quantity: "0" },
    });
    expect(page.status).toBe(400);
    expect(text(await page.text())).toContain("تبقى 2 مقاعد فقط في هذا التاريخ.");

    const tooMany = await api(`booking/update/${bookings.omar}`, admin, {
      method: "PATCH",
      json: { event_date: "2030-12-20", quantity: 6 },
    });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual({ quantity: ["Only 5 places are left on this date."] });

    expect(await placesTaken(database.db, hallDay)).toBe(5);
    expect(await placesTaken(database.db, smallDay)).toBe(0);
    const sara = await (await api(`booking/list/${bookings.sara}`, admin)).json();
    expect(sara).toMatchObject({ event_date: "2030-12-20", quantity: 3 });
  });

  it("resends the booking e-mail from the list", async () => {
    const before = await database.db
      .selectFrom("outgoing_mail")
      .select("id")
      .where("to_address", "=", "omar@example.com")
      .execute();
    const sent = await app.request("/en/event/bookings", {
      cookie: cookies[alpha.admin.username],
      form: { intent: "send_email", booking_id: String(bookings.omar), query: "q=omar" },
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe("/en/event/bookings?q=omar");
    const after = await database.db
      .selectFrom("outgoing_mail")
      .select("id")
      .where("to_address", "=", "omar@example.com")
      .execute();
    expect(after.length).toBe(before.length + 1);
  });

  it("cancels after the confirmation and puts the places back on sale", async () => {
    const cookie = cookies[alpha.admin.username];
    const confirm = await app.request(`/en/event/bookings/${bookings.omar}?confirm=cancel`, { cookie });
    expect(text(await confirm.text())).toContain("Are you sure you want to cancel booking?");
    const canceled = await app.request(`/en/event/bookings/${bookings.omar}`, { cookie, form: { intent: "cancel" } });
    expect(canceled.status).toBe(302);
    expect(canceled.headers.get("Location")).toBe("/en/event/bookings");
    const flash = decodeURIComponent(
      canceled.headers.getSetCookie().find((value) => value.startsWith("kp_flash=")) ?? "",
    );
    expect(flash).toContain("bookings.canceled");
    expect(await placesTaken(database.db, concert.tickets[0].dates["2030-12-20"])).toBe(3);
    const details = text(await (await app.request(`/en/event/bookings/${bookings.omar}`, { cookie })).text());
    expect(details).toContain("Canceled");
  });
});

describe("the bookings export", () => {
  it("lands in Generated reports with the list's columns and the event's fields, in the interface language", async () => {
    const cookie = cookies[alpha.admin.username];
    const asked = await app.request("/en/event/bookings", {
      cookie,
      form: { intent: "export", file_format: "csv", query: `event=${concert.id}&page=2` },
    });
    expect(asked.status).toBe(302);
    const location = asked.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/en\/generated-reports\?id=\d+$/);
    await runReadyJobs(database.db);
    const report = await database.db
      .selectFrom("reports")
      .select(["state", "file_path", "section", "query"])
      .where("id", "=", Number(location.split("=")[1]))
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({ state: "done", section: "event_bookings", query: `event=${concert.id}` });
    const csv = fs.readFileSync(localPathOf(report.file_path ?? ""), "utf8");
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Event,Quantity,Full name,Purchase type,Email,Event date,Created,Customer phone,Company,Booking No,Ticket,Paid places,Scanned places",
    );
    expect(lines).toHaveLength(3);
    expect(csv).toContain("Winter Concert,3,Sara Ali,Free,sara@example.com,2030-12-20");
    expect(csv).toContain("Acme");
    const page = text(await (await app.request(location, { cookie })).text());
    expect(page).toContain("Event bookings");
  });
});

describe("who may see bookings", () => {
  it("answers 403 to a user without view_booking, and lets a viewer read but not change", async () => {
    const staff = alpha.staff.username;
    expect((await app.request("/en/event/bookings", { cookie: cookies[staff] })).status).toBe(403);
    expect((await api("booking/list", staff)).status).toBe(403);
    expect((await app.request("/en/event/bookings", { cookie: cookies["Alpha-viewer"] })).status).toBe(200);
    const change = await api(`booking/update/${bookings.sara}`, "Alpha-viewer", {
      method: "PATCH",
      json: { status: "cancel" },
    });
    expect(change.status).toBe(403);
  });

  it("answers 404 for another merchant's booking", async () => {
    const admin = alpha.admin.username;
    expect((await app.request(`/en/event/bookings/${betaBooking}`, { cookie: cookies[admin] })).status).toBe(404);
    expect((await api(`booking/list/${betaBooking}`, admin)).status).toBe(404);
    expect(
      (await api(`booking/update/${betaBooking}`, admin, { method: "PATCH", json: { status: "cancel" } })).status,
    ).toBe(404);
    const list = (await (await api("booking/list?page_size=all", admin)).json()) as ListAnswer;
    expect(list.results.map((row) => row.id)).not.toContain(betaBooking);
  });
});

function text(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");
}
