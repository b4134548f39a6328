import { describe, expect, it } from "vitest";
import { isKuwaitArea, KUWAIT_AREAS, KUWAIT_AREAS_AR, KUWAIT_AREAS_EN } from "./kuwait-areas";

describe("kuwait areas", () => {
  it("has at least 80 areas, with matching English and Arabic lists", () => {
    expect(KUWAIT_AREAS.length).toBeGreaterThanOrEqual(80);
    expect(KUWAIT_AREAS_EN).toHaveLength(KUWAIT_AREAS.length);
    expect(KUWAIT_AREAS_AR).toHaveLength(KUWAIT_AREAS.length);
  });

  it("has no duplicate English or Arabic names", () => {
    expect(new Set(KUWAIT_AREAS_EN).size).toBe(KUWAIT_AREAS_EN.length);
    expect(new Set(KUWAIT_AREAS_AR).size).toBe(KUWAIT_AREAS_AR.length);
  });

  it("writes every Arabic name in Arabic letters, spaces and hyphens only", () => {
    for (const name of KUWAIT_AREAS_AR) {
      expect(name, name).toMatch(/^[\u0621-\u063A\u0641-\u064A]+(?:[ -][\u0621-\u063A\u0641-\u064A]+)*$/);
    }
  });

  it("recognises names in either language, exactly", () => {
    expect(isKuwaitArea("Salmiya")).toBe(true);
    expect(isKuwaitArea("السالمية")).toBe(true);
    expect(isKuwaitArea("Kuwait City")).toBe(true);
    expect(isKuwaitArea("مدينة الكويت")).toBe(true);
    expect(isKuwaitArea("salmiya")).toBe(false);
    expect(isKuwaitArea(" Salmiya")).toBe(false);
    expect(isKuwaitArea("Riyadh")).toBe(false);
    expect(isKuwaitArea("")).toBe(false);
  });
});
