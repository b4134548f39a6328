import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { deviceScanTime, fulfilOnce } from "~/domain/commerce/fulfilment-scan.server";
import { publishLive } from "~/lib/live.server";
import { hmacSha256, safeEqual } from "~/lib/crypto.server";
import { nowIso } from "~/lib/clock.server";
import { getAppSecret } from "~/lib/secret.server";
import { readCode } from "./tickets.server";

/**
 * Check-in at the door (pretix's check-in lists): a place is admitted once, whoever scans it and
 * however many devices scan it at the same moment, and only on its own date; every scan, admitted
 * or refused, is kept.
 */

/** Why a scan does not admit: each is also the last part of its message's key (checkin.reasons.*). */
export type ScanRefusalCode = "unknown" | "other_event" | "other_date" | "not_paid" | "already_used";

/** Who may let a ticket of another date in (a change of plans the merchant agreed to): each such admission is audited. */
export const OTHER_DATE_PERMISSION = "admit_other_date_booking";

/** The place a scan is about, as the door and the API show it. */
export type ScannedPlace = {
  qr_number: string;
  customer_first_name: string;
  customer_last_name: string;
  event_date: string;
  start_time: string;
  end_time: string;
  ticket_en: string;
  ticket_ar: string;
};

export type ScanOutcome =
  | { ok: true; place: ScannedPlace; scannedAt: string }
  | { ok: false; code: ScanRefusalCode; place?: ScannedPlace; scannedAt?: string; scannedBy?: string | null }
  | { ok: false; code: "no_event" };

type Actor = { id: number; username: string };

/** The merchant's event, whatever its status: a closed event's guests may still be at the door. */
export function findCheckinEvent(db: DB, merchantId: number, eventId: number) {
  if (!Number.isSafeInteger(eventId) || eventId <= 0) return Promise.resolve(undefined);
  return db
    .selectFrom("events")
    .select(["id", "title_en", "title_ar", "status"])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", eventId)
    .executeTakeFirst();
}

/** The merchant's published events, newest first: what the door page offers. */
export function listCheckinEvents(db: DB, merchantId: number) {
  return db
    .selectFrom("events")
    .select(["id", "title_en", "title_ar"])
    .where("merchant_id", "=", merchantId)
    .where("status", "=", "published")
    .orderBy("id", "desc")
    .limit(500)
    .execute();
}

function placesQuery(db: DB, merchantId: number) {
  return db
    .selectFrom("booking_members")
    .innerJoin("booking_items", "booking_items.id", "booking_members.item_id")
    .innerJoin("bookings", "bookings.id", "booking_members.booking_id")
    .innerJoin("event_ticket_dates", "event_ticket_dates.id", "booking_items.ticket_date_id")
    .innerJoin("event_tickets", "event_tickets.id", "event_ticket_dates.ticket_id")
    .leftJoin("users", "users.id", "booking_members.scanned_by")
    .select([
      "booking_members.id",
      "booking_members.event_id",
      "booking_members.number",
      "booking_members.scanned_at",
      "users.username as scanned_by",
      "booking_items.status",
      "bookings.customer_first_name",
      "bookings.customer_last_name",
      "event_ticket_dates.event_date",
      "event_tickets.start_time",
      "event_tickets.end_time",
      "event_tickets.name_en",
      "event_tickets.name_ar",
    ])
    .where("booking_members.merchant_id", "=", merchantId);
}

type PlaceRow = Awaited<ReturnType<ReturnType<typeof placesQuery>["executeTakeFirstOrThrow"]>>;

function placeOf(row: PlaceRow): ScannedPlace {
  return {
    qr_number: row.number,
    customer_first_name: row.customer_first_name,
    customer_last_name: row.customer_last_name,
    event_date: row.event_date,
    start_time: row.start_time,
    end_time: row.end_time,
    ticket_en: row.name_en,
    ticket_ar: row.name_ar,
  };
}

/** The place a code names within the merchant's events, or why none: a forged or unknown code, or another event's. */
async function findScannedPlace(
  db: DB,
  merchantId: number,
  eventId: number,
  code: string,
): Promise<{ row: PlaceRow } | { code: "unknown" | "other_event" }> {
  const read = await readCode(db, code);
  if (read.kind === "forged" || !read.number || read.number.length > 64) return { code: "unknown" };
  let query = placesQuery(db, merchantId).where("booking_members.number", "=", read.number);
  // A QR code names its event: the same number in another event is another place.
  if (read.kind === "qr") query = query.where("booking_members.event_id", "=", read.eventId);
  const rows = await query.limit(50).execute();
  const own = rows.find((row) => row.event_id === eventId);
  if (own) return { row: own };
  return rows.length ? { code: "other_event" } : { code: "unknown" };
}

