import { describe, expect, it } from "vitest";
import { buildParams, decryptParams, decryptTrandata, encryptParams, encryptTrandata, parseParams } from "./knet-protocol";

const key = "0123456789abcdef";

describe("trandata encryption", () => {
  it("matches openssl enc -aes-128-cbc with the resource key as key and IV", () => {
    // printf '...' | openssl enc -aes-128-cbc -K 30313233343536373839616263646566 -iv 30313233343536373839616263646566 | xxd -p
    const plain = "id=110100&password=secret&action=1&amt=12.500&trackid=T-1";
    const vector =
      "d7fbf6dd1d96c3d2f8999c033f4826303c20b0611b4ed95573b744163e208646bf38bc7d3687ff79486dac057742745eb5b43578828bce26473b9b0fa2b5e1eb";
    expect(encryptTrandata(plain, key)).toBe(vector);
    expect(decryptTrandata(vector, key)).toBe(plain);
    expect(decryptTrandata(vector.toUpperCase(), key)).toBe(plain);
  });

  it("round-trips any text, including Arabic and the empty string", () => {
    for (const plain of ["", "a", "x".repeat(16), "udf1=طلب رقم ١٢&amt=1.000", "%&=+?#"]) {
      expect(decryptTrandata(encryptTrandata(plain, key), key)).toBe(plain);
    }
  });

  it("fails with another key", () => {
    const hex = encryptTrandata("id=110100&password=secret&result=CAPTURED&amt=12.500", key);
    for (const other of ["fedcba9876543210", "0123456789abcdeF", "SandboxKey2026KW"]) {
      expect(() => decryptTrandata(hex, other)).toThrow();
    }
  });

  it("refuses garbage, truncated and non-hex input, and keys that are not 16 characters", () => {
    const hex = encryptTrandata("result=CAPTURED", key);
    for (const bad of ["", "zz", hex.slice(0, -2), hex.slice(0, 32) + "0", `${hex}00`, "00".repeat(16)]) {
      expect(() => decryptTrandata(bad, key)).toThrow();
    }
    expect(() => encryptTrandata("x", "short")).toThrow();
    expect(() => decryptTrandata(hex, "a-key-longer-than-16")).toThrow();
  });
});

describe("parameter strings", () => {
  it("keeps URLs with their own query strings intact", () => {
    const record = {
      id: "110100",
      responseURL: "https://shop.example/return?a=1&b=2",
      errorURL: "https://shop.example/error?x=%20y",
      udf1: "a+b c",
      amt: "12.500",
    };
    const text = buildParams(record);
    expect(text.split("&")).toHaveLength(5);
    expect(parseParams(text)).toEqual(record);
    expect(decryptParams(encryptParams(record, key), key)).toEqual(record);
  });

  it("reads plain parameter strings as KNET sends them", () => {
    expect(parseParams("paymentid=100&result=NOT CAPTURED&postdate=0314&udf1=")).toEqual({
      paymentid: "100",
      result: "NOT CAPTURED",
      postdate: "0314",
      udf1: "",
    });
  });
});
