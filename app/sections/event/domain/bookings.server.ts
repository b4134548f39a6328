import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";
import { addressGroup } from "~/domain/identity/throttle.server";
import type { Selectable } from "kysely";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { BookingItemStatus, EventFieldTable, EventTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { Actor } from "~/domain/identity/permissions";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { isMerchantAttachmentKey, storeAttachment } from "~/domain/payments/attachments.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { requestOperation, type OperationOutcome } from "~/domain/payments/operations.server";
import { returnPaymentOf } from "~/domain/payments/returns.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import {
  createTransaction,
  transitionTransaction,
  type TransitionEvent,
} from "~/domain/payments/transaction-state.server";
import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import {
  expireUnstartedPayment,
  lockCheckoutsOf,
  MAX_UNPAID_CHECKOUTS,
  noAttemptStarted,
  unstartedHoldsBefore,
} from "~/domain/payments/unpaid-holds.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { randomToken } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import { money, type TextParams } from "~/lib/outcome";
import { isOffered, kuwaitNow } from "./availability.server";
import type { BookingInput } from "./booking-schema";
import { queueBookingMail } from "./booking-mail.server";
import { newMemberNumber } from "./tickets.server";
import { PASS_USED, takePass } from "./waiting-zone.server";

export type BookingState = BookingItemStatus;

type EventRow = Selectable<EventTable>;
type EventField = Selectable<EventFieldTable>;

export type CreatedBooking = { id: number; uuid: string; state: "paid" | "pending"; checkout_url: string | null };

export type BookingOutcome<T> = { ok: true } & T;
export type BookingRefusal = { ok: false; errors: FieldErrors; params?: TextParams };

