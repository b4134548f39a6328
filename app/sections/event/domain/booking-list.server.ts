import { DateTime } from "luxon";
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { DB } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { DISPLAY_ZONE } from "~/lib/format";
import { ATTENDANCE, BOOKING_PAGE_SIZES, type Attendance, type BookingPageSize } from "./booking-filters";
import { normalizeMemberNumber } from "./tickets.server";

/** "All" still has a ceiling: one page never holds more than this many bookings. */
export const ALL_CEILING = 5000;

export type BookingFilters = {
  q?: string;
  event?: number;
  ticket?: number;
  email?: string;
  customer_phone?: string;
  full_name?: string;
  event_date?: string;
  /** UTC instants: the start of the first Kuwait day and the end of the last. */
  created_after?: string;
  created_before?: string;
  attendance?: Attendance;
};

export type BookingQuery = {
  filters: BookingFilters;
  page: number;
  pageSize: BookingPageSize;
  /** Translation keys of the values that could not be read, by parameter. */
  errors: Record<string, string>;
  /** The parameters as given, to fill the filter form again. */
  raw: Record<string, string>;
};

export const BOOKING_FILTER_NAMES = [
  "q",
  "event",
  "ticket",
  "email",
  "customer_phone",
  "full_name",
  "event_date",
  "created_after",
  "created_before",
  "attendance",
] as const;

const ID = /^\d{1,10}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function kuwaitDay(value: string, end: boolean) {
  if (!DAY.test(value)) return undefined;
  const day = DateTime.fromISO(value, { zone: DISPLAY_ZONE });
  if (!day.isValid) return undefined;
  return (end ? day.endOf("day") : day.startOf("day")).toUTC().toISO() ?? undefined;
}

/**
 * The bookings list's query string (the page's, the API's and an export's): its filters, the page
 * and the rows per page. A ticket counts only with an event (it is one of that event's).
 */
export function parseBookingQuery(params: URLSearchParams): BookingQuery {
  const raw: Record<string, string> = {};
  for (const name of [...BOOKING_FILTER_NAMES, "page", "page_size"]) {
    const value = params.get(name)?.trim();
    if (value) raw[name] = value.slice(0, 200);
  }
  const filters: BookingFilters = {};
  const errors: Record<string, string> = {};
  const text = (name: "q" | "email" | "customer_phone" | "full_name") => {
    if (raw[name]) filters[name] = raw[name].slice(0, 100);
  };
  text("q");
  text("email");
  text("customer_phone");
  text("full_name");
  if (raw.event) {
    if (ID.test(raw.event)) filters.event = Number(raw.event);
    else errors.event = "bookings.errors.event";
  }
  if (raw.ticket && filters.event !== undefined) {
    if (ID.test(raw.ticket)) filters.ticket = Number(raw.ticket);
    else errors.ticket = "bookings.errors.ticket";
  }
  if (raw.event_date) {
    if (DAY.test(raw.event_date)) filters.event_date = raw.event_date;
    else errors.event_date = "bookings.errors.date";
  }
  for (const [name, end] of [
    ["created_after", false],
    ["created_before", true],
  ] as const) {
    if (!raw[name]) continue;
    const instant = kuwaitDay(raw[name], end);
    if (instant) filters[name] = instant;
    else errors[name] = "bookings.errors.date";
  }
  if (filters.created_after && filters.created_before && filters.created_before < filters.created_after) {
    errors.created_before = "bookings.errors.range";
    delete filters.created_before;
  }
  if (raw.attendance) {
    if ((ATTENDANCE as readonly string[]).includes(raw.attendance)) filters.attendance = raw.attendance as Attendance;
    else errors.attendance = "bookings.errors.attendance";
  }
  const size = raw.page_size;
  const pageSize: BookingPageSize =
    size === "all"
      ? "all"
      : (BOOKING_PAGE_SIZES as readonly number[]).includes(Number(size))
        ? (Number(size) as BookingPageSize)
        : 10;
  const page = raw.page && /^\d{1,6}$/.test(raw.page) && Number(raw.page) > 0 ? Number(raw.page) : 1;
  return { filters, page, pageSize, errors, raw };
}

type BookingsQuery = SelectQueryBuilder<Database, "bookings", object>;

