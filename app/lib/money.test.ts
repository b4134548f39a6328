import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeFee, exponentOf, formatAmount, parseAmount, priceWithFee, toDecimalString } from "./money";

const currencies = fc.constantFrom("KWD", "USD", "JPY", "BHD", "EUR");

describe("money", () => {
  it("knows the ISO 4217 exponents", () => {
    expect([exponentOf("KWD"), exponentOf("usd"), exponentOf("JPY"), exponentOf("XYZ")]).toEqual([3, 2, 0, 2]);
  });

  it("parses decimal strings into minor units", () => {
    expect(parseAmount("12.500", "KWD")).toEqual({ ok: true, minor: 12500 });
    expect(parseAmount("12.5", "KWD")).toEqual({ ok: true, minor: 12500 });
    expect(parseAmount("0.001", "KWD")).toEqual({ ok: true, minor: 1 });
    expect(parseAmount("١٢٫٥", "KWD")).toEqual({ ok: true, minor: 12500 });
    expect(parseAmount("١٢.٥", "KWD")).toEqual({ ok: true, minor: 12500 });
    expect(parseAmount("12.345", "USD")).toEqual({ ok: false, error: "money.too_many_decimals" });
    expect(parseAmount("12.340", "USD")).toEqual({ ok: true, minor: 1234 });
    expect(parseAmount("7", "JPY")).toEqual({ ok: true, minor: 7 });
    expect(parseAmount("-1", "KWD").ok).toBe(false);
    expect(parseAmount("1e3", "KWD").ok).toBe(false);
    expect(parseAmount("", "KWD").ok).toBe(false);
    expect(parseAmount("99999999999999999", "KWD")).toEqual({ ok: false, error: "money.too_large" });
  });

  it("refuses a comma or a thousands separator rather than guess what it means", () => {
    for (const text of ["1,000", "1,5", "1,000.500", "12,", "1٬000", "١٬٠٠٠", "1،000", "١٬٠٠٠٫٥"]) {
      expect(parseAmount(text, "KWD"), text).toEqual({ ok: false, error: "money.thousands_separator" });
    }
    expect(parseAmount("1000.500", "KWD")).toEqual({ ok: true, minor: 1000500 });
    expect(parseAmount("١٠٠٠٫٥", "KWD")).toEqual({ ok: true, minor: 1000500 });
  });

  it("writes decimal strings with the currency's places", () => {
    expect(toDecimalString(12500, "KWD")).toBe("12.500");
    expect(toDecimalString(5, "KWD")).toBe("0.005");
    expect(toDecimalString(1234, "USD")).toBe("12.34");
    expect(toDecimalString(7, "JPY")).toBe("7");
  });

  it("formats per language with Latin digits", () => {
    expect(formatAmount(12500, "KWD", "en")).toBe("KWD\u00a012.500");
    expect(formatAmount(12500, "KWD", "ar")).toContain("12.500");
    expect(formatAmount(123456789, "KWD", "en")).toBe("KWD\u00a0123,456.789");
  });

  it("round-trips every amount through its decimal string", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 14 }), currencies, (minor, currency) => {
        expect(parseAmount(toDecimalString(minor, currency), currency)).toEqual({ ok: true, minor });
      }),
    );
  });

  it("rounds fees half-up", () => {
    expect(computeFee(12500, { fixed: 0, basisPoints: 250 })).toBe(313); // 312.5 → 313
    expect(computeFee(12500, { fixed: 100, basisPoints: 0 })).toBe(100);
    expect(computeFee(1, { fixed: 0, basisPoints: 4999 })).toBe(0); // 0.4999 → 0
    expect(computeFee(2, { fixed: 0, basisPoints: 2500 })).toBe(1); // 0.5 → 1
  });

  it("keeps fee + net = gross, whoever pays, and never produces a fraction", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom("customer" as const, "merchant" as const),
        (amount, fixed, basisPoints, payer) => {
          const { gross, fee, net } = priceWithFee(amount, { fixed, basisPoints }, payer);
          expect(fee + net).toBe(gross);
          expect([gross, fee, net].every(Number.isSafeInteger)).toBe(true);
          expect(payer === "customer" ? gross - amount : amount - net).toBe(fee);
        },
      ),
    );
  });

  it("refuses non-integer money", () => {
    expect(() => toDecimalString(1.5, "KWD")).toThrow(RangeError);
    expect(() => computeFee(10.1, { fixed: 0, basisPoints: 1 })).toThrow(RangeError);
  });
});