/** An event's own fields, in the merchant's order. */
export function eventFields(db: DB, eventId: number) {
  return db
    .selectFrom("event_fields")
    .selectAll()
    .where("event_id", "=", eventId)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/** The event a booking names: a published one by its slug (customers), or one of the merchant's by id or slug (staff). */
async function findBookableEvent(
  db: DB,
  ref: string | number,
  merchantId: number | undefined,
): Promise<EventRow | undefined> {
  let query = db.selectFrom("events").selectAll();
  if (merchantId === undefined) {
    // Customers name an event by its slug alone, whatever digits it may be made of.
    query = query.where("slug", "=", String(ref));
  } else {
    query = query.where("merchant_id", "=", merchantId);
    if (typeof ref === "number" || /^\d{1,10}$/.test(ref)) {
      const id = Number(ref);
      query = query.where((eb) => eb.or([eb("id", "=", id), eb("slug", "=", String(ref))]));
    } else query = query.where("slug", "=", ref);
  }
  const found = await query.execute();
  // Staff: an id wins over a digit-only slug of the same digits.
  const event = found.find((row) => row.id === Number(ref)) ?? found[0];
  return event?.status === "published" ? event : undefined;
}

/** "+96550001234" for a valid phone typed with or without its country code. */
export function normalizeBookingPhone(value: string, country: string): string | undefined {
  const parsed = parsePhoneNumberFromString(value, (country.toUpperCase() as CountryCode) || "KW");
  return parsed?.isValid() ? parsed.number : undefined;
}

/**
 * Checks the answers to the event's own fields: required ones given, phones valid, attachments kept
 * (a file is stored first, so a mistake elsewhere does not lose it). Unknown names are dropped.
 */
async function checkExtra(
  merchantId: number,
  fields: readonly EventField[],
  extra: BookingInput["extra"],
  country: string,
  errors: FieldErrors,
) {
  const answers: Record<string, string> = {};
  let attachment: { key: string; name: string } | undefined;
  for (const field of fields) {
    const value = extra[field.name];
    if (value instanceof File && value.size > 0) {
      if (field.type !== "attachment") continue;
      const stored = await storeAttachment(merchantId, value);
      if (stored.ok) {
        answers[field.name] = stored.key;
        attachment = { key: stored.key, name: stored.originalName };
      } else errors[field.name] = [stored.error];
      continue;
    }
    const text = typeof value === "string" ? value.trim() : "";
    if (!text) {
      if (field.required) errors[field.name] = ["errors.required"];
      continue;
    }
    if (field.type === "phone") {
      const phone = normalizeBookingPhone(text, country);
      if (phone) answers[field.name] = phone;
      else errors[field.name] = ["event.errors.phone"];
    } else if (field.type === "attachment") {
      if (isMerchantAttachmentKey(merchantId, text)) {
        answers[field.name] = text;
        attachment = { key: text, name: text.split("/").pop() ?? "attachment" };
      } else errors[field.name] = ["event.errors.attachment"];
    } else answers[field.name] = text.slice(0, 500);
  }
  return { answers, attachment };
}

/**
 * Takes `quantity` places of a ticket's date, or none: one conditional update, which the database
 * applies against the row as it is when the update runs (a row lock on Postgres, the one writer on
 * SQLite), so no two bookings can take the same last place. Answers how many were left when it
 * could not.
 */
export async function takePlaces(
  trx: DB,
  ticketDateId: number,
  quantity: number,
): Promise<{ ok: true } | { ok: false; left: number }> {
  const taken = await trx
    .updateTable("event_ticket_dates")
    .set((eb) => ({ taken: eb("taken", "+", quantity) }))
    .where("id", "=", ticketDateId)
    .where((eb) => eb(eb("taken", "+", quantity), "<=", eb.ref("quantity")))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return { ok: true };
  const row = await trx
    .selectFrom("event_ticket_dates")
    .select(["quantity", "taken"])
    .where("id", "=", ticketDateId)
    .executeTakeFirst();
  return { ok: false, left: row ? Math.max(0, row.quantity - row.taken) : 0 };
}

async function returnPlaces(trx: DB, ticketDateId: number, quantity: number) {
  await trx
    .updateTable("event_ticket_dates")
    .set((eb) => ({ taken: eb("taken", "-", quantity) }))
    .where("id", "=", ticketDateId)
    .execute();
}

/**
 * Ends one hold whose time is up, inside the caller's database transaction: its transaction expires
 * (unless a payment got there first: then the hook has already confirmed the item) and the item,
 * if it is still pending and still past its time, gives its places back.
 */
export async function endHold(trx: DB, item: { id: number; transaction_id: string | null }) {
  if (item.transaction_id)
    await transitionTransaction(trx, item.transaction_id, "expired", { kind: "expired" }, { from: PAYABLE_STATES });
  await releaseItem(trx, item.id, "hold_expired", { only: ["pending"], heldBefore: nowIso() });
}

/** The holds whose time is up, of one ticket's date when given. */
function lapsedHolds(db: DB, scope: { ticketDateId?: number } = {}) {
  let query = db
    .selectFrom("booking_items")
    .select(["id", "transaction_id"])
    .where("status", "=", "pending")
    .where("hold_expires_at", "<", nowIso());
  if (scope.ticketDateId !== undefined) query = query.where("ticket_date_id", "=", scope.ticketDateId);
  return query.orderBy("id").limit(500).execute();
}

/**
 * Customers' holds whose payment never started within UNPAID_HOLD_MS, of one ticket's date when
 * given: their places go back before the event's own hold time. A booking staff made (and send the
 * link of) keeps the event's hold time.
 */
function unstartedHolds(db: DB, scope: { ticketDateId?: number } = {}) {
  let query = db
    .selectFrom("booking_items")
    .innerJoin("transactions", "transactions.id", "booking_items.transaction_id")
    .select(["booking_items.id", "booking_items.transaction_id", "booking_items.quantity"])
    .where("booking_items.status", "=", "pending")
    .where("booking_items.created_at", "<", unstartedHoldsBefore())
    .where("transactions.initiator_user_id", "is", null)
    .where(noAttemptStarted("booking_items.transaction_id"));
  if (scope.ticketDateId !== undefined) query = query.where("booking_items.ticket_date_id", "=", scope.ticketDateId);
  return query.orderBy("booking_items.id").limit(500).execute();
}

/** Ends the holds of a ticket's date whose time is up, in the caller's database transaction (a booking that found the date full). */
export async function releaseExpiredHolds(trx: DB, scope: { ticketDateId: number }) {
  const lapsed = await lapsedHolds(trx, scope);
  for (const item of lapsed) await endHold(trx, item);
  let ended = lapsed.length;
  for (const item of await unstartedHolds(trx, scope))
    if (await expireUnstartedPayment(trx, item.transaction_id!)) ended += 1;
  return ended;
}

/** The hold sweep: every hold whose time is up, each in its own database transaction. */
export async function releaseAllExpiredHolds(db: DB) {
  const lapsed = await lapsedHolds(db);
  for (const item of lapsed) await writeTransaction(db, (trx) => endHold(trx, item));
  const unstarted = await unstartedHolds(db);
  for (const item of unstarted) await writeTransaction(db, (trx) => expireUnstartedPayment(trx, item.transaction_id!));
  return lapsed.length + unstarted.length;
}

/**
 * Puts an item's places back on sale, once: one conditional update moves it to `cancel` and says
 * which places it held, so that of two writers racing to release it only one gives them back. `only`
 * limits the states it may be released from; `heldBefore`, to a hold whose time is up by then.
 */
async function releaseItem(
  trx: DB,
  itemId: number,
  note: string,
  options: { only?: readonly BookingItemStatus[]; heldBefore?: string } = {},
) {
  let query = trx
    .updateTable("booking_items")
    .set({ status: "cancel", hold_expires_at: null, note, updated_at: nowIso() })
    .where("id", "=", itemId)
    .where("status", "in", options.only ?? (["pending", "paid"] as const));
  if (options.heldBefore) query = query.where("hold_expires_at", "<", options.heldBefore);
  const released = await query.returning(["ticket_date_id", "quantity"]).executeTakeFirst();
  if (!released) return false;
  await returnPlaces(trx, released.ticket_date_id, released.quantity);
  return true;
}

/** Locks a booking for a change by staff (Postgres; SQLite has one writer): its writers queue, and each reads what the last one left. */
async function lockBooking(trx: DB, merchantId: number, id: number) {
  let query = trx.selectFrom("bookings").selectAll().where("merchant_id", "=", merchantId).where("id", "=", id);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

async function addMembers(
  trx: DB,
  input: { merchantId: number; eventId: number; bookingId: number; itemId: number; quantity: number },
) {
  const { last } = await trx
    .selectFrom("booking_members")
    .select((eb) => eb.fn.max("position").as("last"))
    .where("booking_id", "=", input.bookingId)
    .executeTakeFirstOrThrow();
  const start = Number(last ?? 0);
  const rows = Array.from({ length: input.quantity }, (_, index) => ({
    merchant_id: input.merchantId,
    event_id: input.eventId,
    booking_id: input.bookingId,
    item_id: input.itemId,
    number: newMemberNumber(),
    position: start + index + 1,
  }));
  await trx.insertInto("booking_members").values(rows).execute();
}

type TicketDate = {
  ticketDateId: number;
  ticketId: number;
  price: number;
  startTime: string;
  endTime: string;
  nameEn: string;
  nameAr: string;
};

/** The ticket's date row, when the ticket is active and of this event and the date one of its dates. */
async function findTicketDate(
  db: DB,
  eventId: number,
  ticketId: number,
  date: string,
): Promise<TicketDate | undefined> {
  const row = await db
    .selectFrom("event_tickets")
    .innerJoin("event_ticket_dates", "event_ticket_dates.ticket_id", "event_tickets.id")
    .select([
      "event_ticket_dates.id as ticketDateId",
      "event_tickets.id as ticketId",
      "event_tickets.price",
      "event_tickets.start_time",
      "event_tickets.end_time",
      "event_tickets.name_en",
      "event_tickets.name_ar",
    ])
    .where("event_tickets.event_id", "=", eventId)
    .where("event_tickets.id", "=", ticketId)
    .where("event_tickets.is_active", "=", 1)
    .where("event_ticket_dates.event_date", "=", date)
    .executeTakeFirst();
  return (
    row && {
      ticketDateId: row.ticketDateId,
      ticketId: row.ticketId,
      price: row.price,
      startTime: row.start_time,
      endTime: row.end_time,
      nameEn: row.name_en,
      nameAr: row.name_ar,
    }
  );
}

async function ticketExists(db: DB, eventId: number, ticketId: number) {
  return Boolean(
    await db
      .selectFrom("event_tickets")
      .select("id")
      .where("event_id", "=", eventId)
      .where("id", "=", ticketId)
      .where("is_active", "=", 1)
      .executeTakeFirst(),
  );
}

/** The sold-out or "only n left" message for a quantity that does not fit. */
function shortOf(left: number): { errors: FieldErrors; params: TextParams } {
  return left === 0
    ? { errors: { quantity: ["event.errors.sold_out"] }, params: { left } }
    : { errors: { quantity: ["event.errors.only_left"] }, params: { left } };
}

/** The places of a ticket's date not taken, counting holds whose time is up (or whose payment never started) as free once the others do not reach `wanted`. */
async function placesLeft(db: DB, ticketDateId: number, wanted: number) {
  const row = await db
    .selectFrom("event_ticket_dates")
    .select(["quantity", "taken"])
    .where("id", "=", ticketDateId)
    .executeTakeFirst();
  if (!row) return 0;
  if (row.quantity - row.taken >= wanted) return row.quantity - row.taken;
  const lapsed = await db
    .selectFrom("booking_items")
    .select((eb) => eb.fn.sum<number>("quantity").as("places"))
    .where("ticket_date_id", "=", ticketDateId)
    .where("status", "=", "pending")
    .where("hold_expires_at", "<", nowIso())
    .executeTakeFirst();
  const unstarted = (await unstartedHolds(db, { ticketDateId })).reduce((sum, item) => sum + item.quantity, 0);
  return Math.max(0, row.quantity - row.taken + Number(lapsed?.places ?? 0) + unstarted);
}

/** Takes the places, releasing holds whose time is up on that date first when they do not fit. */
async function takeOrReleaseAndTake(trx: DB, ticketDateId: number, quantity: number) {
  const first = await takePlaces(trx, ticketDateId, quantity);
  if (first.ok) return first;
  if ((await releaseExpiredHolds(trx, { ticketDateId })) === 0) return first;
  return takePlaces(trx, ticketDateId, quantity);
}

/** The bookings made from an address whose places are still held unpaid. */
async function unpaidBookingsFrom(trx: DB, merchantId: number, address: string) {
  const row = await trx
    .selectFrom("bookings")
    .select((eb) => eb.fn.count<number | string>("bookings.id").distinct().as("bookings"))
    .innerJoin("booking_items", "booking_items.booking_id", "bookings.id")
    .where("bookings.merchant_id", "=", merchantId)
    .where("bookings.client_address", "=", address)
    .where("booking_items.status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.bookings);
}

function paymentDescription(event: EventRow, ticket: TicketDate, quantity: number, date: string, lang: Language) {
  const title = lang === "ar" ? event.title_ar : event.title_en;
  const name = lang === "ar" ? ticket.nameAr : ticket.nameEn;
  return `${title} — ${name} × ${quantity} — ${date} ${ticket.startTime}`;
}

/**
 * Books places: checks the request against the event (a published one for customers, one of the
 * merchant's for staff), takes the places, and either confirms them at once (a free event) or holds
 * them while the customer pays: a transaction of the section, due within the event's hold time,
 * whose payment confirms the booking through the section's hook (onBookingTransition). Field
 * errors use the API's names; `quantity` says how many places are left when they do not fit.
 */
export async function createBooking(
  db: DB,
  input: {
    request: BookingInput;
    merchantId?: number;
    actor?: { id: number; username: string } | null;
    lang: Language;
    baseUrl: string;
    /** A customer's address: it holds only MAX_UNPAID_CHECKOUTS unpaid bookings of the merchant at once. */
    clientAddress?: string | null;
    /** The waiting zone's pass this booking is made under: used up with the places, once. */
    passEntryId?: number | null;
  },
): Promise<BookingOutcome<{ booking: CreatedBooking }> | BookingRefusal> {
  const { request } = input;
  const event = await findBookableEvent(db, request.event, input.merchantId);
  if (!event) return { ok: false, errors: { event: ["event.errors.event"] } };
  const errors: FieldErrors = {};
  const fields = await eventFields(db, event.id);
  const { country } = await loadMerchantDefaults(db, event.merchant_id);
  const extra = await checkExtra(
    event.merchant_id,
    fields,
    request.extra,
    request.customer_phone_country ?? country,
    errors,
  );

  const ticket = await findTicketDate(db, event.id, request.ticket, request.event_date);
  if (!ticket) {
    if (await ticketExists(db, event.id, request.ticket)) errors.event_date = ["event.errors.event_date"];
    else errors.ticket = ["event.errors.ticket"];
  } else if (!isOffered(request.event_date, ticket.startTime, kuwaitNow()))
    errors.event_date = ["event.errors.date_passed"];
  if (request.quantity < 1 || request.quantity > event.max_per_booking)
    errors.quantity = ["event.errors.quantity_range"];

  let phone: string | undefined;
  if (request.customer_phone) {
    phone = normalizeBookingPhone(request.customer_phone, request.customer_phone_country ?? country);
    if (!phone) errors.customer_phone = ["event.errors.phone"];
  }

  const amount = ticket ? ticket.price * request.quantity : 0;
  const free = Boolean(event.is_free) || amount === 0;
  let pgCodes: string[] = [];
  if (!free) {
    const enabled = await listMerchantGateways(db, event.merchant_id, { enabledOnly: true });
    const usable = event.gateway_codes
      .split(",")
      .filter(
        (code) =>
          code &&
          enabled.some(
            (gateway) =>
              gateway.code === code && gateway.kind !== "cod" && supportsCurrency(gateway, event.currency_code),
          ),
      );
    if (request.gateway_code) {
      if (usable.includes(request.gateway_code)) pgCodes = [request.gateway_code];
      else errors.gateway_code = ["event.errors.gateway"];
    } else if (usable.length === 0) errors.gateway_code = ["event.errors.no_gateway"];
    else pgCodes = usable;
  }
  const params: TextParams = { max: event.max_per_booking };
  if (Object.keys(errors).length || !ticket) return { ok: false, errors, params };

  // A date already full is told so without waiting for the writer: the read cannot oversell (the
  // write below checks again), it only spares the database a write an on-sale would queue by the thousand.
  const left = await placesLeft(db, ticket.ticketDateId, request.quantity);
  if (left < request.quantity) return { ok: false, ...shortOf(left) };

  // Counted as throttles count an address: an IPv6 address by its /64.
  const clientAddress = input.actor || !input.clientAddress ? null : addressGroup(input.clientAddress);
  const booked = writeTransaction(
    db,
    async (trx): Promise<BookingOutcome<{ booking: CreatedBooking }> | BookingRefusal> => {
      // Checked before anything is taken: a refusal here returns (and commits) nothing.
      if (clientAddress && !free) {
        await lockCheckoutsOf(trx, event.merchant_id, clientAddress);
        if ((await unpaidBookingsFrom(trx, event.merchant_id, clientAddress)) >= MAX_UNPAID_CHECKOUTS) {
          return {
            ok: false,
            errors: { non_field_errors: ["events_public.errors.too_many_unpaid"] },
            params: { max: MAX_UNPAID_CHECKOUTS },
          };
        }
      }
      const taken = await takeOrReleaseAndTake(trx, ticket.ticketDateId, request.quantity);
      if (!taken.ok) return { ok: false, ...shortOf(taken.left) };
      // A waiting zone's pass is used up with the places, once: a booking that finds it used rolls back.
      if (input.passEntryId != null && !(await takePass(trx, input.passEntryId))) throw new PassAlreadyUsed();
      const createdAt = nowIso();
      const booking = await trx
        .insertInto("bookings")
        .values({
          uuid: randomToken(16),
          merchant_id: event.merchant_id,
          event_id: event.id,
          ticket_id: ticket.ticketId,
          event_date: request.event_date,
          email: request.email,
          email_lc: request.email.toLowerCase(),
          customer_first_name: request.customer_first_name ?? "",
          customer_last_name: request.customer_last_name ?? "",
          customer_phone: phone ?? null,
          extra: JSON.stringify(extra.answers),
          attachment_path: extra.attachment?.key ?? null,
          attachment_name: extra.attachment?.name ?? null,
          lang: input.lang,
          created_by: input.actor?.id ?? null,
          client_address: clientAddress,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .returning(["id", "uuid"])
        .executeTakeFirstOrThrow();
      const item = await addItem(trx, {
        event,
        ticket,
        bookingId: booking.id,
        quantity: request.quantity,
        free,
        pgCodes,
        customer: {
          email: request.email,
          phone: phone ?? null,
          firstName: request.customer_first_name ?? null,
          lastName: request.customer_last_name ?? null,
        },
        date: request.event_date,
        lang: input.lang,
        actorId: input.actor?.id ?? null,
      });
      if (free) await queueBookingMail(trx, booking.id);
      await recordAudit(trx, {
        merchantId: event.merchant_id,
        actor: input.actor ?? "customer",
        action: "booking_created",
        params: { bookingId: booking.id, quantity: request.quantity, event: event.title_en },
        objectType: "booking",
        objectId: booking.id,
      });
      return {
        ok: true,
        booking: {
          id: booking.id,
          uuid: booking.uuid,
          state: free ? "paid" : "pending",
          checkout_url: item.transactionId ? payUrlOf(input.baseUrl, input.lang, item.transactionId) : null,
        },
      };
    },
  );
  return booked.catch((error: unknown) => {
    if (error instanceof PassAlreadyUsed) return { ok: false, errors: { non_field_errors: [PASS_USED] } };
    throw error;
  });
}

class PassAlreadyUsed extends Error {}

/**
 * Adds an item of places to a booking (its places already taken): paid at once when free, else
 * pending with a transaction to pay within the hold time.
 */
async function addItem(
  trx: DB,
  input: {
    event: EventRow;
    ticket: TicketDate;
    bookingId: number;
    quantity: number;
    free: boolean;
    pgCodes: string[];
    customer: { email: string; phone: string | null; firstName: string | null; lastName: string | null };
    date: string;
    lang: Language;
    actorId: number | null;
  },
) {
  const { event, ticket } = input;
  const at = nowIso();
  const amount = input.free ? 0 : ticket.price * input.quantity;
  const holdExpiresAt = input.free ? null : addMs(now(), event.hold_minutes * 60_000).toISOString();
  let transactionId: string | null = null;
  if (!input.free) {
    const made = await createTransaction(trx, {
      merchant_id: event.merchant_id,
      unit_id: event.unit_id,
      plugin: "event",
      amount,
      currency_code: event.currency_code,
      editable_amount: 0,
      customer_email: input.customer.email,
      customer_phone: input.customer.phone,
      customer_first_name: input.customer.firstName,
      customer_last_name: input.customer.lastName,
      description: paymentDescription(event, ticket, input.quantity, input.date, input.lang),
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: input.pgCodes.join(","),
      expiration_time: holdExpiresAt,
      next_url: null,
      initiator_user_id: input.actorId,
      gateway_code: null,
      paid_attempt_id: null,
      send_email: 0,
      send_sms: 0,
      extra: JSON.stringify({ booking: String(input.bookingId) }),
    });
    transactionId = made.id;
  }
  const item = await trx
    .insertInto("booking_items")
    .values({
      merchant_id: event.merchant_id,
      booking_id: input.bookingId,
      ticket_date_id: ticket.ticketDateId,
      quantity: input.quantity,
      amount,
      status: input.free ? "paid" : "pending",
      transaction_id: transactionId,
      hold_expires_at: holdExpiresAt,
      note: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await addMembers(trx, {
    merchantId: event.merchant_id,
    eventId: event.id,
    bookingId: input.bookingId,
    itemId: item.id,
    quantity: input.quantity,
  });
  return { itemId: item.id, transactionId };
}

/** What an item canceled by staff is noted: a payment that completes afterwards does not bring it back. */
const CANCELED_BY_STAFF = "canceled_by_staff";

/**
 * The section's hook on its transactions' changes (inside the same database transaction): a
 * completed payment confirms the items it pays for and sends the tickets; a payment that ended
 * unpaid puts their places back on sale; a whole refund or void gives them back too. A payment that
 * arrives after its hold ran out takes the places again if they are still free; if they are not, or
 * if staff had canceled the booking, the item stays canceled, noted in the audit log, and the payment
 * goes back by itself (it must not throw: the gateway took the money, which is a fact to record).
 */
export async function onBookingTransition(trx: DB, change: TransitionEvent) {
  const items = await trx
    .selectFrom("booking_items")
    .select(["id", "booking_id", "ticket_date_id", "quantity", "status", "note"])
    .where("transaction_id", "=", change.transaction.id)
    .execute();
  if (items.length === 0) return;
  const { to, cause } = change;
  if (cause.kind === "payment" && (to === "paid" || to === "authorized")) {
    const confirmed = new Set<number>();
    for (const item of items) {
      if (item.status === "pending") {
        await trx
          .updateTable("booking_items")
          .set({ status: "paid", hold_expires_at: null, updated_at: nowIso() })
          .where("id", "=", item.id)
          .where("status", "=", "pending")
          .execute();
        confirmed.add(item.booking_id);
        continue;
      }
      if (item.status !== "cancel") continue;
      const again =
        item.note === CANCELED_BY_STAFF
          ? { ok: false as const }
          : await takePlaces(trx, item.ticket_date_id, item.quantity);
      if (again.ok) {
        await trx
          .updateTable("booking_items")
          .set({ status: "paid", note: "paid_after_hold", updated_at: nowIso() })
          .where("id", "=", item.id)
          .execute();
        confirmed.add(item.booking_id);
        continue;
      }
      const canceled = item.note === CANCELED_BY_STAFF;
      await trx
        .updateTable("booking_items")
        .set({ note: canceled ? "paid_after_cancel" : "paid_without_places", updated_at: nowIso() })
        .where("id", "=", item.id)
        .execute();
      await recordAudit(trx, {
        merchantId: change.transaction.merchant_id,
        actor: "system",
        action: canceled ? "booking_paid_after_cancel" : "booking_paid_without_places",
        params: {
          bookingId: item.booking_id,
          orderNo: change.transaction.order_no,
          amount: money(change.transaction.amount, change.transaction.currency_code),
        },
        objectType: "booking",
        objectId: item.booking_id,
      });
      await returnPaymentOf(trx, change, canceled ? "order_canceled" : "sold_out");
    }
    for (const bookingId of confirmed) await queueBookingMail(trx, bookingId);
    return;
  }
  const ended = (["expired", "canceled", "failed", "invalid"] as const).some((state) => state === to);
  const givenBack = to === "refunded" || to === "voided";
  if (!ended && !givenBack) return;
  // Staff canceling the link (here, or from the transactions workspace) cancel the places for good.
  const note = cause.kind === "canceled" ? CANCELED_BY_STAFF : ended ? `payment_${to}` : to;
  for (const item of items) await releaseItem(trx, item.id, note);
}

/** A booking of the merchant's, never another's. */
export function findBooking(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("bookings")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export type BookingView = Awaited<ReturnType<typeof bookingView>>;

/**
 * A booking as dashboard spec §3 describes it: the customer, its event and date, its items (what
 * was bought, its state and payment), its members (one per place, with its number and whether it was
 * scanned) and the event's own fields with the customer's answers.
 */
export async function bookingView(db: DB, merchantId: number, id: number) {
  const booking = await findBooking(db, merchantId, id);
  if (!booking) return undefined;
  const event = await db.selectFrom("events").selectAll().where("id", "=", booking.event_id).executeTakeFirstOrThrow();
  const items = await db
    .selectFrom("booking_items")
    .innerJoin("event_ticket_dates", "event_ticket_dates.id", "booking_items.ticket_date_id")
    .innerJoin("event_tickets", "event_tickets.id", "event_ticket_dates.ticket_id")
    .select([
      "booking_items.id",
      "booking_items.quantity",
      "booking_items.amount",
      "booking_items.status",
      "booking_items.transaction_id",
      "booking_items.hold_expires_at",
      "booking_items.note",
      "booking_items.created_at",
      "event_ticket_dates.event_date",
      "event_tickets.id as ticket_id",
      "event_tickets.name_en",
      "event_tickets.name_ar",
      "event_tickets.start_time",
      "event_tickets.end_time",
    ])
    .where("booking_items.booking_id", "=", booking.id)
    .orderBy("booking_items.id")
    .execute();
  const members = await db
    .selectFrom("booking_members")
    .innerJoin("booking_items", "booking_items.id", "booking_members.item_id")
    .select([
      "booking_members.id",
      "booking_members.number",
      "booking_members.position",
      "booking_members.scanned_at",
      "booking_items.status",
    ])
    .where("booking_members.booking_id", "=", booking.id)
    .orderBy("booking_members.position")
    .execute();
  const fields = await eventFields(db, booking.event_id);
  const ticket = await db
    .selectFrom("event_tickets")
    .selectAll()
    .where("id", "=", booking.ticket_id)
    .executeTakeFirstOrThrow();
  const live = items.filter((item) => item.status !== "cancel");
  return {
    booking,
    event,
    ticket,
    fields,
    extra: JSON.parse(booking.extra || "{}") as Record<string, string>,
    items,
    /** Places neither canceled nor released. */
    quantity: live.reduce((sum, item) => sum + item.quantity, 0),
    members: members.map((member) => ({
      ...member,
      is_purchased: member.status === "paid",
      is_qr_scanned: member.scanned_at !== null,
      canceled: member.status === "cancel",
    })),
  };
}

/** The booking as the API answers it (dashboard spec §3 Booking). */
export function serializeBooking(view: NonNullable<BookingView>, lang: Language) {
  const { booking, event, ticket } = view;
  return {
    id: booking.id,
    uuid: booking.uuid,
    event: lang === "ar" ? event.title_ar : event.title_en,
    event_id: event.id,
    event_slug: event.slug,
    event_date: booking.event_date,
    created: booking.created_at,
    email: booking.email,
    customer_first_name: booking.customer_first_name,
    customer_last_name: booking.customer_last_name,
    customer_phone: booking.customer_phone,
    quantity: view.quantity,
    is_free: Boolean(event.is_free),
    attachment_url: booking.attachment_path ? `/api/v1/plugins/event/booking/attachment/${booking.id}` : null,
    current_ticket: {
      id: ticket.id,
      name_en: ticket.name_en,
      name_ar: ticket.name_ar,
      start_time: ticket.start_time,
      end_time: ticket.end_time,
    },
    items: view.items.map((item) => ({
      id: item.id,
      ticket: {
        id: item.ticket_id,
        name_en: item.name_en,
        name_ar: item.name_ar,
        start_time: item.start_time,
        end_time: item.end_time,
      },
      event_date: item.event_date,
      quantity: item.quantity,
      status: item.status,
      payment_transaction: item.transaction_id,
      hold_expires_at: item.hold_expires_at,
    })),
    members: view.members
      .filter((member) => !member.canceled)
      .map((member) => ({
        number: member.number,
        is_purchased: member.is_purchased,
        is_qr_scanned: member.is_qr_scanned,
      })),
    extra: view.extra,
    fields: view.fields.map((field) => ({
      name: field.name,
      label_en: field.label_en,
      label_ar: field.label_ar,
      type: field.type,
      required: Boolean(field.required),
    })),
  };
}

export type BookingChange =
  | { kind: "places"; event_date: string; quantity: number; ticket?: number }
  | { kind: "email"; new_email: string; resend_email: boolean }
  | { kind: "cancel" };

export type CancelOutcome = { ok: true; refunds: OperationOutcome[] };

/**
 * Staff cancel a booking: under the booking's lock its unpaid payments are canceled first (each
 * under its own row lock, so a payment completing meanwhile is seen: its item is then paid), then
 * every item still holding places gives them back, in one database transaction. Afterwards each
 * paid item's payment is refunded (an authorization is voided) through the usual operations (the
 * user's permission, maker-checker approval, the gateway), whose outcomes are answered beside.
 */
export async function cancelBooking(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; addresses: PlatformAddresses },
): Promise<CancelOutcome | BookingRefusal> {
  const released = await writeTransaction(db, async (trx) => {
    const booking = await lockBooking(trx, input.merchantId, input.id);
    if (!booking) return undefined;
    const itemsOf = () =>
      trx
        .selectFrom("booking_items")
        .select(["id", "status", "transaction_id"])
        .where("booking_id", "=", booking.id)
        .where("status", "!=", "cancel")
        .orderBy("id")
        .execute();
    const before = await itemsOf();
    if (before.length === 0)
      return { already: true as const, paid: [] as { transactionId: string; kind: "refund" | "void" }[] };
    const pendingPayments = [
      ...new Set(
        before.filter((item) => item.status === "pending" && item.transaction_id).map((item) => item.transaction_id!),
      ),
    ].sort();
    for (const transactionId of pendingPayments) {
      await transitionTransaction(
        trx,
        transactionId,
        "canceled",
        { kind: "canceled", actor: { id: input.actor.id, username: input.actor.username } },
        { from: PAYABLE_STATES },
      );
    }
    const paid: { transactionId: string; kind: "refund" | "void" }[] = [];
    for (const item of await itemsOf()) {
      if (!(await releaseItem(trx, item.id, CANCELED_BY_STAFF, { only: [item.status] }))) continue;
      if (item.status !== "paid" || !item.transaction_id) continue;
      const transaction = await trx
        .selectFrom("transactions")
        .select("state")
        .where("id", "=", item.transaction_id)
        .executeTakeFirstOrThrow();
      paid.push({ transactionId: item.transaction_id, kind: transaction.state === "authorized" ? "void" : "refund" });
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: "booking_canceled",
      params: { bookingId: booking.id },
      objectType: "booking",
      objectId: booking.id,
    });
    return { already: false as const, paid };
  });
  if (!released) return { ok: false, errors: { non_field_errors: ["api.not_found"] } };
  if (released.already) return { ok: false, errors: { status: ["event.errors.already_canceled"] } };
  const refunds: OperationOutcome[] = [];
  for (const { transactionId, kind } of released.paid) {
    refunds.push(
      await requestOperation(db, {
        merchantId: input.merchantId,
        actor: input.actor,
        transactionId,
        kind,
        addresses: input.addresses,
        reason: `booking ${input.id} canceled`,
      }),
    );
  }
  return { ok: true, refunds };
}

/**
 * Staff change a booking's places: move all of them to another date (and ticket), and/or add
 * places. Moving takes the new places before giving the old ones back, in one database
 * transaction, so a sold-out date refuses with nothing changed. In a paid event a ticket of another
 * price cannot be swapped (the money paid would not match); added places are paid like new ones.
 */
export async function changeBookingPlaces(
  db: DB,
  input: {
    merchantId: number;
    actor: { id: number; username: string };
    id: number;
    event_date: string;
    quantity: number;
    ticket?: number;
    lang: Language;
    baseUrl: string;
    /** The booking's `updated_at` the form was made from: a form sent twice, or after someone else's change, is refused. */
    version?: string;
  },
): Promise<BookingOutcome<{ checkout_url: string | null }> | BookingRefusal> {
  const booking = await findBooking(db, input.merchantId, input.id);
  if (!booking) return { ok: false, errors: { non_field_errors: ["api.not_found"] } };
  const event = await db.selectFrom("events").selectAll().where("id", "=", booking.event_id).executeTakeFirstOrThrow();
  const ticketId = input.ticket ?? booking.ticket_id;
  const errors: FieldErrors = {};
  const target = await findTicketDate(db, event.id, ticketId, input.event_date);
  const current = await findTicketDate(db, event.id, booking.ticket_id, booking.event_date);
  if (!target) {
    if (await ticketExists(db, event.id, ticketId)) errors.event_date = ["event.errors.event_date"];
    else errors.ticket = ["event.errors.ticket"];
  } else {
    const moving = target.ticketDateId !== current?.ticketDateId;
    if (moving && !isOffered(input.event_date, target.startTime)) errors.event_date = ["event.errors.date_passed"];
    // The price of the ticket the places were bought with, even if it is no longer on sale.
    const booked = await db
      .selectFrom("event_tickets")
      .select("price")
      .where("id", "=", booking.ticket_id)
      .executeTakeFirst();
    if (!event.is_free && target.ticketId !== booking.ticket_id && target.price !== booked?.price)
      errors.ticket = ["event.errors.ticket_price"];
  }
  if (!Number.isInteger(input.quantity) || input.quantity < 0 || input.quantity > event.max_per_booking)
    errors.quantity = ["event.errors.quantity_range"];
  if (Object.keys(errors).length || !target) return { ok: false, errors, params: { max: event.max_per_booking } };

  return writeTransaction(
    db,
    async (trx): Promise<BookingOutcome<{ checkout_url: string | null }> | BookingRefusal> => {
      // Writers of one booking queue here and each reads the items the last one left (a form sent twice moves nothing twice).
      const locked = await lockBooking(trx, input.merchantId, booking.id);
      if (!locked || (input.version !== undefined && input.version !== locked.updated_at)) throw new ChangedMeanwhile();
      const items = await trx
        .selectFrom("booking_items")
        .select(["id", "ticket_date_id", "quantity", "status"])
        .where("booking_id", "=", booking.id)
        .where("status", "!=", "cancel")
        .orderBy("id")
        .execute();
      // Two moves in opposite directions must not wait on each other: lock the dates involved in one order.
      if (engineOf(trx) === "postgres") {
        const involved = [...new Set([target.ticketDateId, ...items.map((item) => item.ticket_date_id)])].sort(
          (a, b) => a - b,
        );
        await trx
          .selectFrom("event_ticket_dates")
          .select("id")
          .where("id", "in", involved)
          .orderBy("id")
          .forUpdate()
          .execute();
      }
      for (const item of items.filter((row) => row.ticket_date_id !== target.ticketDateId)) {
        const taken = await takeOrReleaseAndTake(trx, target.ticketDateId, item.quantity);
        if (!taken.ok) {
          // Nothing of this change may stay: undo the places already moved in this transaction.
          throw new MoveRefused(taken.left);
        }
        const moved = await trx
          .updateTable("booking_items")
          .set({ ticket_date_id: target.ticketDateId, updated_at: nowIso() })
          .where("id", "=", item.id)
          .where("ticket_date_id", "=", item.ticket_date_id)
          .where("status", "=", item.status)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new ChangedMeanwhile();
        await returnPlaces(trx, item.ticket_date_id, item.quantity);
      }
      let checkoutUrl: string | null = null;
      if (input.quantity > 0) {
        const taken = await takeOrReleaseAndTake(trx, target.ticketDateId, input.quantity);
        if (!taken.ok) throw new MoveRefused(taken.left);
        const free = Boolean(event.is_free) || target.price === 0;
        const enabled = free ? [] : await listMerchantGateways(trx, event.merchant_id, { enabledOnly: true });
        const pgCodes = event.gateway_codes
          .split(",")
          .filter((code) =>
            enabled.some(
              (gateway) =>
                gateway.code === code && gateway.kind !== "cod" && supportsCurrency(gateway, event.currency_code),
            ),
          );
        if (!free && pgCodes.length === 0) throw new NoGateway();
        const item = await addItem(trx, {
          event,
          ticket: target,
          bookingId: booking.id,
          quantity: input.quantity,
          free,
          pgCodes,
          customer: {
            email: booking.email,
            phone: booking.customer_phone,
            firstName: booking.customer_first_name || null,
            lastName: booking.customer_last_name || null,
          },
          date: input.event_date,
          lang: booking.lang,
          actorId: input.actor.id,
        });
        if (item.transactionId) checkoutUrl = payUrlOf(input.baseUrl, booking.lang, item.transactionId);
      }
      await trx
        .updateTable("bookings")
        .set({ ticket_id: target.ticketId, event_date: input.event_date, updated_at: nowIso() })
        .where("id", "=", booking.id)
        .execute();
      await recordAudit(trx, {
        merchantId: input.merchantId,
        actor: input.actor,
        action: "booking_changed",
        params: { bookingId: booking.id, date: input.event_date, quantity: input.quantity },
        objectType: "booking",
        objectId: booking.id,
      });
      await queueBookingMail(trx, booking.id);
      return { ok: true, checkout_url: checkoutUrl };
    },
  ).catch((error: unknown) => {
    if (error instanceof MoveRefused) return { ok: false as const, ...shortOf(error.left) };
    if (error instanceof NoGateway)
      return { ok: false as const, errors: { non_field_errors: ["event.errors.no_gateway"] } };
    if (error instanceof ChangedMeanwhile)
      return { ok: false as const, errors: { non_field_errors: ["event.errors.changed_meanwhile"] } };
    throw error;
  });
}

/** Thrown inside the write to roll back a change whose places do not fit. */
class MoveRefused extends Error {
  constructor(readonly left: number) {
    super("not enough places");
  }
}

class NoGateway extends Error {}

/** Thrown inside the write when the booking is no longer what the change was made from. */
class ChangedMeanwhile extends Error {}

/** Staff correct a booking's e-mail address and, by default, send the booking e-mail again to it. */
export async function changeBookingEmail(
  db: DB,
  input: {
    merchantId: number;
    actor: { id: number; username: string };
    id: number;
    new_email: string;
    resend_email: boolean;
  },
): Promise<BookingOutcome<object> | BookingRefusal> {
  const email = input.new_email.trim();
  if (!email) return { ok: false, errors: { new_email: ["errors.required"] } };
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    return { ok: false, errors: { new_email: ["errors.invalid_email"] } };
  return writeTransaction(db, async (trx) => {
    const booking = await findBooking(trx, input.merchantId, input.id);
    if (!booking) return { ok: false as const, errors: { non_field_errors: ["api.not_found"] } };
    await trx
      .updateTable("bookings")
      .set({ email, email_lc: email.toLowerCase(), updated_at: nowIso() })
      .where("id", "=", booking.id)
      .execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "booking_email_changed",
      params: { bookingId: booking.id },
      objectType: "booking",
      objectId: booking.id,
    });
    if (input.resend_email) await queueBookingMail(trx, booking.id);
    return { ok: true as const };
  });
}

/** The Send email action: the booking e-mail (with its tickets when paid) again, to the booking's address. */
export async function resendBookingMail(
  db: DB,
  input: { merchantId: number; actor: { id: number; username: string }; id: number },
) {
  return writeTransaction(db, async (trx) => {
    const booking = await findBooking(trx, input.merchantId, input.id);
    if (!booking) return false;
    await queueBookingMail(trx, booking.id);
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "booking_email_sent",
      params: { bookingId: booking.id },
      objectType: "booking",
      objectId: booking.id,
    });
    return true;
  });
}

/** A booking by its public id and unguessable uuid (the customer's ticket links), with no merchant needed. */
export async function findPublicBooking(db: DB, id: number, uuid: string) {
  const booking = await db
    .selectFrom("bookings")
    .select(["id", "merchant_id", "uuid"])
    .where("id", "=", id)
    .where("uuid", "=", uuid)
    .executeTakeFirst();
  if (!booking) return undefined;
  return bookingView(db, booking.merchant_id, booking.id);
}

/** The booking a transaction of the section pays for, if any (the result page's Ticket download). */
export async function bookingOfTransaction(db: DB, transactionId: string) {
  return db
    .selectFrom("booking_items")
    .innerJoin("bookings", "bookings.id", "booking_items.booking_id")
    .select(["bookings.id", "bookings.uuid", "bookings.merchant_id", "booking_items.status"])
    .where("booking_items.transaction_id", "=", transactionId)
    .executeTakeFirst();
}