/** A paid place of the booking (the place staff may scan), scanned or not. */
function paidMembers(eb: ExpressionBuilder<Database, "bookings">, scanned?: boolean) {
  let query = eb
    .selectFrom("booking_members")
    .innerJoin("booking_items", "booking_items.id", "booking_members.item_id")
    .select("booking_members.id")
    .whereRef("booking_members.booking_id", "=", "bookings.id")
    .where("booking_items.status", "=", "paid");
  if (scanned === true) query = query.where("booking_members.scanned_at", "is not", null);
  if (scanned === false) query = query.where("booking_members.scanned_at", "is", null);
  return query;
}

function like(value: string) {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The merchant's bookings that match the filters (never another merchant's). */
function filtered(db: DB, merchantId: number, filters: BookingFilters): BookingsQuery {
  let query = db.selectFrom("bookings").where("bookings.merchant_id", "=", merchantId);
  if (filters.event !== undefined) query = query.where("bookings.event_id", "=", filters.event);
  if (filters.ticket !== undefined) query = query.where("bookings.ticket_id", "=", filters.ticket);
  if (filters.event_date) query = query.where("bookings.event_date", "=", filters.event_date);
  if (filters.created_after) query = query.where("bookings.created_at", ">=", filters.created_after);
  if (filters.created_before) query = query.where("bookings.created_at", "<=", filters.created_before);
  if (filters.email)
    query = query.where(sql<string>`bookings.email_lc`, "like", sql<string>`${like(filters.email)} escape '\\'`);
  if (filters.customer_phone) {
    const digits = filters.customer_phone.replace(/[^\d+]/g, "");
    query = query.where(
      sql<string>`coalesce(bookings.customer_phone, '')`,
      "like",
      sql<string>`${like(digits || filters.customer_phone)} escape '\\'`,
    );
  }
  if (filters.full_name) {
    query = query.where(
      sql<string>`lower(bookings.customer_first_name || ' ' || bookings.customer_last_name)`,
      "like",
      sql<string>`${like(filters.full_name)} escape '\\'`,
    );
  }
  if (filters.q) {
    const q = filters.q;
    const pattern = like(q);
    const number = normalizeMemberNumber(q);
    query = query.where((eb) =>
      eb.or([
        eb(
          sql<string>`lower(bookings.customer_first_name || ' ' || bookings.customer_last_name)`,
          "like",
          sql<string>`${pattern} escape '\\'`,
        ),
        eb(sql<string>`bookings.email_lc`, "like", sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`coalesce(bookings.customer_phone, '')`, "like", sql<string>`${pattern} escape '\\'`),
        ...(/^#?\d{1,10}$/.test(q) ? [eb("bookings.id", "=", Number(q.replace("#", "")))] : []),
        eb.exists(
          eb
            .selectFrom("booking_members")
            .select("booking_members.id")
            .whereRef("booking_members.booking_id", "=", "bookings.id")
            .where("booking_members.event_id", "=", eb.ref("bookings.event_id"))
            .where("booking_members.number", "=", number),
        ),
      ]),
    );
  }
  if (filters.attendance === "attended") {
    query = query.where((eb) => eb.and([eb.exists(paidMembers(eb)), eb.not(eb.exists(paidMembers(eb, false)))]));
  } else if (filters.attendance === "not_attended") {
    query = query.where((eb) => eb.not(eb.exists(paidMembers(eb, true))));
  } else if (filters.attendance === "partial_attended") {
    query = query.where((eb) => eb.and([eb.exists(paidMembers(eb, true)), eb.exists(paidMembers(eb, false))]));
  }
  return query;
}

export type BookingListRow = {
  id: number;
  event_id: number;
  event_title_en: string;
  event_title_ar: string;
  is_free: boolean;
  ticket_id: number;
  event_date: string;
  created_at: string;
  email: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_phone: string | null;
  extra: Record<string, string>;
  has_attachment: boolean;
  /** Places neither canceled nor released. */
  quantity: number;
  /** Paid places, and of them those scanned at the door. */
  paid: number;
  scanned: number;
};

/** Reads the rows of some bookings (ids already scoped to the merchant), in the order of `ids`. */
async function rowsOf(db: DB, merchantId: number, ids: readonly number[]): Promise<BookingListRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("bookings")
    .innerJoin("events", "events.id", "bookings.event_id")
    .select([
      "bookings.id",
      "bookings.event_id",
      "events.title_en",
      "events.title_ar",
      "events.is_free",
      "bookings.ticket_id",
      "bookings.event_date",
      "bookings.created_at",
      "bookings.email",
      "bookings.customer_first_name",
      "bookings.customer_last_name",
      "bookings.customer_phone",
      "bookings.extra",
      "bookings.attachment_path",
    ])
    .where("bookings.merchant_id", "=", merchantId)
    .where("bookings.id", "in", ids)
    .execute();
  const items = await db
    .selectFrom("booking_items")
    .select(["booking_id", "status", (eb) => eb.fn.sum<number>("quantity").as("places")])
    .where("booking_id", "in", ids)
    .where("status", "!=", "cancel")
    .groupBy(["booking_id", "status"])
    .execute();
  const scans = await db
    .selectFrom("booking_members")
    .innerJoin("booking_items", "booking_items.id", "booking_members.item_id")
    .select(["booking_members.booking_id", (eb) => eb.fn.countAll<number>().as("scanned")])
    .where("booking_members.booking_id", "in", ids)
    .where("booking_items.status", "=", "paid")
    .where("booking_members.scanned_at", "is not", null)
    .groupBy("booking_members.booking_id")
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const own = items.filter((item) => item.booking_id === id);
    let extra: Record<string, string> = {};
    try {
      extra = JSON.parse(row.extra || "{}");
    } catch {}
    return [
      {
        id: row.id,
        event_id: row.event_id,
        event_title_en: row.title_en,
        event_title_ar: row.title_ar,
        is_free: Boolean(row.is_free),
        ticket_id: row.ticket_id,
        event_date: row.event_date,
        created_at: row.created_at,
        email: row.email,
        customer_first_name: row.customer_first_name,
        customer_last_name: row.customer_last_name,
        customer_phone: row.customer_phone,
        extra,
        has_attachment: Boolean(row.attachment_path),
        quantity: own.reduce((sum, item) => sum + Number(item.places), 0),
        paid: own.filter((item) => item.status === "paid").reduce((sum, item) => sum + Number(item.places), 0),
        scanned: Number(scans.find((scan) => scan.booking_id === id)?.scanned ?? 0),
      },
    ];
  });
}