/**
 * Checks a scanned or typed code at the event's door and admits its place once: one conditional
 * write (scanned_at is still empty) decides, so of ten devices scanning the same ticket at the same
 * moment exactly one admits it and the others hear it was already used, when and by whom. An offline
 * scan (synced later) carries the device's time, which becomes the time of admission.
 *
 * A place is admitted only on its own date (in Kuwait; an offline scan on the day the device made
 * it): a ticket of another date is refused with that date, unless staff who may (`anyDate`, checked by
 * the caller against OTHER_DATE_PERMISSION) let it in anyway, which the audit log records.
 */
export async function validateScan(
  db: DB,
  input: {
    merchantId: number;
    eventId: number;
    code: string;
    actor: Actor;
    offline?: { scannedAt: string };
    anyDate?: boolean;
    ip?: string | null;
  },
): Promise<ScanOutcome> {
  const event = await findCheckinEvent(db, input.merchantId, input.eventId);
  if (!event) return { ok: false, code: "no_event" };
  const code = input.code.trim().slice(0, 200);
  const offlineAt = input.offline ? deviceScanTime(input.offline.scannedAt) : null;
  const found = code ? await findScannedPlace(db, input.merchantId, event.id, code) : ({ code: "unknown" } as const);
  const record = (result: string, memberId: number | null) =>
    db
      .insertInto("event_scans")
      .values({
        merchant_id: input.merchantId,
        event_id: event.id,
        member_id: memberId,
        code: code.slice(0, 200),
        result,
        user_id: input.actor.id,
        offline: input.offline ? 1 : 0,
        device_scanned_at: offlineAt,
        created_at: nowIso(),
      })
      .execute();

  if ("code" in found) {
    await record(found.code, null);
    return { ok: false, code: found.code };
  }
  const { row } = found;
  const place = placeOf(row);
  // The commerce floor's rule decides (paid, once, on its own date); the door keeps its words and its log.
  const outcome = await fulfilOnce(
    { paid: row.status === "paid", usedAt: row.scanned_at, date: row.event_date },
    {
      at: offlineAt ?? nowIso(),
      anyDate: input.anyDate,
      // One statement decides: on both engines only the writer that finds scanned_at still empty changes the row.
      markUsed: async (at) => {
        const changed = await db
          .updateTable("booking_members")
          .set({ scanned_at: at, scanned_by: input.actor.id })
          .where("id", "=", row.id)
          .where("merchant_id", "=", input.merchantId)
          .where("scanned_at", "is", null)
          .executeTakeFirst();
        return Number(changed.numUpdatedRows) === 1;
      },
      auditOtherDate: () =>
        recordAudit(db, {
          merchantId: input.merchantId,
          actor: input.actor,
          action: "checkin_other_date",
          params: { number: row.number, date: row.event_date, event: event.title_en },
          objectType: "booking_member",
          objectId: row.id,
          ip: input.ip,
        }),
    },
  );
  await record(outcome.ok ? "admitted" : outcome.code, row.id);
  if (outcome.ok) {
    // The tiles of booked and attended, on any page that shows them, count again.
    await publishLive(db, {
      merchantId: input.merchantId,
      permission: "view_booking",
      type: "booking_checked_in",
      data: { event_id: event.id, member_id: row.id },
    });
    return { ok: true, place, scannedAt: outcome.usedAt };
  }
  if (outcome.code !== "already_used") return { ok: false, code: outcome.code, place };
  if (outcome.usedAt)
    return { ok: false, code: "already_used", place, scannedAt: outcome.usedAt, scannedBy: row.scanned_by };
  // Another device admitted it between the read and the write.
  const winner = await placesQuery(db, input.merchantId)
    .where("booking_members.id", "=", row.id)
    .executeTakeFirstOrThrow();
  return {
    ok: false,
    code: "already_used",
    place,
    scannedAt: winner.scanned_at ?? undefined,
    scannedBy: winner.scanned_by,
  };
}

export type BookingStatistics = { booked: number; attended: number; not_attended: number };

/** The event's paid places, those scanned in, and those not (yet): the tiles at the door and on the bookings list. */
export async function bookingStatistics(
  db: DB,
  merchantId: number,
  filter: { eventId: number },
): Promise<BookingStatistics> {
  const row = await db
    .selectFrom("booking_members")
    .innerJoin("booking_items", "booking_items.id", "booking_members.item_id")
    .select((eb) => [
      eb.fn.countAll<number>().as("booked"),
      eb.fn.count<number>("booking_members.scanned_at").as("attended"),
    ])
    .where("booking_members.merchant_id", "=", merchantId)
    .where("booking_members.event_id", "=", filter.eventId)
    .where("booking_items.status", "=", "paid")
    .executeTakeFirstOrThrow();
  const booked = Number(row.booked);
  const attended = Number(row.attended);
  return { booked, attended, not_attended: booked - attended };
}

export type CheckinListPlace = {
  number: string;
  customer_first_name: string;
  customer_last_name: string;
  event_date: string;
  start_time: string;
  end_time: string;
  ticket_en: string;
  ticket_ar: string;
  scanned: boolean;
};

