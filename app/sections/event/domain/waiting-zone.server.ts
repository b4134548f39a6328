import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { hmacSha256, randomToken, safeEqual } from "~/lib/crypto.server";
import { getAppSecret } from "~/lib/secret.server";

/**
 * The waiting zone of a busy on-sale (decision 0023). An event with `queue_capacity` lets at most
 * that many customers hold a pass to its registration at once; the others wait in `event_queue`,
 * served in the order they arrived. A pass lasts PASS_MS from admission; the booking made with it uses it up.
 * Admission happens under the merchant's lock, so two requests never both take the last pass.
 */
export const PASS_MS = 10 * 60_000;
/** A waiting customer's page refreshes every 10 s; one not seen for this long has left and is skipped. */
export const GONE_MS = 60_000;
/** How far back admissions are counted for the waiting time's estimate. */
const RATE_WINDOW_MS = 2 * PASS_MS;

export type QueueEvent = { id: number; merchant_id: number; queue_capacity: number | null };

export type Pass = { eventId: number; entryId: number; expiresAt: Date };

export type QueueStanding =
  | { kind: "open" }
  | { kind: "admitted"; token: string; pass: string; expiresAt: Date }
  | { kind: "waiting"; token: string; position: number; estimateMinutes: number };

async function signatureOf(db: DB, payload: string) {
  const secret = await getAppSecret(db);
  return Buffer.from(hmacSha256(`event-pass:${secret}`, payload), "hex")
    .subarray(0, 16)
    .toString("base64url");
}

async function signPass(db: DB, pass: Pass) {
  const payload = `${pass.eventId}.${pass.entryId}.${pass.expiresAt.getTime()}`;
  return `${payload}.${await signatureOf(db, payload)}`;
}

/** The pass a signed value names, if its signature is ours; its expiry and entry are checked by hasValidPass. */
async function readPass(db: DB, value: string | null): Promise<Pass | null> {
  const match = /^(\d{1,10})\.(\d{1,12})\.(\d{1,15})\.([A-Za-z0-9_-]{22})$/.exec(value ?? "");
  if (!match) return null;
  const payload = `${match[1]}.${match[2]}.${match[3]}`;
  if (!safeEqual(match[4], await signatureOf(db, payload))) return null;
  return { eventId: Number(match[1]), entryId: Number(match[2]), expiresAt: new Date(Number(match[3])) };
}

/** Whether customers of this event pass through the waiting zone. */
export function hasWaitingZone(event: Pick<QueueEvent, "queue_capacity">) {
  return event.queue_capacity !== null && event.queue_capacity > 0;
}

const activeSince = () => addMs(now(), -PASS_MS).toISOString();

/**
 * A pass that lets its holder into this event's registration now: signed by us, for this event,
 * not expired, and its entry admitted and not ended by a booking. Answers the entry's id.
 */
export async function validPassEntry(db: DB, event: QueueEvent, value: string | null): Promise<number | null> {
  const pass = await readPass(db, value);
  if (!pass || pass.eventId !== event.id || pass.expiresAt <= now()) return null;
  const entry = await db
    .selectFrom("event_queue")
    .select("id")
    .where("id", "=", pass.entryId)
    .where("event_id", "=", event.id)
    .where("admitted_at", ">", activeSince())
    .executeTakeFirst();
  return entry ? entry.id : null;
}

/**
 * Where a customer stands: let in (with a pass), or waiting at a position with an estimate. `token`
 * is the customer's place in the queue from an earlier visit; a customer without one (or whose pass
 * ran out) joins at the back. The first customers in the queue are let in while passes are free.
 */
