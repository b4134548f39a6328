import { DateTime } from "luxon";
import { now } from "~/lib/clock.server";
import { DISPLAY_ZONE } from "~/lib/format";

/**
 * The rule of a scan that uses something up (a place at an event's door): it is handed over only
 * when paid, only once, whoever scans it and however many devices scan it at the same moment, and
 * only on its own date (in Kuwait), unless staff who may let it in on another day choose to, which
 * is always audited. The section finds what the code names within the merchant, writes the use and
 * the audit line with its own words; this decides, in one order, for every section.
 */

/** What a scan found, as the rule needs to see it. */
export type Fulfillable = {
  paid: boolean;
  /** When it was used up, if it was. */
  usedAt: string | null;
  /** The day it is for (yyyy-MM-dd, in Kuwait), or null when any day will do. */
  date: string | null;
};

export type FulfilmentOutcome =
  | { ok: true; usedAt: string; otherDate: boolean }
  | { ok: false; code: "not_paid" | "other_date" }
  /** `usedAt` null: another scan used it between the read and the write; the section reads who. */
  | { ok: false; code: "already_used"; usedAt: string | null };

/**
 * The time of a scan a device made offline and sent later: its own clock, but never later than the
 * server heard of it (a device's clock may run ahead); null when it is no time at all.
 */
export function deviceScanTime(scannedAt: string | undefined): string | null {
  if (!scannedAt) return null;
  const time = Date.parse(scannedAt);
  if (!Number.isFinite(time)) return null;
  return new Date(Math.min(time, now().getTime())).toISOString();
}

/** The day in Kuwait, where things are handed over, of a moment: what a `date` is compared with. */
export function scanDay(at: string): string {
  return DateTime.fromISO(at, { zone: "utc" }).setZone(DISPLAY_ZONE).toFormat("yyyy-MM-dd");
}

/**
 * Uses `found` once at `at`. `markUsed` is the section's one conditional write (it changes the row
 * only while it is unused, and answers whether it did): on both engines only one writer wins.
 * `anyDate`: staff who may (the caller checks the section's permission) let it in on another day;
 * such a use is always followed by `auditOtherDate`.
 */
export async function fulfilOnce(
  found: Fulfillable,
  input: {
    at: string;
    anyDate?: boolean;
    markUsed: (at: string) => Promise<boolean>;
    auditOtherDate: () => Promise<unknown>;
  },
): Promise<FulfilmentOutcome> {
  if (!found.paid) return { ok: false, code: "not_paid" };
  if (found.usedAt) return { ok: false, code: "already_used", usedAt: found.usedAt };
  const otherDate = found.date !== null && found.date !== scanDay(input.at);
  if (otherDate && !input.anyDate) return { ok: false, code: "other_date" };
  if (!(await input.markUsed(input.at))) return { ok: false, code: "already_used", usedAt: null };
  if (otherDate) await input.auditOtherDate();
  return { ok: true, usedAt: input.at, otherDate };
}
