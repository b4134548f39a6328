import { DateTime } from "luxon";

export type Interval = { weekday: number; opens: string; closes: string };

/** Kuwait, where the branches are. */
export const KUWAIT = "Asia/Kuwait";

/** Whether a moment (Kuwait time) falls within one of the branch's intervals of that weekday (1 Monday … 7 Sunday). */
export function isOpenAt(hours: readonly Interval[], at: DateTime): boolean {
  const local = at.setZone(KUWAIT);
  const time = local.toFormat("HH:mm");
  return hours.some(
    (interval) => interval.weekday === local.weekday && interval.opens <= time && time < interval.closes,
  );
}

/** "YYYY-MM-DDTHH:MM" in Kuwait time, or ISO with an offset; undefined when unreadable. */
export function parseScheduled(value: string): DateTime | undefined {
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value);
  const parsed = hasZone ? DateTime.fromISO(value, { setZone: true }) : DateTime.fromISO(value, { zone: KUWAIT });
  return parsed.isValid ? parsed : undefined;
}