/**
 * A page of the merchant's bookings that match the filters, newest first, and how many match.
 * The page's ids are found first (the index on merchant and creation), then only their rows read.
 */
export async function listBookings(
  db: DB,
  input: { merchantId: number; filters: BookingFilters; page: number; pageSize: BookingPageSize },
) {
  const limit = input.pageSize === "all" ? ALL_CEILING : input.pageSize;
  const offset = input.pageSize === "all" ? 0 : (input.page - 1) * limit;
  const [{ count }, ids] = await Promise.all([
    filtered(db, input.merchantId, input.filters)
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow(),
    filtered(db, input.merchantId, input.filters)
      .select("bookings.id")
      .orderBy("bookings.created_at", "desc")
      .orderBy("bookings.id", "desc")
      .limit(limit)
      .offset(offset)
      .execute(),
  ]);
  return {
    count: Number(count),
    rows: await rowsOf(
      db,
      input.merchantId,
      ids.map((row) => row.id),
    ),
  };
}

/** Every matching booking, newest first, a batch at a time (exports): memory stays flat. */
export async function* iterateBookings(
  db: DB,
  merchantId: number,
  filters: BookingFilters,
  batchSize = 500,
): AsyncGenerator<BookingListRow[]> {
  let after: { created_at: string; id: number } | undefined;
  for (;;) {
    let query = filtered(db, merchantId, filters).select(["bookings.id", "bookings.created_at"]);
    if (after) {
      const last = after;
      query = query.where((eb) =>
        eb.or([
          eb("bookings.created_at", "<", last.created_at),
          eb.and([eb("bookings.created_at", "=", last.created_at), eb("bookings.id", "<", last.id)]),
        ]),
      );
    }
    const ids = await query
      .orderBy("bookings.created_at", "desc")
      .orderBy("bookings.id", "desc")
      .limit(batchSize)
      .execute();
    if (ids.length === 0) return;
    yield await rowsOf(
      db,
      merchantId,
      ids.map((row) => row.id),
    );
    const last = ids[ids.length - 1];
    after = { created_at: last.created_at, id: last.id };
    if (ids.length < batchSize) return;
  }
}

export async function countBookings(db: DB, merchantId: number, filters: BookingFilters) {
  const { count } = await filtered(db, merchantId, filters)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * The list's tiles for the same filters: Booked (paid places), Attended (paid places scanned at the
 * door) and Not attended (the paid places not scanned).
 */
