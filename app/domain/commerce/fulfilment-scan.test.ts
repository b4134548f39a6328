import { describe, expect, it, vi } from "vitest";
import { now } from "~/lib/clock.server";
import { deviceScanTime, fulfilOnce, scanDay, type Fulfillable } from "./fulfilment-scan.server";

/** 21:00 on 20 Dec 2026 in Kuwait (UTC+3). */
const AT = "2026-12-20T18:00:00.000Z";
const unused: Fulfillable = { paid: true, usedAt: null, date: "2026-12-20" };

function writes(won = true) {
  return { markUsed: vi.fn(async () => won), auditOtherDate: vi.fn(async () => undefined) };
}

describe("the rule of a scan that uses something up", () => {
  it("uses a paid, unused thing of the day once, with no audit line", async () => {
    const write = writes();
    expect(await fulfilOnce(unused, { at: AT, ...write })).toEqual({ ok: true, usedAt: AT, otherDate: false });
    expect(write.markUsed).toHaveBeenCalledWith(AT);
    expect(write.auditOtherDate).not.toHaveBeenCalled();
  });

  it("refuses what is unpaid, then what was used, before it looks at the date, and writes nothing", async () => {
    const write = writes();
    expect(await fulfilOnce({ paid: false, usedAt: null, date: "2026-12-24" }, { at: AT, ...write })).toEqual({
      ok: false,
      code: "not_paid",
    });
    expect(
      await fulfilOnce({ paid: true, usedAt: "2026-12-19T17:00:00.000Z", date: "2026-12-24" }, { at: AT, ...write }),
    ).toEqual({ ok: false, code: "already_used", usedAt: "2026-12-19T17:00:00.000Z" });
    expect(write.markUsed).not.toHaveBeenCalled();
  });

  it("refuses another date's thing unless staff who may let it in, and then always audits it", async () => {
    const refused = writes();
    const tomorrow = { ...unused, date: "2026-12-21" };
    expect(await fulfilOnce(tomorrow, { at: AT, ...refused })).toEqual({ ok: false, code: "other_date" });
    expect(refused.markUsed).not.toHaveBeenCalled();
    const admitted = writes();
    expect(await fulfilOnce(tomorrow, { at: AT, anyDate: true, ...admitted })).toEqual({
      ok: true,
      usedAt: AT,
      otherDate: true,
    });
    expect(admitted.auditOtherDate).toHaveBeenCalledTimes(1);
    // Letting in "any date" a thing of today is no exception to audit.
    const today = writes();
    await fulfilOnce(unused, { at: AT, anyDate: true, ...today });
    expect(today.auditOtherDate).not.toHaveBeenCalled();
  });

  it("takes a thing of no date on any day", async () => {
    expect(await fulfilOnce({ ...unused, date: null }, { at: AT, ...writes() })).toMatchObject({ ok: true });
  });

  it("answers already used, with no time, when another scan won the write, and audits nothing", async () => {
    const lost = writes(false);
    expect(await fulfilOnce({ ...unused, date: "2026-12-21" }, { at: AT, anyDate: true, ...lost })).toEqual({
      ok: false,
      code: "already_used",
      usedAt: null,
    });
    expect(lost.auditOtherDate).not.toHaveBeenCalled();
  });

  it("reads the day in Kuwait and never takes a device's clock ahead of the server's", () => {
    expect(scanDay("2026-12-20T20:59:59.000Z")).toBe("2026-12-20");
    expect(scanDay("2026-12-20T21:00:00.000Z")).toBe("2026-12-21");
    expect(deviceScanTime("2020-12-20T17:06:00.000Z")).toBe("2020-12-20T17:06:00.000Z");
    const before = now().getTime();
    const ahead = Date.parse(deviceScanTime("2999-01-01T00:00:00.000Z")!);
    expect(ahead).toBeGreaterThanOrEqual(before);
    expect(ahead).toBeLessThanOrEqual(now().getTime());
    expect(deviceScanTime("not a time")).toBeNull();
    expect(deviceScanTime(undefined)).toBeNull();
  });
});
