import fs from "node:fs";
import { describe, it, expect } from "vitest";
import {
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULES,
  exceedsMaximumLengthRatio,
  quickRatio,
  validatePassword,
} from "./password-rules.server";

const commonList = fs
  .readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean);

describe("common-passwords.txt", () => {
  it("is lowercased, trimmed, at least 8 chars, sorted and unique", () => {
    expect(commonList.length).toBeGreaterThan(8000);
    for (const entry of commonList) {
      expect(entry).toBe(entry.toLowerCase().trim());
      expect(Array.from(entry).length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
    }
    expect(new Set(commonList).size).toBe(commonList.length);
    expect([...commonList].sort()).toEqual(commonList);
  });

  it("contains the entries used below", () => {
    for (const entry of ["password123", "qwerty123", "12345678", "iloveyou"]) {
      expect(commonList).toContain(entry);
    }
  });
});

describe("quickRatio (difflib.SequenceMatcher.quick_ratio)", () => {
  it("matches Python's values", () => {
    expect(quickRatio("johnsmith1!", "johnsmith")).toBeCloseTo(0.9, 10);
    expect(quickRatio("kuwait2024!", "kuwait")).toBeCloseTo(12 / 17, 10);
    expect(quickRatio("", "")).toBe(1);
    expect(quickRatio("abc", "")).toBe(0);
  });

  it("counts code points, not UTF-16 units", () => {
    expect(quickRatio("😀a", "😀b")).toBe(0.5);
  });
});

describe("validatePassword", () => {
  it("accepts a good password", () => {
    expect(validatePassword("Demo@2026!", { username: "admin" })).toEqual([]);
  });

  it("too_short", () => {
    expect(validatePassword("Ab1!xyz", {})).toEqual(["password.too_short"]);
    expect(validatePassword("Ab1!xyzw", {})).toEqual([]);
  });

  it("too_similar (worked values)", () => {
    expect(validatePassword("JohnSmith1!", { username: "johnsmith" })).toEqual(["password.too_similar"]);
    expect(validatePassword("Kuwait2024!", { username: "kuwait" })).toEqual(["password.too_similar"]);
  });

  it("reports too_similar once when several attributes match", () => {
    const user = { username: "kuwait", firstName: "Kuwait", lastName: "KUWAIT" };
    expect(validatePassword("Kuwait2024!", user)).toEqual(["password.too_similar"]);
  });

  it("checks email parts", () => {
    const email = "sara.ahmad@example.com";
    // "ahmad123!" vs part "ahmad": 10/14 = 0.714
    expect(validatePassword("Ahmad123!", { email })).toEqual(["password.too_similar"]);
    // "alsabah1!" vs part "alsabah": 0.875, but vs the whole address only 0.41
    expect(validatePassword("Alsabah1!", { email: "ahmad.alsabah@example.com" })).toEqual(["password.too_similar"]);
    // Django parity: best part/whole ratio is 10/17 = 0.588 < 0.7, so Django accepts it.
    expect(validatePassword("Sara.ahmad1!", { email })).toEqual([]);
  });

  it("skips attributes per Django's maximum length ratio", () => {
    const password = `${"a".repeat(40)}Z1!`;
    expect(exceedsMaximumLengthRatio(password.toLowerCase(), 0.7, "a")).toBe(true);
    expect(exceedsMaximumLengthRatio("kuwait2024!", 0.7, "kuwait")).toBe(false);
    expect(validatePassword(password, { username: "a" })).toEqual([]);
  });

  it("ignores empty and null attributes", () => {
    const user = { username: "", email: null, firstName: undefined, lastName: "" };
    expect(validatePassword("Demo@2026!", user)).toEqual([]);
  });

  it("too_common (case-insensitive, trimmed)", () => {
    expect(validatePassword("password123", {})).toContain("password.too_common");
    expect(validatePassword("  QWERTY123  ", {})).toContain("password.too_common");
    expect(validatePassword("  QWERTY123  ", {})).not.toContain("password.needs_special");
  });

  it("entirely_numeric", () => {
    expect(validatePassword("12345678", {})).toEqual([
      "password.too_common",
      "password.entirely_numeric",
      "password.needs_special",
      "password.needs_upper",
    ]);
    expect(validatePassword("90817263", {})).toEqual([
      "password.entirely_numeric",
      "password.needs_special",
      "password.needs_upper",
    ]);
  });

  it("needs_special", () => {
    expect(validatePassword("Xyzqwrt1", {})).toEqual(["password.needs_special"]);
    // Arabic letters are letters, not special characters.
    expect(validatePassword("كلمةسرA2024", {})).toEqual(["password.needs_special"]);
  });

  it("needs_digit", () => {
    expect(validatePassword("Abcdefg!", {})).toEqual(["password.needs_digit"]);
  });

  it("needs_upper", () => {
    expect(validatePassword("abcdefg1!", {})).toEqual(["password.needs_upper"]);
    expect(validatePassword("ÉCOLE-été-9", {})).toEqual([]);
  });

  it("Arabic letters (no case) do not count as upper case", () => {
    expect(validatePassword("كلمة@سر2024", {})).toEqual(["password.needs_upper"]);
  });

  it("returns all applicable errors in order", () => {
    expect(validatePassword("", {})).toEqual([
      "password.too_short",
      "password.needs_special",
      "password.needs_digit",
      "password.needs_upper",
    ]);
    expect(validatePassword("kuwait", { username: "kuwait" })).toEqual([
      "password.too_short",
      "password.too_similar",
      "password.needs_special",
      "password.needs_digit",
      "password.needs_upper",
    ]);
  });

  it("stays fast on very long input", () => {
    const password = "Ab1!".repeat(50_000);
    const email = `${"x.".repeat(20_000)}@example.com`;
    const start = performance.now();
    expect(validatePassword(password, { username: "a".repeat(20_000), email })).toEqual([]);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});

describe("PASSWORD_RULES", () => {
  it("lists the rule keys in display order", () => {
    expect(PASSWORD_RULES).toEqual([
      "password_rules.similar",
      "password_rules.min_length",
      "password_rules.common",
      "password_rules.numeric",
      "password_rules.special",
      "password_rules.digit",
      "password_rules.upper",
    ]);
  });
});
