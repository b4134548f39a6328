import { sql, type Selectable } from "kysely";
import { DateTime } from "luxon";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { EventFieldTable, EventTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { nowIso } from "~/lib/clock.server";
import { randomToken } from "~/lib/crypto.server";
import { checkPicture, JPEG, PNG, sniff, WEBP } from "~/lib/file-types";
import type { Language } from "~/lib/i18n";
import { isSupportedCurrency, parseAmount, toDecimalString } from "~/lib/money";
import { named, word, type TextParams } from "~/lib/outcome";
import { storage } from "~/lib/storage.server";
import { kuwaitNow, ticketAvailability, type TicketAvailability } from "./availability.server";
import type { EventInput, EventTicketInput } from "./event-schema";

export type EventRow = Selectable<EventTable>;
type EventFieldRow = Selectable<EventFieldTable>;

/** A refusal of one field: a translation key and what its message names (the ticket, the date). */
export type EventError = { code: string; params?: TextParams };
/** Errors by field in the API's names; a ticket's or a field's as `tickets.0.price`, `fields.1.name`. */
export type EventErrors = Record<string, EventError[]>;
export type EventOutcome = { ok: true; event: EventRow } | { ok: false; errors: EventErrors; notFound?: boolean };

type Actor = { id: number; username: string };

/** An event with what its pages and the API show of it: its fields and its active tickets with their places. */
export type EventDetails = { event: EventRow; fields: EventFieldRow[]; tickets: TicketAvailability[] };

const IMAGE_LIMIT = 2 * 1024 * 1024;
const IMAGE_NAME = /^event-[\w-]{12}\.(png|jpg|webp)$/;

function add(errors: EventErrors, field: string, code: string, params?: TextParams) {
  (errors[field] ??= []).push(params ? { code, params } : { code });
}

export function findMerchantEvent(db: DB, merchantId: number, eventId: number) {
  return db
    .selectFrom("events")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", eventId)
    .executeTakeFirst();
}

/** The merchant's events of these ids, in the order given. */
export async function findMerchantEvents(db: DB, merchantId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("events")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "in", ids)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadEventDetails(db: DB, event: EventRow): Promise<EventDetails> {
  const [fields, tickets] = await Promise.all([
    db
      .selectFrom("event_fields")
      .selectAll()
      .where("event_id", "=", event.id)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    ticketAvailability(db, event.id),
  ]);
  return { event, fields, tickets };
}

/** The public address of an event's picture, or null. */
export function eventImageUrl(event: Pick<EventRow, "image_path">) {
  return event.image_path ? `/media/${event.image_path}` : null;
}

/**
 * The event as the API answers it. `tickets.*.price` is a decimal string with the currency's
 * decimals; `remaining_qty_per_date` has the dates still offered. Errors of a write name a ticket's
 * or a field's value by its place in the list sent: `tickets.0.price`, `fields.1.name`.
 */
export function serializeEvent({ event, fields, tickets }: EventDetails, lang: Language) {
  return {
    id: event.id,
    slug: event.slug,
    title: lang === "ar" ? event.title_ar : event.title_en,
    title_en: event.title_en,
    title_ar: event.title_ar,
    description_en: event.description_en,
    description_ar: event.description_ar,
    location_en: event.location_en,
    location_ar: event.location_ar,
    lat: event.lat,
    lng: event.lng,
    currency_code: event.currency_code,
    is_free: Boolean(event.is_free),
    status: event.status,
    terms_en: event.terms_en,
    terms_ar: event.terms_ar,
    gateway_codes: event.gateway_codes.split(",").filter(Boolean),
    hold_minutes: event.hold_minutes,
    max_per_booking: event.max_per_booking,
    queue_capacity: event.queue_capacity,
    image_url: eventImageUrl(event),
    fields: fields.map((field) => ({
      name: field.name,
      label_en: field.label_en,
      label_ar: field.label_ar,
      type: field.type,
      required: Boolean(field.required),
    })),
    tickets: tickets.map((ticket) => ({
      id: ticket.id,
      name: lang === "ar" ? ticket.name_ar : ticket.name_en,
      name_en: ticket.name_en,
      name_ar: ticket.name_ar,
      price: toDecimalString(ticket.price, event.currency_code),
      start_time: ticket.start_time,
      end_time: ticket.end_time,
      quantity: ticket.quantity,
      dates: ticket.dates,
      remaining_qty_per_date: ticket.remaining_qty_per_date,
    })),
    created: event.created_at,
    updated: event.updated_at,
  };
}

/** Where a date is still offered in SQL terms (as isOffered): a later day, or today before the ticket's start. */
function offeredSql(at = kuwaitNow()) {
  return sql<boolean>`(event_ticket_dates.event_date > ${at.date} or (event_ticket_dates.event_date = ${at.date} and event_tickets.start_time > ${at.time}))`;
}

export type EventListRow = Awaited<ReturnType<typeof listMerchantEvents>>[number];

/**
 * The merchant's events, newest first, with their first and last dates and their places taken of
 * the total (active tickets). `available`: published ones with places left on a date still
 * offered; `q`: a part of a title or of the slug.
 */
export async function listMerchantEvents(db: DB, merchantId: number, query: { available?: boolean; q?: string } = {}) {
  let events = db
    .selectFrom("events")
    .select(["id", "slug", "title_en", "title_ar", "status", "currency_code", "is_free", "image_path", "created_at"])
    .where("merchant_id", "=", merchantId);
  const q = query.q?.trim().toLowerCase();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
    events = events.where((eb) =>
      eb.or([
        eb(sql`lower(title_en)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(title_ar)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(slug)`, "like", sql`${pattern} escape '\\'`),
      ]),
    );
  }
  if (query.available) {
    events = events
      .where("status", "=", "published")
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("event_ticket_dates")
            .innerJoin("event_tickets", "event_tickets.id", "event_ticket_dates.ticket_id")
            .select("event_ticket_dates.id")
            .whereRef("event_ticket_dates.event_id", "=", "events.id")
            .where("event_tickets.is_active", "=", 1)
            .whereRef("event_ticket_dates.taken", "<", "event_ticket_dates.quantity")
            .where(offeredSql()),
        ),
      );
  }
  const rows = await events.orderBy("id", "desc").limit(500).execute();
  if (rows.length === 0) return [];
  const places = await db
    .selectFrom("event_ticket_dates")
    .innerJoin("event_tickets", "event_tickets.id", "event_ticket_dates.ticket_id")
    .select((eb) => [
      "event_ticket_dates.event_id",
      eb.fn.min("event_ticket_dates.event_date").as("first_date"),
      eb.fn.max("event_ticket_dates.event_date").as("last_date"),
      eb.fn.sum<number>("event_ticket_dates.taken").as("taken"),
      eb.fn.sum<number>("event_ticket_dates.quantity").as("total"),
    ])
    .where("event_ticket_dates.merchant_id", "=", merchantId)
    .where(
      "event_ticket_dates.event_id",
      "in",
      rows.map((row) => row.id),
    )
    .where("event_tickets.is_active", "=", 1)
    .groupBy("event_ticket_dates.event_id")
    .execute();
  // Of the places taken, those held by bookings still waiting for their payment.
  const holds = await db
    .selectFrom("booking_items")
    .innerJoin("event_ticket_dates", "event_ticket_dates.id", "booking_items.ticket_date_id")
    .innerJoin("event_tickets", "event_tickets.id", "event_ticket_dates.ticket_id")
    .select((eb) => ["event_ticket_dates.event_id", eb.fn.sum<number | string>("booking_items.quantity").as("held")])
    .where("booking_items.merchant_id", "=", merchantId)
    .where("booking_items.status", "=", "pending")
    .where(
      "event_ticket_dates.event_id",
      "in",
      rows.map((row) => row.id),
    )
    .where("event_tickets.is_active", "=", 1)
    .groupBy("event_ticket_dates.event_id")
    .execute();
  const byEvent = new Map(places.map((row) => [row.event_id, row]));
  const heldByEvent = new Map(holds.map((row) => [row.event_id, Number(row.held)]));
  return rows.map((row) => {
    const own = byEvent.get(row.id);
    return {
      ...row,
      first_date: own?.first_date ?? null,
      last_date: own?.last_date ?? null,
      taken: Number(own?.taken ?? 0),
      total: Number(own?.total ?? 0),
      held: heldByEvent.get(row.id) ?? 0,
    };
  });
}

