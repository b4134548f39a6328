/**
 * The statistics home's periods (docs/decisions/0009), in Kuwait time. Kuwait keeps UTC+3 all
 * year, so its days and hours are fixed offsets of UTC ones and plain arithmetic is exact.
 */

export const CALENDAR_PERIODS = ["day", "week", "month", "year"] as const;
export const PERIOD_CHOICES = [...CALENDAR_PERIODS, "custom"] as const;
export type StatisticsPeriod = (typeof PERIOD_CHOICES)[number];
export const DEFAULT_PERIOD: StatisticsPeriod = "day";

/** How a period's charts are bucketed. "all": one bucket, for totals only. */
export type Granularity = "hour" | "day" | "month" | "all";

/** [from, to) as UTC ISO instants. */
export type TimeRange = { from: string; to: string };

export type ResolvedPeriod = {
  period: StatisticsPeriod;
  /** The Kuwait days the period covers, inclusive: what the transaction list's date filters take. */
  dateAfter: string;
  dateBefore: string;
  current: TimeRange;
  /** The equal span just before: the same elapsed time from the start of the previous day, week, month or year. */
  previous: TimeRange;
  granularity: Exclude<Granularity, "all">;
};

export type PeriodOutcome =
  | { ok: true; value: ResolvedPeriod }
  /** `incomplete`: a custom period without both dates, which is not loaded (not an error on the page). */
  | { ok: false; incomplete: boolean; errors: Record<string, string> };

const HOUR = 3_600_000;
const DAY = 86_400_000;
const OFFSET = 3 * HOUR;
/** The oldest date a custom period may start, and its longest span (ten years, the charts' limit). */
const FIRST_DATE = "2000-01-01";
const MAX_CUSTOM_DAYS = 3660;
/** Custom periods up to this many days are charted by day, longer ones by month. */
const DAILY_UP_TO_DAYS = 92;

const iso = (ms: number) => new Date(ms).toISOString();
/** Days since 1970-01-01 of the Kuwait calendar day an instant falls on. */
export const kuwaitDayNumber = (ms: number) => Math.floor((ms + OFFSET) / DAY);
const midnight = (dayNumber: number) => dayNumber * DAY - OFFSET;
const dateOf = (dayNumber: number) => new Date(dayNumber * DAY).toISOString().slice(0, 10);

export function kuwaitDate(ms: number): string {
  return dateOf(kuwaitDayNumber(ms));
}

/** "2026-03-10" → its day number; null when it is not a real calendar date. */
export function parseDate(value: string | null | undefined): number | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const [year, month, day] = value.split("-").map(Number);
  const ms = Date.UTC(year, month - 1, day);
  if (new Date(ms).toISOString().slice(0, 10) !== value) return null;
  return ms / DAY;
}

function monthStart(year: number, monthIndex: number) {
  return Date.UTC(year, monthIndex, 1) / DAY;
}

