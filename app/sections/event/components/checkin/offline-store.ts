import { DateTime } from "luxon";
import { DISPLAY_ZONE } from "~/lib/format";

/**
 * What the check-in page keeps in the browser so the door keeps working without a network (pretix's
 * offline scanning): the event's signed list of paid places, the places this device admitted,
 * the scans waiting to be sent, and what the server answered about them that staff must see.
 */

export type ListPlace = {
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

export type StoredList = { event_id: number; made_at: string; places: ListPlace[]; signature: string };
export type QueuedScan = { code: string; scanned_at: string };
export type SyncProblem = {
  code: string;
  number: string | null;
  status: "conflict" | "refused";
  message: string;
  scanned_at: string;
};

const key = (eventId: number, what: string) => `checkin:${eventId}:${what}`;

function read<T>(name: string, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(name);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(name: string, value: unknown) {
  try {
    window.localStorage.setItem(name, JSON.stringify(value));
  } catch {
    // A full or blocked storage: the door still works online.
  }
}

export const loadList = (eventId: number) => read<StoredList | null>(key(eventId, "list"), null);
export const saveList = (list: StoredList) => write(key(list.event_id, "list"), list);
export const loadQueue = (eventId: number) => read<QueuedScan[]>(key(eventId, "queue"), []);
export const saveQueue = (eventId: number, queue: QueuedScan[]) => write(key(eventId, "queue"), queue);
export const loadAdmitted = (eventId: number) => read<string[]>(key(eventId, "admitted"), []);
export const saveAdmitted = (eventId: number, numbers: string[]) => write(key(eventId, "admitted"), numbers);
export const loadProblems = (eventId: number) => read<SyncProblem[]>(key(eventId, "problems"), []);
export const saveProblems = (eventId: number, problems: SyncProblem[]) =>
  write(key(eventId, "problems"), problems.slice(-200));

/** The number a code names for this event: a QR code's (EVT1.<event>.<number>.<signature>) or one typed, forgiving spaces, dashes and case. */
export function numberOfCode(code: string, eventId: number): string | null {
  const trimmed = code.trim();
  if (trimmed.startsWith("EVT1.")) {
    const [, event, number] = trimmed.split(".");
    return event === String(eventId) && number ? number : null;
  }
  const number = trimmed.replace(/[\s-]/g, "").toUpperCase();
  return number || null;
}

export type LocalCheck =
  { ok: true; place: ListPlace } | { ok: false; reason: "unknown" | "already_used" | "other_date"; place?: ListPlace };

/** The day in Kuwait of a moment, as a ticket's event_date is written. */
function kuwaitDate(at: string): string {
  return DateTime.fromISO(at, { zone: "utc" }).setZone(DISPLAY_ZONE).toFormat("yyyy-MM-dd");
}

/**
 * A scan checked against the downloaded list: a number on it not yet admitted (at the time of the
 * list, or since on this device) and for today's date is admitted here and queued for the server,
 * which has the last word. A ticket of another date waits for the network: only online can staff
 * who may let it in anyway.
 */
export function checkOffline(eventId: number, code: string, at: string): LocalCheck {
  const list = loadList(eventId);
  const number = numberOfCode(code, eventId);
  const place = number ? list?.places.find((entry) => entry.number === number) : undefined;
  if (!place || !number) return { ok: false, reason: "unknown" };
  const admitted = loadAdmitted(eventId);
  if (place.scanned || admitted.includes(number)) return { ok: false, reason: "already_used", place };
  if (place.event_date !== kuwaitDate(at)) return { ok: false, reason: "other_date", place };
  saveAdmitted(eventId, [...admitted, number]);
  saveQueue(eventId, [...loadQueue(eventId), { code: code.trim(), scanned_at: at }]);
  return { ok: true, place };
}

/** A number the server admitted while online: the list must not admit it again offline. */
export function rememberAdmitted(eventId: number, number: string) {
  const admitted = loadAdmitted(eventId);
  if (!admitted.includes(number)) saveAdmitted(eventId, [...admitted, number]);
}