export async function bookingStatistics(db: DB, merchantId: number, filters: BookingFilters) {
  const ids = filtered(db, merchantId, filters).select("bookings.id");
  const row = await db
    .selectFrom("booking_members")
    .innerJoin("booking_items", "booking_items.id", "booking_members.item_id")
    .select((eb) => [
      eb.fn.countAll<number>().as("booked"),
      eb.fn.count<number>("booking_members.scanned_at").as("attended"),
    ])
    .where("booking_members.merchant_id", "=", merchantId)
    .where("booking_items.status", "=", "paid")
    .where("booking_members.booking_id", "in", ids)
    .executeTakeFirstOrThrow();
  const booked = Number(row.booked);
  const attended = Number(row.attended);
  return { booked, attended, not_attended: booked - attended };
}

export type FilterChoice = { value: string; title_en: string; title_ar: string };

export const FILTER_CHOICE_FIELDS = ["event", "ticket", "event_date"] as const;
export type FilterChoiceField = (typeof FILTER_CHOICE_FIELDS)[number];

/**
 * The filters' choices (get-filter-choices): the merchant's events whose title holds the typed
 * text (the event autocomplete), the tickets of an event, or the dates of an event.
 */
export async function bookingFilterChoices(
  db: DB,
  merchantId: number,
  field: FilterChoiceField,
  value: string,
): Promise<FilterChoice[]> {
  if (field === "event") {
    let query = db.selectFrom("events").select(["id", "title_en", "title_ar"]).where("merchant_id", "=", merchantId);
    const text = value.trim().slice(0, 100);
    if (text) {
      const pattern = like(text);
      query = query.where((eb) =>
        eb.or([
          eb(sql<string>`lower(title_en)`, "like", sql<string>`${pattern} escape '\\'`),
          eb(sql<string>`lower(title_ar)`, "like", sql<string>`${pattern} escape '\\'`),
          ...(ID.test(text) ? [eb("id", "=", Number(text))] : []),
        ]),
      );
    }
    const rows = await query
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(text ? 20 : 200)
      .execute();
    return rows.map((row) => ({ value: String(row.id), title_en: row.title_en, title_ar: row.title_ar }));
  }
  if (!ID.test(value.trim())) return [];
  const eventId = Number(value.trim());
  if (field === "ticket") {
    const rows = await db
      .selectFrom("event_tickets")
      .select(["id", "name_en", "name_ar", "start_time", "end_time"])
      .where("merchant_id", "=", merchantId)
      .where("event_id", "=", eventId)
      .orderBy("position")
      .orderBy("id")
      .execute();
    return rows.map((row) => ({
      value: String(row.id),
      title_en: `${row.name_en} (${row.start_time}–${row.end_time})`,
      title_ar: `${row.name_ar} (${row.start_time}–${row.end_time})`,
    }));
  }
  const dates = await db
    .selectFrom("event_ticket_dates")
    .select("event_date")
    .distinct()
    .where("merchant_id", "=", merchantId)
    .where("event_id", "=", eventId)
    .orderBy("event_date")
    .execute();
  return dates.map((row) => ({ value: row.event_date, title_en: row.event_date, title_ar: row.event_date }));
}

/** The merchant's event, with its own fields (the list's extra columns when it is chosen). */
export async function findMerchantEvent(db: DB, merchantId: number, eventId: number) {
  return db
    .selectFrom("events")
    .select(["id", "title_en", "title_ar", "is_free", "status", "currency_code"])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", eventId)
    .executeTakeFirst();
}

export async function merchantEventFields(db: DB, merchantId: number, eventId: number) {
  return db
    .selectFrom("event_fields")
    .select(["name", "label_en", "label_ar", "type", "required"])
    .where("merchant_id", "=", merchantId)
    .where("event_id", "=", eventId)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/** The merchant's published events, for the Create page's first step. */
export async function publishedEvents(db: DB, merchantId: number) {
  return db
    .selectFrom("events")
    .select(["id", "title_en", "title_ar", "is_free", "currency_code", "gateway_codes"])
    .where("merchant_id", "=", merchantId)
    .where("status", "=", "published")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(500)
    .execute();
}

/** A booking's attachment key, when the booking is the merchant's and has one. */
export async function bookingAttachment(db: DB, merchantId: number, bookingId: number) {
  const row = await db
    .selectFrom("bookings")
    .select(["attachment_path", "attachment_name"])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", bookingId)
    .executeTakeFirst();
  return row?.attachment_path ? { key: row.attachment_path, name: row.attachment_name } : undefined;
}