/** A published event by its slug (the public pages). */
export function findPublishedEvent(db: DB, slug: string) {
  return db
    .selectFrom("events")
    .selectAll()
    .where("slug", "=", slug)
    .where("status", "=", "published")
    .executeTakeFirst();
}

/** Published events with at least one date still offered, the soonest first (the public list), of one merchant when given. */
export async function listPublishedEvents(db: DB, options: { merchantId?: number } = {}) {
  let query = db
    .selectFrom("events")
    .innerJoin("event_ticket_dates", "event_ticket_dates.event_id", "events.id")
    .innerJoin("event_tickets", "event_tickets.id", "event_ticket_dates.ticket_id")
    .select((eb) => ["events.id", eb.fn.min("event_ticket_dates.event_date").as("next_date")])
    .where("events.status", "=", "published")
    .where("event_tickets.is_active", "=", 1)
    .where(offeredSql());
  if (options.merchantId !== undefined) query = query.where("events.merchant_id", "=", options.merchantId);
  const next = await query.groupBy("events.id").execute();
  if (next.length === 0) return [];
  const events = await db
    .selectFrom("events")
    .selectAll()
    .where(
      "id",
      "in",
      next.map((row) => row.id),
    )
    .execute();
  const dateOf = new Map(next.map((row) => [row.id, String(row.next_date)]));
  return events
    .map((event) => ({ ...event, next_date: dateOf.get(event.id)! }))
    .sort((a, b) => a.next_date.localeCompare(b.next_date) || a.id - b.id);
}

