import { describe, expect, it } from "vitest";
import { isLocalPath, safeRedirectPath } from "./guards.server";

describe("redirect targets", () => {
  it("accepts paths on this site", () => {
    expect(isLocalPath("/en/help?tab=1")).toBe(true);
    expect(safeRedirectPath("/ar/user", "/en")).toBe("/ar/user");
  });

  it("refuses anything a browser would take to another host", () => {
    for (const value of [
      "//evil.example",
      "/\t/evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "https://evil.example",
      "/%09/evil.example",
      " /en",
      "",
      null,
      42,
    ]) {
      expect(isLocalPath(value), JSON.stringify(value)).toBe(false);
    }
    expect(safeRedirectPath("/\n/evil.example", "/en")).toBe("/en");
  });
});
