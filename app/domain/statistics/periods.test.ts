import { describe, expect, it } from "vitest";
import { averageSizeYears, bucketsOf, resolvePeriod, splitRange } from "./periods";

const at = (iso: string) => new Date(iso);
const resolved = (query: Record<string, string>, now: string) => {
  const outcome = resolvePeriod(query, at(now));
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return outcome.value;
};

describe("the calendar periods, in Kuwait time", () => {
  it("starts today at Kuwait midnight, 21:00 UTC the day before", () => {
    // 22:30 UTC on the 10th is already 01:30 on the 11th in Kuwait.
    const day = resolved({}, "2026-03-10T22:30:00.000Z");
    expect(day).toMatchObject({
      period: "day",
      dateAfter: "2026-03-11",
      dateBefore: "2026-03-11",
      granularity: "hour",
    });
    expect(day.current).toEqual({ from: "2026-03-10T21:00:00.000Z", to: "2026-03-10T22:30:00.000Z" });
    expect(day.previous).toEqual({ from: "2026-03-09T21:00:00.000Z", to: "2026-03-09T22:30:00.000Z" });
  });

  it("starts the week on Sunday", () => {
    // Saturday 14 March 2026, 10:00 in Kuwait: the week began on Sunday the 8th.
    const week = resolved({ period: "week" }, "2026-03-14T07:00:00.000Z");
    expect(week).toMatchObject({ dateAfter: "2026-03-08", dateBefore: "2026-03-14", granularity: "day" });
    expect(week.previous).toEqual({ from: "2026-02-28T21:00:00.000Z", to: "2026-03-07T07:00:00.000Z" });
    const sunday = resolved({ period: "week" }, "2026-03-08T05:00:00.000Z");
    expect(sunday.dateAfter).toBe("2026-03-08");
  });

  it("cuts the previous month at this month's start when it is shorter", () => {
    const month = resolved({ period: "month" }, "2026-03-31T12:00:00.000Z");
    expect(month.current.from).toBe("2026-02-28T21:00:00.000Z");
    expect(month.previous).toEqual({ from: "2026-01-31T21:00:00.000Z", to: "2026-02-28T21:00:00.000Z" });
    const april = resolved({ period: "month" }, "2026-04-10T12:00:00.000Z");
    expect(april.previous).toEqual({ from: "2026-02-28T21:00:00.000Z", to: "2026-03-10T12:00:00.000Z" });
  });

  it("compares this year with the same span of the last, charted by month", () => {
    const year = resolved({ period: "year" }, "2028-03-01T09:00:00.000Z");
    expect(year).toMatchObject({ dateAfter: "2028-01-01", granularity: "month" });
    // 2028 is a leap year: 1 March 2028 is day 61, so is 2 March 2027.
    expect(year.previous).toEqual({ from: "2026-12-31T21:00:00.000Z", to: "2027-03-02T09:00:00.000Z" });
  });

  it("refuses an unknown period", () => {
    expect(resolvePeriod({ period: "decade" }, at("2026-03-10T10:00:00.000Z"))).toEqual({
      ok: false,
      incomplete: false,
      errors: { period: "api.invalid_choice" },
    });
  });
});