/** A real calendar date as "YYYY-MM-DD". */
function isCalendarDate(value: string) {
  return DateTime.fromFormat(value, "yyyy-MM-dd", { zone: "utc" }).isValid;
}

type ExistingTicket = {
  id: number;
  name_en: string;
  name_ar: string;
  price: number;
  start_time: string;
  end_time: string;
  quantity: number;
  is_active: number;
};
type ExistingDate = {
  id: number;
  ticket_id: number;
  event_date: string;
  quantity: number;
  taken: number;
  booked: number;
};

/** A ticket as it will be written: its price in minor units, its dates without repeats. */
type PlannedTicket = { index: number; id?: number; input: EventTicketInput; price: number; dates: string[] };

/**
 * Checks what does not need a lock: required texts, the currency, the gateways of a paid event,
 * each ticket's price, times and dates, and the fields' names. Answers the tickets as they will be written.
 */
async function checkEvent(
  db: DB,
  merchantId: number,
  merged: { currency: string; isFree: boolean; status: string; gatewayCodes: string[] },
  input: EventInput,
  existing: { tickets: ExistingTicket[] } | null,
  errors: EventErrors,
): Promise<PlannedTicket[] | null> {
  if (!existing) {
    for (const name of ["slug", "title_en", "title_ar", "currency_code"] as const)
      if (!input[name]) add(errors, name, "errors.required");
  } else {
    for (const name of ["title_en", "title_ar"] as const) if (input[name] === "") add(errors, name, "errors.required");
  }
  const currencyOk = isSupportedCurrency(merged.currency);
  if (input.currency_code !== undefined && input.currency_code !== "" && !currencyOk)
    add(errors, "currency_code", "event_setup.errors.currency");

  if (
    !merged.isFree &&
    currencyOk &&
    (input.gateway_codes !== undefined || input.is_free !== undefined || input.currency_code !== undefined || !existing)
  ) {
    const enabled = await listMerchantGateways(db, merchantId, { enabledOnly: true });
    const usable = (code: string) =>
      enabled.some(
        (gateway) => gateway.code === code && gateway.kind !== "cod" && supportsCurrency(gateway, merged.currency),
      );
    const refused = merged.gatewayCodes.filter((code) => !usable(code));
    if (refused.length)
      add(errors, "gateway_codes", "event_setup.errors.gateway", {
        gateways: refused.join(", "),
        currency: merged.currency,
      });
    else if (merged.gatewayCodes.length === 0) add(errors, "gateway_codes", "event_setup.errors.no_gateway");
  }

  if (input.tickets === undefined) return null;
  const known = new Map((existing?.tickets ?? []).map((ticket) => [ticket.id, ticket]));
  const seen = new Set<number>();
  return input.tickets.map((ticket, index) => {
    const at = `tickets.${index}`;
    let price = 0;
    const priceText = ticket.price?.trim() ?? "";
    if (merged.isFree) {
      if (priceText && !(parseAmount(priceText, "KWD").ok && /^[0.]*$/.test(priceText)))
        add(errors, `${at}.price`, "event_setup.errors.free_price");
    } else if (!priceText) add(errors, `${at}.price`, "errors.required");
    else if (currencyOk) {
      const parsed = parseAmount(priceText, merged.currency);
      if (parsed.ok) price = parsed.minor;
      else add(errors, `${at}.price`, parsed.error);
    }
    if (ticket.end_time <= ticket.start_time) add(errors, `${at}.end_time`, "event_setup.errors.end_time");
    const dates = [...new Set(ticket.dates ?? [])].sort();
    const wrong = dates.filter((date) => !isCalendarDate(date));
    if (wrong.length) add(errors, `${at}.dates`, "event_setup.errors.calendar_date", { dates: wrong.join(", ") });
    if (ticket.id !== undefined) {
      if (!known.has(ticket.id) || seen.has(ticket.id)) add(errors, `${at}.id`, "event_setup.errors.ticket_id");
      seen.add(ticket.id);
    }
    return { index, id: ticket.id, input: ticket, price, dates };
  });
}

