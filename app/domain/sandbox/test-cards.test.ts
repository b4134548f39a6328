import { describe, expect, it } from "vitest";
import { isExpiryCurrent, mpgsGatewayCodeFor, knetPostDate, knetResultForCard, maskCardNumber } from "./test-cards";

describe("sandbox test cards", () => {
  it("keeps only the first six and last four digits", () => {
    expect(maskCardNumber("8888880000000001")).toBe("888888******0001");
    expect(maskCardNumber("4111111111111111")).toBe("411111******1111");
  });

  it("decides KNET outcomes by card number", () => {
    expect(knetResultForCard("8888880000000001")).toBe("CAPTURED");
    expect(knetResultForCard("8888880000000002")).toBe("NOT CAPTURED");
    expect(knetResultForCard("1234567890123456")).toBe("NOT CAPTURED");
    // KNET's own test rule for any other card: expiry 09/2021 captures, any other expiry does not.
    expect(knetResultForCard("1234567890123456", "09/2021")).toBe("CAPTURED");
    expect(knetResultForCard("1234567890123456", "10/2021")).toBe("NOT CAPTURED");
    expect(knetResultForCard("1234567890123456", "09/2022")).toBe("NOT CAPTURED");
    expect(knetResultForCard("8888880000000002", "09/2021")).toBe("NOT CAPTURED");
    expect(knetResultForCard("8888880000000001", "01/2030")).toBe("CAPTURED");
  });

  it("decides the Mastercard Gateway's test cards by expiry, as its test environment does", () => {
    expect(mpgsGatewayCodeFor("5123450000000008", "01/39")).toBe("APPROVED");
    expect(mpgsGatewayCodeFor("4508750015741019", "01/39")).toBe("APPROVED");
    expect(mpgsGatewayCodeFor("5123450000000008", "05/39")).toBe("DECLINED");
    expect(mpgsGatewayCodeFor("5123450000000008", "04/27")).toBe("EXPIRED_CARD");
    expect(mpgsGatewayCodeFor("5123450000000008", "08/28")).toBe("TIMED_OUT");
    expect(mpgsGatewayCodeFor("5123450000000008", "12/39")).toBe("DECLINED");
    expect(mpgsGatewayCodeFor("5555555555554444", "01/39")).toBe("DECLINED");
  });

  it("dates KNET's post date in Kuwait (UTC+3)", () => {
    expect(knetPostDate(new Date("2026-03-14T12:00:00Z"))).toBe("0314");
    expect(knetPostDate(new Date("2026-12-31T21:00:00Z"))).toBe("0101");
    expect(knetPostDate(new Date("2026-12-31T20:59:59Z"))).toBe("1231");
  });

  it("accepts an expiry through the end of its month, by Kuwait's calendar", () => {
    const at = new Date("2026-03-31T20:59:59Z");
    expect(isExpiryCurrent("03/26", at)).toBe(true);
    expect(isExpiryCurrent("12/30", at)).toBe(true);
    expect(isExpiryCurrent("02/26", at)).toBe(false);
    expect(isExpiryCurrent("03/26", new Date("2026-03-31T21:00:00Z"))).toBe(false);
    for (const bad of ["13/27", "00/27", "3/27", "03/2027", "0327", ""]) expect(isExpiryCurrent(bad, at)).toBe(false);
  });
});
