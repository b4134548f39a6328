import { describe, expect, it } from "vitest";
import { remarkRows } from "./remarks";

describe("remarks", () => {
  it("splits rows at ~ and each row at its first colon", () => {
    expect(remarkRows("Size: M~Colour: black~Pick-up time: 10:30 AM~Gift")).toEqual([
      ["Size", "M"],
      ["Colour", "black"],
      ["Pick-up time", "10:30 AM"],
      ["Gift", ""],
    ]);
    expect(remarkRows(null)).toEqual([]);
    expect(remarkRows(" ~ ")).toEqual([]);
  });
});