export type CheckinList = { event_id: number; made_at: string; places: CheckinListPlace[]; signature: string };

async function listSignature(db: DB, list: Omit<CheckinList, "signature">) {
  const secret = await getAppSecret(db);
  return hmacSha256(`event-checkin-list:${secret}`, JSON.stringify([list.event_id, list.made_at, list.places]));
}

/**
 * The event's paid places, for a device to check scans against while the network is gone: signed
 * with the time it was made, so what a device later shows as its list can be told from an altered one.
 */
export async function checkinList(db: DB, merchantId: number, eventId: number): Promise<CheckinList | undefined> {
  const event = await findCheckinEvent(db, merchantId, eventId);
  if (!event) return undefined;
  const rows = await placesQuery(db, merchantId)
    .where("booking_members.event_id", "=", event.id)
    .where("booking_items.status", "=", "paid")
    .orderBy("booking_members.id")
    .execute();
  const unsigned = {
    event_id: event.id,
    made_at: nowIso(),
    places: rows.map((row) => ({
      number: row.number,
      customer_first_name: row.customer_first_name,
      customer_last_name: row.customer_last_name,
      event_date: row.event_date,
      start_time: row.start_time,
      end_time: row.end_time,
      ticket_en: row.name_en,
      ticket_ar: row.name_ar,
      scanned: row.scanned_at !== null,
    })),
  };
  return { ...unsigned, signature: await listSignature(db, unsigned) };
}

/** Whether a list is one the platform made, unaltered. */
export async function isCheckinListGenuine(db: DB, list: CheckinList): Promise<boolean> {
  const { signature, ...unsigned } = list;
  return typeof signature === "string" && safeEqual(signature, await listSignature(db, unsigned));
}

export type OfflineScan = { code: string; scanned_at: string };

export type SyncedScan =
  | { code: string; scanned_at: string; status: "admitted"; place: ScannedPlace }
  /** Admitted on the device, but the place had already been admitted: both times, and by whom the first. */
  | {
      code: string;
      scanned_at: string;
      status: "conflict";
      first_scanned_at: string | null;
      first_scanned_by: string | null;
      place?: ScannedPlace;
    }
  /** Admitted on the device from its list, refused here (a forged code, a place canceled since). */
  | {
      code: string;
      scanned_at: string;
      status: "refused";
      reason: Exclude<ScanRefusalCode, "already_used">;
      place?: ScannedPlace;
    };

export const MAX_OFFLINE_SCANS = 500;

/**
 * Applies the scans a device made while offline, in the order it made them, through the same
 * admission as a live scan. A place the device admitted that had already been admitted (by another
 * device, or twice on this one) is a conflict reported back with both times, never accepted
 * silently. A scan sent again (the device did not hear the first answer) is recognised by its
 * time and scanner and answers as admitted again.
 */
export async function syncOfflineScans(
  db: DB,
  input: { merchantId: number; eventId: number; actor: Actor; scans: readonly OfflineScan[] },
): Promise<{ ok: true; results: SyncedScan[] } | { ok: false; code: "no_event" }> {
  const event = await findCheckinEvent(db, input.merchantId, input.eventId);
  if (!event) return { ok: false, code: "no_event" };
  const ordered = input.scans.slice(0, MAX_OFFLINE_SCANS);
  const results: SyncedScan[] = [];
  for (const scan of ordered) {
    const outcome = await validateScan(db, {
      merchantId: input.merchantId,
      eventId: event.id,
      code: scan.code,
      actor: input.actor,
      offline: { scannedAt: scan.scanned_at },
    });
    const base = { code: scan.code, scanned_at: deviceScanTime(scan.scanned_at) ?? nowIso() };
    if (outcome.ok) {
      results.push({ ...base, status: "admitted", place: outcome.place });
    } else if (outcome.code === "no_event") {
      return { ok: false, code: "no_event" };
    } else if (outcome.code === "already_used") {
      const replay =
        outcome.scannedAt !== undefined &&
        Date.parse(outcome.scannedAt) === Date.parse(base.scanned_at) &&
        (await scannedBy(db, input.merchantId, outcome.place?.qr_number, event.id)) === input.actor.id;
      if (replay && outcome.place) results.push({ ...base, status: "admitted", place: outcome.place });
      else
        results.push({
          ...base,
          status: "conflict",
          first_scanned_at: outcome.scannedAt ?? null,
          first_scanned_by: outcome.scannedBy ?? null,
          place: outcome.place,
        });
    } else {
      results.push({ ...base, status: "refused", reason: outcome.code, place: outcome.place });
    }
  }
  return { ok: true, results };
}

async function scannedBy(db: DB, merchantId: number, number: string | undefined, eventId: number) {
  if (!number) return null;
  const row = await db
    .selectFrom("booking_members")
    .select("scanned_by")
    .where("merchant_id", "=", merchantId)
    .where("event_id", "=", eventId)
    .where("number", "=", number)
    .executeTakeFirst();
  return row?.scanned_by ?? null;
}
