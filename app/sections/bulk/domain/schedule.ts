import { DateTime } from "luxon";
import { DISPLAY_ZONE } from "~/lib/format";
import type { Schedule } from "./bulk-columns";

/**
 * When a recurring bulk runs next: the first of `from` + k weeks (or months, on the same day of the
 * month in Kuwait, the month's last day when it has fewer) that is after `after`. Counted from the
 * day the schedule began rather than from the last run, so that a short month never moves the
 * day for good, and a platform that was down for a while runs once, not once per missed period.
 */
export function nextRunAt(schedule: Exclude<Schedule, "none">, from: Date, after: Date): Date {
  const start = DateTime.fromJSDate(from, { zone: DISPLAY_ZONE });
  const step = (count: number) =>
    schedule === "weekly" ? start.plus({ weeks: count }) : start.plus({ months: count });
  // A first guess near the answer, then forward one period at a time.
  const periodMs = schedule === "weekly" ? 7 * 86_400_000 : 28 * 86_400_000;
  let count = Math.max(1, Math.floor((after.getTime() - from.getTime()) / periodMs) - 1);
  while (step(count).toMillis() <= after.getTime()) count++;
  while (count > 1 && step(count - 1).toMillis() > after.getTime()) count--;
  return step(count).toJSDate();
}