function checkFields(input: EventInput, errors: EventErrors) {
  const names = new Set<string>();
  input.fields?.forEach((field, index) => {
    if (names.has(field.name)) add(errors, `fields.${index}.name`, "event_setup.errors.field_name_taken");
    names.add(field.name);
  });
}

async function slugTaken(db: DB, slug: string, eventId?: number) {
  let query = db.selectFrom("events").select("id").where("slug", "=", slug);
  if (eventId !== undefined) query = query.where("id", "!=", eventId);
  return Boolean(await query.executeTakeFirst());
}

function isUniqueViolation(error: unknown) {
  const text = String((error as { message?: string })?.message ?? error);
  return /unique/i.test(text) && /slug/i.test(text);
}

/** The stored key of a picture put for this merchant (putEventImage), or undefined. */
function ownImageKey(merchantId: number, key: string | undefined) {
  if (!key) return undefined;
  const [folder, owner, name] = key.split("/");
  return folder === "event" && owner === String(merchantId) && IMAGE_NAME.test(name ?? "") ? key : undefined;
}

/** Creates an event with its fields and tickets (each ticket's places on each of its dates), in one transaction. */
export async function createEvent(
  db: DB,
  input: { merchantId: number; actor: Actor; event: EventInput; imageKey?: string; ip?: string | null },
): Promise<EventOutcome> {
  const value = input.event;
  const errors: EventErrors = {};
  const merged = {
    currency: value.currency_code ?? "",
    isFree: value.is_free ?? false,
    status: value.status ?? "draft",
    gatewayCodes: value.gateway_codes ?? [],
  };
  const planned = (await checkEvent(db, input.merchantId, merged, value, null, errors)) ?? [];
  checkFields(value, errors);
  if (merged.status === "published" && !planned.some((ticket) => ticket.dates.length > 0))
    add(errors, "tickets", "event_setup.errors.publish_needs_ticket");
  if (value.slug && (await slugTaken(db, value.slug))) add(errors, "slug", "event_setup.errors.slug_taken");
  if (Object.keys(errors).length) return { ok: false, errors };

  try {
    const event = await writeTransaction(db, async (trx) => {
      const at = nowIso();
      const row = await trx
        .insertInto("events")
        .values({
          merchant_id: input.merchantId,
          slug: value.slug!,
          title_en: value.title_en!,
          title_ar: value.title_ar!,
          description_en: value.description_en ?? "",
          description_ar: value.description_ar ?? "",
          image_path: ownImageKey(input.merchantId, input.imageKey) ?? null,
          location_en: value.location_en ?? "",
          location_ar: value.location_ar ?? "",
          lat: value.lat ?? null,
          lng: value.lng ?? null,
          currency_code: merged.currency,
          is_free: merged.isFree ? 1 : 0,
          terms_en: value.terms_en ?? "",
          terms_ar: value.terms_ar ?? "",
          status: merged.status,
          gateway_codes: merged.gatewayCodes.join(","),
          hold_minutes: value.hold_minutes ?? 15,
          max_per_booking: value.max_per_booking ?? 10,
          queue_capacity: value.queue_capacity ?? null,
          created_by: input.actor.id,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeFields(trx, input.merchantId, row.id, value);
      for (const ticket of planned) await insertTicket(trx, input.merchantId, row.id, ticket);
      await recordAudit(trx, {
        merchantId: input.merchantId,
        actor: input.actor,
        action: "event_created",
        params: {
          title: named(row.title_en, row.title_ar),
          slug: row.slug,
          status: word(`event_setup.statuses.${row.status}`),
        },
        objectType: "event",
        objectId: row.id,
        ip: input.ip ?? null,
      });
      return row;
    });
    return { ok: true, event };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { slug: [{ code: "event_setup.errors.slug_taken" }] } };
    throw error;
  }
}

async function writeFields(trx: DB, merchantId: number, eventId: number, value: EventInput) {
  if (value.fields === undefined) return;
  await trx.deleteFrom("event_fields").where("event_id", "=", eventId).execute();
  if (value.fields.length === 0) return;
  await trx
    .insertInto("event_fields")
    .values(
      value.fields.map((field, index) => ({
        merchant_id: merchantId,
        event_id: eventId,
        name: field.name,
        label_en: field.label_en,
        label_ar: field.label_ar,
        type: field.type,
        required: field.required ? 1 : 0,
        position: index + 1,
      })),
    )
    .execute();
}

async function insertTicket(trx: DB, merchantId: number, eventId: number, ticket: PlannedTicket) {
  const row = await trx
    .insertInto("event_tickets")
    .values({
      merchant_id: merchantId,
      event_id: eventId,
      name_en: ticket.input.name_en,
      name_ar: ticket.input.name_ar,
      price: ticket.price,
      start_time: ticket.input.start_time,
      end_time: ticket.input.end_time,
      quantity: ticket.input.quantity,
      position: ticket.index + 1,
      is_active: 1,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (ticket.dates.length) {
    await trx
      .insertInto("event_ticket_dates")
      .values(
        ticket.dates.map((date) => ({
          merchant_id: merchantId,
          event_id: eventId,
          ticket_id: row.id,
          event_date: date,
          quantity: ticket.input.quantity,
          taken: 0,
        })),
      )
      .execute();
  }
  return row.id;
}

/**
 * Changes what `event` names and nothing else (PATCH). Tickets, when given, are the event's whole
 * list: matched by `id`, new ones added, those left out taken off sale (never deleted: bookings
 * keep them). A date's quantity may not go below its places taken, and a date that has bookings
 * may not be removed. Fields, when given, replace the event's fields.
 */
export async function updateEvent(
  db: DB,
  input: {
    merchantId: number;
    eventId: number;
    actor: Actor;
    event: EventInput;
    imageKey?: string;
    ip?: string | null;
  },
): Promise<EventOutcome> {
  const value = input.event;
  const current = await findMerchantEvent(db, input.merchantId, input.eventId);
  if (!current) return { ok: false, errors: {}, notFound: true };
  const tickets = await db
    .selectFrom("event_tickets")
    .select(["id", "name_en", "name_ar", "price", "start_time", "end_time", "quantity", "is_active"])
    .where("event_id", "=", current.id)
    .execute();
  const errors: EventErrors = {};
  const merged = {
    currency: value.currency_code ?? current.currency_code,
    isFree: value.is_free ?? Boolean(current.is_free),
    status: value.status ?? current.status,
    gatewayCodes: value.gateway_codes ?? current.gateway_codes.split(",").filter(Boolean),
  };
  const planned = await checkEvent(db, input.merchantId, merged, value, { tickets }, errors);
  checkFields(value, errors);
  if (
    merged.currency !== current.currency_code &&
    value.tickets === undefined &&
    tickets.some((ticket) => ticket.price > 0)
  ) {
    // Prices are kept in minor units of the currency: a new currency needs its prices again.
    add(errors, "tickets", "event_setup.errors.currency_needs_prices");
  }
  if (value.slug && value.slug !== current.slug && (await slugTaken(db, value.slug, current.id)))
    add(errors, "slug", "event_setup.errors.slug_taken");
  if (Object.keys(errors).length) return { ok: false, errors };

  try {
    return await writeTransaction(db, async (trx): Promise<EventOutcome> => {
      // The dates as they are now, their rows locked on Postgres so no booking slips between the check and the change.
      let datesQuery = trx
        .selectFrom("event_ticket_dates")
        .select((eb) => [
          "event_ticket_dates.id",
          "event_ticket_dates.ticket_id",
          "event_ticket_dates.event_date",
          "event_ticket_dates.quantity",
          "event_ticket_dates.taken",
          eb
            .selectFrom("booking_items")
            .select((inner) => inner.fn.countAll<number>().as("n"))
            .whereRef("booking_items.ticket_date_id", "=", "event_ticket_dates.id")
            .as("booked"),
        ])
        .where("event_ticket_dates.event_id", "=", current.id);
      if (engineOf(trx) === "postgres") datesQuery = datesQuery.forUpdate();
      const dates: ExistingDate[] = (await datesQuery.execute()).map((row) => ({
        ...row,
        booked: Number(row.booked ?? 0),
      }));

      const activeAfter = planned
        ? planned.filter((ticket) => ticket.dates.length > 0).length
        : countActiveWithDates(tickets, dates);
      if (merged.status === "published" && activeAfter === 0)
        return { ok: false, errors: { tickets: [{ code: "event_setup.errors.publish_needs_ticket" }] } };

      const refused: EventErrors = {};
      if (planned) {
        for (const ticket of planned) {
          if (ticket.id === undefined) continue;
          const own = tickets.find((row) => row.id === ticket.id)!;
          const name = named(ticket.input.name_en || own.name_en, ticket.input.name_ar || own.name_ar);
          for (const date of dates.filter((row) => row.ticket_id === ticket.id)) {
            if (!ticket.dates.includes(date.event_date)) {
              if (date.booked > 0)
                add(refused, `tickets.${ticket.index}.dates`, "event_setup.errors.date_booked", {
                  ticket: name,
                  date: date.event_date,
                });
            } else if (ticket.input.quantity < date.taken) {
              add(refused, `tickets.${ticket.index}.quantity`, "event_setup.errors.quantity_below_taken", {
                ticket: name,
                date: date.event_date,
                taken: date.taken,
              });
            }
          }
        }
      }
      if (Object.keys(refused).length) return { ok: false, errors: refused };

      const at = nowIso();
      const changes: Partial<EventRow> = { updated_at: at };
      for (const name of [
        "slug",
        "title_en",
        "title_ar",
        "description_en",
        "description_ar",
        "location_en",
        "location_ar",
        "terms_en",
        "terms_ar",
        "hold_minutes",
        "max_per_booking",
      ] as const) {
        if (value[name] !== undefined) (changes as Record<string, unknown>)[name] = value[name];
      }
      if (value.lat !== undefined) changes.lat = value.lat;
      if (value.lng !== undefined) changes.lng = value.lng;
      if (value.queue_capacity !== undefined) changes.queue_capacity = value.queue_capacity;
      if (value.currency_code !== undefined) changes.currency_code = merged.currency;
      if (value.is_free !== undefined) changes.is_free = merged.isFree ? 1 : 0;
      if (value.status !== undefined) changes.status = merged.status as EventRow["status"];
      if (value.gateway_codes !== undefined) changes.gateway_codes = merged.gatewayCodes.join(",");
      const image = ownImageKey(input.merchantId, input.imageKey);
      if (image) changes.image_path = image;
      const row = await trx
        .updateTable("events")
        .set(changes)
        .where("id", "=", current.id)
        .where("merchant_id", "=", input.merchantId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeFields(trx, input.merchantId, current.id, value);
      if (planned) await writeTickets(trx, input.merchantId, current.id, planned, tickets, dates);

      await recordAudit(trx, {
        merchantId: input.merchantId,
        actor: input.actor,
        action: "event_updated",
        params: { title: named(row.title_en, row.title_ar), slug: row.slug },
        objectType: "event",
        objectId: row.id,
        ip: input.ip ?? null,
      });
      if (row.status !== current.status) {
        await recordAudit(trx, {
          merchantId: input.merchantId,
          actor: input.actor,
          action: "event_status_changed",
          params: { title: named(row.title_en, row.title_ar), status: word(`event_setup.statuses.${row.status}`) },
          objectType: "event",
          objectId: row.id,
          ip: input.ip ?? null,
        });
      }
      return { ok: true, event: row };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { slug: [{ code: "event_setup.errors.slug_taken" }] } };
    throw error;
  }
}

function countActiveWithDates(tickets: ExistingTicket[], dates: ExistingDate[]) {
  return tickets.filter((ticket) => ticket.is_active && dates.some((date) => date.ticket_id === ticket.id)).length;
}

async function writeTickets(
  trx: DB,
  merchantId: number,
  eventId: number,
  planned: PlannedTicket[],
  tickets: ExistingTicket[],
  dates: ExistingDate[],
) {
  const kept = new Set<number>();
  for (const ticket of planned) {
    if (ticket.id === undefined) {
      await insertTicket(trx, merchantId, eventId, ticket);
      continue;
    }
    kept.add(ticket.id);
    await trx
      .updateTable("event_tickets")
      .set({
        name_en: ticket.input.name_en,
        name_ar: ticket.input.name_ar,
        price: ticket.price,
        start_time: ticket.input.start_time,
        end_time: ticket.input.end_time,
        quantity: ticket.input.quantity,
        position: ticket.index + 1,
        is_active: 1,
      })
      .where("id", "=", ticket.id)
      .where("event_id", "=", eventId)
      .execute();
    const own = dates.filter((row) => row.ticket_id === ticket.id);
    const removed = own.filter((row) => !ticket.dates.includes(row.event_date)).map((row) => row.id);
    if (removed.length)
      await trx.deleteFrom("event_ticket_dates").where("id", "in", removed).where("taken", "=", 0).execute();
    await trx
      .updateTable("event_ticket_dates")
      .set({ quantity: ticket.input.quantity })
      .where("ticket_id", "=", ticket.id)
      .execute();
    const added = ticket.dates.filter((date) => !own.some((row) => row.event_date === date));
    if (added.length) {
      await trx
        .insertInto("event_ticket_dates")
        .values(
          added.map((date) => ({
            merchant_id: merchantId,
            event_id: eventId,
            ticket_id: ticket.id!,
            event_date: date,
            quantity: ticket.input.quantity,
            taken: 0,
          })),
        )
        .execute();
    }
  }
  const leftOut = tickets.filter((ticket) => !kept.has(ticket.id) && ticket.is_active).map((ticket) => ticket.id);
  if (leftOut.length)
    await trx
      .updateTable("event_tickets")
      .set({ is_active: 0 })
      .where("id", "in", leftOut)
      .where("event_id", "=", eventId)
      .execute();
}

type UploadedFile = { size: number; arrayBuffer(): Promise<ArrayBuffer> };

/**
 * Checks an event's picture (at most 2 MB; PNG, JPEG or WebP by its first bytes; checkPicture's width and height) and stores it under
 * a new name; answers its storage key. Writes nothing in the database (the editor keeps the key
 * while the rest of the form is corrected).
 */
export async function putEventImage(
  merchantId: number,
  file: UploadedFile,
): Promise<{ ok: true; key: string } | { ok: false; error: string }> {
  if (file.size === 0) return { ok: false, error: "event_setup.errors.image_empty" };
  if (file.size > IMAGE_LIMIT) return { ok: false, error: "event_setup.errors.image_too_large" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const picture = checkPicture(bytes, [PNG, JPEG, WEBP]);
  if (!picture.ok)
    return {
      ok: false,
      error: picture.reason === "dimensions" ? "errors.picture_dimensions" : "event_setup.errors.image_type",
    };
  const key = `event/${merchantId}/event-${randomToken(9)}.${picture.type.extension}`;
  await storage().put(key, bytes);
  return { ok: true, key };
}

/** Sets an event's picture (the API's image upload). */
export async function storeEventImage(
  db: DB,
  input: { merchantId: number; eventId: number; actor: Actor; file: UploadedFile; ip?: string | null },
): Promise<EventOutcome> {
  const current = await findMerchantEvent(db, input.merchantId, input.eventId);
  if (!current) return { ok: false, errors: {}, notFound: true };
  const stored = await putEventImage(input.merchantId, input.file);
  if (!stored.ok) return { ok: false, errors: { image: [{ code: stored.error }] } };
  const event = await writeTransaction(db, async (trx) => {
    const row = await trx
      .updateTable("events")
      .set({ image_path: stored.key, updated_at: nowIso() })
      .where("id", "=", current.id)
      .where("merchant_id", "=", input.merchantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "event_image_changed",
      params: { title: named(row.title_en, row.title_ar) },
      objectType: "event",
      objectId: row.id,
      ip: input.ip ?? null,
    });
    return row;
  });
  return { ok: true, event };
}

/** A stored event picture and its type (sniffed again), or null. */
export async function readEventImage(merchantId: number, name: string) {
  if (!IMAGE_NAME.test(name)) return null;
  const bytes = await storage().get(`event/${merchantId}/${name}`);
  if (!bytes) return null;
  const kind = sniff(bytes, [PNG, JPEG, WEBP]);
  return kind ? { bytes, type: kind.type } : null;
}