/** The first day of the calendar period holding `today`, and of the one before it. Weeks start on Sunday. */
function calendarStarts(period: (typeof CALENDAR_PERIODS)[number], today: number): [number, number] {
  const date = new Date(today * DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (period) {
    case "day":
      return [today, today - 1];
    case "week": {
      const sunday = today - date.getUTCDay();
      return [sunday, sunday - 7];
    }
    case "month":
      return [monthStart(year, month), monthStart(year, month - 1)];
    case "year":
      return [monthStart(year, 0), monthStart(year - 1, 0)];
  }
}

export function isPeriod(value: unknown): value is StatisticsPeriod {
  return (PERIOD_CHOICES as readonly unknown[]).includes(value);
}

/**
 * The period asked for (query `period`, `date_after`, `date_before`) at `now`. A calendar period
 * runs from its start to now; the previous one covers the same elapsed time from the start of the
 * previous period (cut at the current one's start when that is shorter, as February is). A custom
 * period runs over whole Kuwait days (up to now) and is compared with the equal span just before it.
 */
export function resolvePeriod(
  input: { period?: string | null; date_after?: string | null; date_before?: string | null },
  now: Date,
): PeriodOutcome {
  const period = input.period || DEFAULT_PERIOD;
  if (!isPeriod(period)) return { ok: false, incomplete: false, errors: { period: "api.invalid_choice" } };
  const nowMs = now.getTime();
  const today = kuwaitDayNumber(nowMs);

  if (period !== "custom") {
    const [start, previousStart] = calendarStarts(period, today);
    const from = midnight(start);
    const previousFrom = midnight(previousStart);
    const previousTo = Math.min(previousFrom + (nowMs - from), from);
    return {
      ok: true,
      value: {
        period,
        dateAfter: dateOf(start),
        dateBefore: dateOf(today),
        current: { from: iso(from), to: iso(nowMs) },
        previous: { from: iso(previousFrom), to: iso(previousTo) },
        granularity: period === "day" ? "hour" : period === "year" ? "month" : "day",
      },
    };
  }

  const errors: Record<string, string> = {};
  const after = parseDate(input.date_after);
  const before = parseDate(input.date_before);
  const missing = !input.date_after || !input.date_before;
  if (!input.date_after) errors.date_after = "errors.required";
  else if (after === null || input.date_after < FIRST_DATE) errors.date_after = "statistics.errors.bad_date";
  if (!input.date_before) errors.date_before = "errors.required";
  else if (before === null || input.date_before < FIRST_DATE) errors.date_before = "statistics.errors.bad_date";
  if (after !== null && before !== null) {
    if (before < after) errors.date_before = "statistics.errors.to_before_from";
    else if (before - after + 1 > MAX_CUSTOM_DAYS) errors.date_before = "statistics.errors.too_long";
  }
  if (Object.keys(errors).length || after === null || before === null) {
    const onlyMissing = missing && Object.values(errors).every((key) => key === "errors.required");
    return { ok: false, incomplete: onlyMissing, errors };
  }
  const from = midnight(after);
  const to = Math.max(from, Math.min(midnight(before + 1), nowMs));
  const days = before - after + 1;
  return {
    ok: true,
    value: {
      period,
      dateAfter: dateOf(after),
      dateBefore: dateOf(before),
      current: { from: iso(from), to: iso(to) },
      previous: { from: iso(from - (to - from)), to: iso(from) },
      granularity: days === 1 ? "hour" : days <= DAILY_UP_TO_DAYS ? "day" : "month",
    },
  };
}

/** The labels of a range's chart buckets, oldest first: "2026-03-10T09", "2026-03-10" or "2026-03". */
export function bucketsOf(range: TimeRange, granularity: Granularity): string[] {
  const from = Date.parse(range.from);
  const last = Date.parse(range.to) - 1;
  if (last < from) return [];
  if (granularity === "all") return [""];
  if (granularity === "hour") {
    const labels: string[] = [];
    for (let hour = Math.floor(from / HOUR) * HOUR; hour <= last; hour += HOUR)
      labels.push(iso(hour + OFFSET).slice(0, 13));
    return labels;
  }
  const labels: string[] = [];
  for (let day = kuwaitDayNumber(from); day <= kuwaitDayNumber(last); day++) {
    const label = granularity === "day" ? dateOf(day) : dateOf(day).slice(0, 7);
    if (labels[labels.length - 1] !== label) labels.push(label);
  }
  return labels;
}

/**
 * How a range is read: whole Kuwait days from the daily rollup, and the parts of days at either end
 * from the rows themselves. A last day that runs to now is whole as far as the rollup knows: no row
 * is created after now.
 */
export function splitRange(
  range: TimeRange,
  now: Date,
): { raw: TimeRange[]; days: { first: string; last: string } | null } {
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (to <= from) return { raw: [], days: null };
  const firstWhole = kuwaitDayNumber(from - 1) + 1;
  const endDay = to >= now.getTime() ? kuwaitDayNumber(to - 1) + 1 : kuwaitDayNumber(to);
  if (endDay <= firstWhole) return { raw: [range], days: null };
  const raw: TimeRange[] = [];
  if (from < midnight(firstWhole)) raw.push({ from: range.from, to: iso(midnight(firstWhole)) });
  if (midnight(endDay) < to) raw.push({ from: iso(midnight(endDay)), to: range.to });
  return { raw, days: { first: dateOf(firstWhole), last: dateOf(endDay - 1) } };
}

/** The ten years the average-size chart offers: this Kuwait year and the nine before it. */
export function averageSizeYears(now: Date): number[] {
  const year = Number(kuwaitDate(now.getTime()).slice(0, 4));
  return Array.from({ length: 10 }, (_, index) => year - index);
}
