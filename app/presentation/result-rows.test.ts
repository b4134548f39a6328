import { describe, expect, it } from "vitest";
import { customerResultRows, failureReasonOf, readablePostDate, resultRows } from "./result-rows.server";

const knetAttempt = {
  state: "success" as const,
  total: 12500,
  currency_code: "KWD",
  track_id: "572520040364638917",
  gateway_code: "knet-sandbox",
  gateway_kind: "knet",
  // 14:05 in Kuwait (UTC+3)
  completed_at: "2026-11-24T11:05:00.000Z",
  post_date: "1124",
  tran_id: "5149908026761188",
  auth_code: "123456",
  reference_id: "429931976471",
  payment_id: "100000000000001",
  card_masked: null as string | null,
};

describe("the result page's rows", () => {
  it("shows the time in Kuwait, KNET's track id once, and no post date on the payment's own day", () => {
    const rows = customerResultRows(knetAttempt, 7, { name_en: "KNET", name_ar: "كي نت" }, "en");
    expect(rows).toContainEqual(["result.date_kuwait", "24 Nov 2026, 02:05 PM"]);
    expect(rows).toContainEqual(["result.track_id", "572520040364638917"]);
    expect(rows.map(([label]) => label)).not.toContain("result.reference_no");
    expect(rows.map(([label]) => label)).not.toContain("result.post_date");
    const values = rows.map(([, value]) => value);
    expect(new Set(values).size).toBe(values.length);
  });

  it("shows a card's last four digits, never the rest of the number", () => {
    const card = {
      ...knetAttempt,
      gateway_kind: "card",
      gateway_code: "mpgs-sandbox",
      post_date: null,
      card_masked: "411111******1111",
    };
    const rows = customerResultRows(card, 8, { name_en: "Credit Card", name_ar: "بطاقة ائتمان" }, "en");
    expect(rows).toContainEqual(["result.card", "•••• 1111"]);
    expect(JSON.stringify(rows)).not.toContain("411111");
  });

  it("writes a later post date as a date, in the year nearest the payment", () => {
    expect(readablePostDate("1125", knetAttempt.completed_at, "en")).toBe("25 Nov 2026");
    expect(readablePostDate("0101", "2026-12-31T21:30:00.000Z", "en")).toBe(null); // 00:30 on 1 Jan 2027 in Kuwait: the same day
    expect(readablePostDate("0101", "2026-12-31T20:30:00.000Z", "en")).toBe("1 Jan 2027"); // 23:30 on 31 Dec in Kuwait
    expect(readablePostDate("0102", "2026-12-31T10:00:00.000Z", "en")).toBe("2 Jan 2027");
    expect(readablePostDate("1124", knetAttempt.completed_at, "en")).toBe(null);
  });

  it("leaves a gateway named like the status out, and keeps the receipt's rows with their keys", () => {
    const cod = {
      ...knetAttempt,
      state: "cod" as const,
      gateway_kind: "cod",
      gateway_code: "cod",
      post_date: null,
      tran_id: null,
      auth_code: null,
      reference_id: null,
      payment_id: null,
    };
    const rows = customerResultRows(cod, 3, { name_en: "Cash on delivery", name_ar: "الدفع عند الاستلام" }, "ar");
    expect(rows).toContainEqual(["result.status", "الدفع عند الاستلام"]);
    expect(rows.map(([label]) => label)).not.toContain("result.gateway");
    expect(rows).toContainEqual(["result.reference_no", knetAttempt.track_id]);
    expect(resultRows(cod, 3, { name_en: "Cash on delivery", name_ar: "الدفع عند الاستلام" }, "en")).toContainEqual([
      "result.status",
      "result.states.cod",
    ]);
  });
});

describe("why a payment did not go through", () => {
  it("reads the gateway's answer", () => {
    expect(failureReasonOf({ state: "failed", result_code: "NOT CAPTURED" })).toBe("declined");
    expect(failureReasonOf({ state: "failed", result_code: "declined" })).toBe("declined");
    // The Mastercard Gateway's words.
    expect(failureReasonOf({ state: "failed", result_code: "EXPIRED_CARD" })).toBe("declined");
    expect(failureReasonOf({ state: "failed", result_code: "AUTHENTICATION_UNSUCCESSFUL" })).toBe("declined");
    expect(failureReasonOf({ state: "error", result_code: "TIMED_OUT" })).toBe("timed_out");
    expect(failureReasonOf({ state: "canceled", result_code: "CANCELED" })).toBe("canceled");
    expect(failureReasonOf({ state: "canceled", result_code: "voided" })).toBe("canceled");
    expect(failureReasonOf({ state: "canceled", result_code: null })).toBe("canceled");
    expect(failureReasonOf({ state: "error", result_code: "TIMEOUT" })).toBe("timed_out");
    expect(failureReasonOf({ state: "failed", result_code: "HOST TIMEOUT" })).toBe("timed_out");
    expect(failureReasonOf({ state: "error", result_code: "START_FAILED" })).toBe("unavailable");
    expect(failureReasonOf({ state: "error", result_code: "AMOUNT_MISMATCH" })).toBe("unconfirmed");
    expect(failureReasonOf({ state: "failed", result_code: "SOMETHING ELSE" })).toBe("not_completed");
  });
});
