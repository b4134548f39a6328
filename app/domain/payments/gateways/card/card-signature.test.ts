import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signCardPayload, verifyCardSignature } from "./card-signature";

const secret = "whsec_test_secret";
const body = JSON.stringify({ id: "pay_1", status: "captured", amount: 12500 });
const timestamp = 1_760_000_000;

describe("card notification signatures", () => {
  it("is the hex HMAC-SHA256 of '<timestamp>.<raw body>'", () => {
    const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
    expect(signCardPayload(secret, timestamp, body)).toBe(expected);
  });

  it("accepts a fresh, correct signature in either hex case", () => {
    const signature = signCardPayload(secret, timestamp, body);
    expect(verifyCardSignature(secret, String(timestamp), body, signature, timestamp + 10)).toEqual({ ok: true });
    expect(verifyCardSignature(secret, String(timestamp), body, signature.toUpperCase(), timestamp)).toEqual({ ok: true });
  });

  it("refuses another secret, a changed body and a changed timestamp", () => {
    const signature = signCardPayload(secret, timestamp, body);
    const mismatch = { ok: false, reason: "mismatch" };
    expect(verifyCardSignature("other", String(timestamp), body, signature, timestamp)).toEqual(mismatch);
    expect(verifyCardSignature(secret, String(timestamp), `${body} `, signature, timestamp)).toEqual(mismatch);
    expect(verifyCardSignature(secret, String(timestamp + 1), body, signature, timestamp)).toEqual(mismatch);
  });

  it("refuses timestamps more than five minutes away, either way", () => {
    const signature = signCardPayload(secret, timestamp, body);
    expect(verifyCardSignature(secret, String(timestamp), body, signature, timestamp + 300).ok).toBe(true);
    expect(verifyCardSignature(secret, String(timestamp), body, signature, timestamp + 301)).toEqual({ ok: false, reason: "stale" });
    expect(verifyCardSignature(secret, String(timestamp), body, signature, timestamp - 301)).toEqual({ ok: false, reason: "stale" });
    expect(verifyCardSignature(secret, String(timestamp), body, signature, timestamp + 3600, 7200).ok).toBe(true);
  });

  it("refuses missing or malformed headers without comparing", () => {
    const signature = signCardPayload(secret, timestamp, body);
    const malformed = { ok: false, reason: "malformed" };
    expect(verifyCardSignature(secret, null, body, signature, timestamp)).toEqual(malformed);
    expect(verifyCardSignature(secret, String(timestamp), body, null, timestamp)).toEqual(malformed);
    expect(verifyCardSignature(secret, "12.5", body, signature, timestamp)).toEqual(malformed);
    expect(verifyCardSignature(secret, String(timestamp), body, signature.slice(2), timestamp)).toEqual(malformed);
    expect(verifyCardSignature(secret, String(timestamp), body, `${signature.slice(2)}zz`, timestamp)).toEqual(malformed);
  });
});