describe("a custom period", () => {
  const now = "2026-03-11T09:30:00.000Z";

  it("is not loaded until both dates are set", () => {
    expect(resolvePeriod({ period: "custom" }, at(now))).toEqual({
      ok: false,
      incomplete: true,
      errors: { date_after: "errors.required", date_before: "errors.required" },
    });
    expect(resolvePeriod({ period: "custom", date_after: "2026-03-01" }, at(now))).toMatchObject({
      ok: false,
      incomplete: true,
    });
  });

  it("refuses bad dates, To before From and more than ten years", () => {
    expect(resolvePeriod({ period: "custom", date_after: "2026-02-30", date_before: "2026-03-01" }, at(now))).toEqual({
      ok: false,
      incomplete: false,
      errors: { date_after: "statistics.errors.bad_date" },
    });
    expect(
      resolvePeriod({ period: "custom", date_after: "2026-03-05", date_before: "2026-03-01" }, at(now)),
    ).toMatchObject({ errors: { date_before: "statistics.errors.to_before_from" } });
    expect(
      resolvePeriod({ period: "custom", date_after: "2006-01-01", date_before: "2026-03-01" }, at(now)),
    ).toMatchObject({ errors: { date_before: "statistics.errors.too_long" } });
    expect(
      resolvePeriod({ period: "custom", date_after: "1999-12-31", date_before: "2000-01-02" }, at(now)),
    ).toMatchObject({ errors: { date_after: "statistics.errors.bad_date" } });
  });

  it("covers whole Kuwait days up to now, compared with the equal span before", () => {
    const past = resolved({ period: "custom", date_after: "2026-03-01", date_before: "2026-03-07" }, now);
    expect(past.current).toEqual({ from: "2026-02-28T21:00:00.000Z", to: "2026-03-07T21:00:00.000Z" });
    expect(past.previous).toEqual({ from: "2026-02-21T21:00:00.000Z", to: "2026-02-28T21:00:00.000Z" });
    expect(past.granularity).toBe("day");
    expect(resolved({ period: "custom", date_after: "2026-03-11", date_before: "2026-03-20" }, now).current.to).toBe(
      now,
    );
    expect(resolved({ period: "custom", date_after: "2026-03-05", date_before: "2026-03-05" }, now).granularity).toBe(
      "hour",
    );
    expect(resolved({ period: "custom", date_after: "2025-01-01", date_before: "2026-03-05" }, now).granularity).toBe(
      "month",
    );
    // Entirely in the future: empty, and so is the span before it.
    const future = resolved({ period: "custom", date_after: "2026-04-01", date_before: "2026-04-02" }, now);
    expect(future.current.from).toBe(future.current.to);
    expect(future.previous.from).toBe(future.previous.to);
  });
});

describe("buckets and reading plans", () => {
  it("labels hours, days and months in Kuwait time", () => {
    expect(bucketsOf({ from: "2026-03-10T21:00:00.000Z", to: "2026-03-10T23:10:00.000Z" }, "hour")).toEqual([
      "2026-03-11T00",
      "2026-03-11T01",
      "2026-03-11T02",
    ]);
    expect(bucketsOf({ from: "2026-02-27T21:00:00.000Z", to: "2026-03-01T21:00:00.000Z" }, "day")).toEqual([
      "2026-02-28",
      "2026-03-01",
    ]);
    expect(bucketsOf({ from: "2025-12-31T21:00:00.000Z", to: "2026-03-11T09:30:00.000Z" }, "month")).toEqual([
      "2026-01",
      "2026-02",
      "2026-03",
    ]);
    expect(bucketsOf({ from: "2026-03-01T00:00:00.000Z", to: "2026-03-01T00:00:00.000Z" }, "day")).toEqual([]);
  });

  it("reads whole days from the rollup and the ends of days from the rows", () => {
    const now = at("2026-03-11T09:30:00.000Z");
    // Last week's span: Sunday to Tuesday whole, Wednesday until 12:30 from the rows.
    expect(splitRange({ from: "2026-02-28T21:00:00.000Z", to: "2026-03-04T09:30:00.000Z" }, now)).toEqual({
      raw: [{ from: "2026-03-03T21:00:00.000Z", to: "2026-03-04T09:30:00.000Z" }],
      days: { first: "2026-03-01", last: "2026-03-03" },
    });
    // Up to now: today is whole as far as the rollup goes.
    expect(splitRange({ from: "2026-03-07T21:00:00.000Z", to: "2026-03-11T09:30:00.000Z" }, now)).toEqual({
      raw: [],
      days: { first: "2026-03-08", last: "2026-03-11" },
    });
    // Starting mid-day: that day's end from the rows.
    expect(splitRange({ from: "2026-03-08T08:30:00.000Z", to: "2026-03-09T21:00:00.000Z" }, now)).toEqual({
      raw: [{ from: "2026-03-08T08:30:00.000Z", to: "2026-03-08T21:00:00.000Z" }],
      days: { first: "2026-03-09", last: "2026-03-09" },
    });
    // Within one past day: the rows alone.
    const part = { from: "2026-03-09T21:00:00.000Z", to: "2026-03-10T09:30:00.000Z" };
    expect(splitRange(part, now)).toEqual({ raw: [part], days: null });
  });

  it("offers this Kuwait year and the nine before", () => {
    expect(averageSizeYears(at("2026-12-31T21:30:00.000Z"))).toEqual([
      2027, 2026, 2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018,
    ]);
  });
});
