import { describe, expect, it } from "vitest";
import { descriptionItems, LONG_ITEM_LENGTH } from "./order-description";

describe("order description", () => {
  it("takes one item a line, and 20 characters as the limit of a short item", () => {
    expect(descriptionItems("2 × Abaya\n\n  Gift wrap  \n")).toEqual(["2 × Abaya", "Gift wrap"]);
    expect(descriptionItems(null)).toEqual([]);
    expect(LONG_ITEM_LENGTH).toBe(20);
  });
});
