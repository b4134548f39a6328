import { describe, expect, it } from "vitest";
import { deliverySummary } from "./delivery.server";

const address = JSON.stringify({
  address: "Home",
  area: "Salmiya",
  block: "3",
  street: "12",
  house_no: "7",
  office_no: "5",
  special_instructions: "Ring twice",
});

describe("the delivery address on the details page", () => {
  it("reads in the reader's language, the area too", () => {
    expect(deliverySummary(address, "en")).toBe(
      "Home, Salmiya, Block 3, Street 12, House 7, Apartment / office 5, Ring twice",
    );
    const arabic = deliverySummary(address, "ar");
    expect(arabic).toContain("السالمية");
    expect(arabic).not.toMatch(/Home|Block|Street|Salmiya/);
  });

  it("is a dash until the customer gives one", () => {
    expect(deliverySummary(null, "ar")).toBe("—");
  });
});