export async function standInQueue(db: DB, event: QueueEvent, token: string | null): Promise<QueueStanding> {
  if (!hasWaitingZone(event)) return { kind: "open" };
  const capacity = event.queue_capacity!;
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, event.merchant_id);
    const at = nowIso();
    let entry = token
      ? await trx
          .selectFrom("event_queue")
          .select(["id", "token", "admitted_at"])
          .where("event_id", "=", event.id)
          .where("token", "=", token.slice(0, 64))
          .executeTakeFirst()
      : undefined;
    if (entry?.admitted_at) {
      if (entry.admitted_at > activeSince()) {
        const expiresAt = addMs(new Date(entry.admitted_at), PASS_MS);
        return {
          kind: "admitted" as const,
          token: entry.token,
          expiresAt,
          pass: await signPass(trx, { eventId: event.id, entryId: entry.id, expiresAt }),
        };
      }
      // The pass ran out or was used for a booking: another visit waits again, at the back.
      entry = undefined;
    }
    if (!entry) {
      entry = await trx
        .insertInto("event_queue")
        .values({ event_id: event.id, token: randomToken(24), created_at: at, admitted_at: null, last_seen_at: at })
        .returning(["id", "token", "admitted_at"])
        .executeTakeFirstOrThrow();
    } else {
      await trx.updateTable("event_queue").set({ last_seen_at: at }).where("id", "=", entry.id).execute();
    }
    const { active } = await trx
      .selectFrom("event_queue")
      .select((eb) => eb.fn.countAll<number>().as("active"))
      .where("event_id", "=", event.id)
      .where("admitted_at", ">", activeSince())
      .executeTakeFirstOrThrow();
    const goneBefore = addMs(now(), -GONE_MS).toISOString();
    const { ahead } = await trx
      .selectFrom("event_queue")
      .select((eb) => eb.fn.countAll<number>().as("ahead"))
      .where("event_id", "=", event.id)
      .where("admitted_at", "is", null)
      .where("last_seen_at", ">", goneBefore)
      .where("id", "<", entry.id)
      .executeTakeFirstOrThrow();
    const free = capacity - Number(active);
    // Those ahead keep their claim on the free passes: they take them at their next refresh.
    if (Number(ahead) < free) {
      const admitted = await trx
        .updateTable("event_queue")
        .set({ admitted_at: at, last_seen_at: at })
        .where("id", "=", entry.id)
        .where("admitted_at", "is", null)
        .executeTakeFirst();
      if (Number(admitted.numUpdatedRows) === 1) {
        const expiresAt = addMs(new Date(at), PASS_MS);
        return {
          kind: "admitted" as const,
          token: entry.token,
          expiresAt,
          pass: await signPass(trx, { eventId: event.id, entryId: entry.id, expiresAt }),
        };
      }
    }
    const position = Number(ahead) + 1;
    const { recent } = await trx
      .selectFrom("event_queue")
      .select((eb) => eb.fn.countAll<number>().as("recent"))
      .where("event_id", "=", event.id)
      .where("admitted_at", ">", addMs(now(), -RATE_WINDOW_MS).toISOString())
      .executeTakeFirstOrThrow();
    return {
      kind: "waiting" as const,
      token: entry.token,
      position,
      estimateMinutes: estimateMinutes(position, Number(recent), capacity),
    };
  });
}

/**
 * Minutes until a customer at `position` is let in: at the rate customers were let in lately, or,
 * before there is one, as if every pass were used to its end.
 */
export function estimateMinutes(position: number, recentAdmissions: number, capacity: number) {
  const perMinute = recentAdmissions > 0 ? recentAdmissions / (RATE_WINDOW_MS / 60_000) : capacity / (PASS_MS / 60_000);
  return Math.max(1, Math.ceil(position / perMinute));
}

/** What a booking under a pass that another booking already used is refused with. */
export const PASS_USED = "events_public.errors.needs_pass";

/**
 * Uses a pass up for a booking, inside the booking's own database transaction: one conditional
 * write (the pass is still active) decides, so of bookings made at once under one pass exactly one
 * takes it, on either engine, and a booking that rolls back gives it back. Its place goes to the
 * next customer: the admission time moves back by a pass's length, so the entry still counts among
 * the recent admissions of the estimate for a while but holds no pass. False when it was no longer active.
 */
export async function takePass(trx: DB, entryId: number): Promise<boolean> {
  const ended = addMs(now(), -PASS_MS).toISOString();
  const taken = await trx
    .updateTable("event_queue")
    .set({ admitted_at: ended })
    .where("id", "=", entryId)
    .where("admitted_at", ">", ended)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}
