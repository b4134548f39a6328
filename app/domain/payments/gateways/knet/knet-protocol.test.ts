import { describe, expect, it } from "vitest";
import {
  KNET_XML_MAX_CHARS,
  buildInitParams,
  buildTranPipeXml,
  decryptResult,
  decryptTrandata,
  encryptResult,
  encryptTrandata,
  parsePlainParams,
  readTranPipeXml,
} from "./knet-protocol";

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

describe("payment initialisation, as KNET's PHP sample builds it", () => {
  const fields = {
    id: "110100",
    password: "secret",
    action: "1",
    langid: "EN",
    currencycode: "414",
    amt: "12.500",
    responseURL: "https://shop.example/gateway/knet/response/abc",
    errorURL: "https://shop.example/gateway/knet/error/abc",
    trackid: "123456789012345678",
    udf1: "att1",
  } as const;
  // The sample's order, values as they are (not URL-encoded), empty UDFs still sent.
  const sampleString =
    "id=110100&password=secret&action=1&langid=EN&currencycode=414&amt=12.500&responseURL=https://shop.example/gateway/knet/response/abc&errorURL=https://shop.example/gateway/knet/error/abc&trackid=123456789012345678&udf1=att1&udf2=&udf3=&udf4=&udf5=";

  it("builds the sample's string and encrypts it to exactly openssl's bytes", () => {
    expect(buildInitParams(fields)).toBe(sampleString);
    // printf '%s' "$sampleString" | openssl enc -aes-128-cbc -K 30313233343536373839616263646566 -iv 30313233343536373839616263646566 | xxd -p
    const openssl =
      "d7fbf6dd1d96c3d2f8999c033f4826303c20b0611b4ed95573b744163e2086461f10b2d9c927ae15ec577931c3cc87633e7d9eba57d2be98ea46a1242e26fd1468536f176d0e8fe951f8ce97dd241165cd23d41a807da5a5690fa5dc82756c7aa1875445bd3b09216edc6391b5b3dc7bffd239400726bc952e2cd292fb84d49b99f4b11374ea7209bb722307056257dacf69153ad7538a7d322c57f83dfaa514c9908624f4fc14374d7fcecafeee81b6bb55c1142298d7d69917bca3244e122111eb950086835b7e2d733a6a9af42ce97f8dea42f39aa4f286d409663360cecec548119a76a6b37bd2d047f42658f306739782ea1a4d3e7d6c19c6d4417e264c";
    expect(encryptTrandata(buildInitParams(fields), key)).toBe(openssl);
    expect(parsePlainParams(decryptTrandata(openssl, key))).toMatchObject({ ...fields, udf2: "", udf5: "" });
  });

  it("refuses a value that would break the string instead of encoding it", () => {
    expect(() => buildInitParams({ ...fields, udf1: "a&b=c" })).toThrow();
    expect(() => buildInitParams({ ...fields, udf2: "line\r\nbreak" })).toThrow();
  });
});

describe("the result KNET posts to responseURL", () => {
  it("decrypts the manual's NOT CAPTURED sample, encrypted by openssl", () => {
    // The manual's §5 sample: printf '%s' 'paymentid=8962225231041180&result=NOT+CAPTURED&…&amt=20.550&authResponseCode=00' | openssl enc …
    const openssl =
      "dd5e8f2aea9f304b4edac415ef2baf8ea34a6d4aaf27fe48d2ef2e5232466547d7a4bcb892993aee110eebe3564282f4447201bf01a376bd6e416fd3320433f3bc32868ff099051d8317fa7f0642edd071aa5c4d830e4f9c87a85c1a538f356d105fe27b4fd4777ead89f0908f180079e1661c30c7492b1affede094466a06eb02d80a2a3838dbd7d91071816cffd7f4c13bf49562e7cce79a7955b14eb6de23864a17ea67d3eee92d9a7656c13ed94c26d9f71f193d921b56456267290861cb590ff5d40d25cddda8f71ebccade9ba2";
    expect(decryptResult(openssl, key)).toEqual({
      paymentid: "8962225231041180",
      result: "NOT CAPTURED",
      auth: "999554",
      avr: "N",
      ref: "411857974849",
      tranid: "9929892231041180",
      postdate: "0427",
      trackid: "632186",
      udf1: "",
      udf2: "",
      udf3: "",
      udf4: "",
      udf5: "",
      amt: "20.550",
      authResponseCode: "00",
    });
  });

  it("round-trips a result with spaces and symbols", () => {
    const record = { paymentid: "1", result: "HOST TIMEOUT", udf1: "a+b c&d=e", amt: "1.000" };
    expect(decryptResult(encryptResult(record, key), key)).toEqual(record);
  });
});

describe("tranPipe XML", () => {
  it("writes the manual's sibling elements, escaped", () => {
    expect(
      buildTranPipeXml({
        id: "110100",
        password: "p<&>",
        action: "8",
        amt: "2.000",
        transid: "T1",
        trackid: "T1",
        udf5: "TrackID",
      }),
    ).toBe(
      "<id>110100</id><password>p&lt;&amp;&gt;</password><action>8</action><amt>2.000</amt><transid>T1</transid><trackid>T1</trackid><udf5>TrackID</udf5>",
    );
  });

  it("reads the manual's refund answer, line breaks and all", () => {
    const answer =
      "<result>CAPTURED</result><payid>100201719515482162</payid><trackid>\n6078874794527794643</trackid><udf1>\n</udf1><udf5></udf5><ref></ref><auth></auth><postdate></postdate><tranid></tranid><amt></amt>";
    expect(readTranPipeXml(answer)).toEqual({
      result: "CAPTURED",
      payid: "100201719515482162",
      trackid: "6078874794527794643",
      udf1: "",
      udf5: "",
      ref: "",
      auth: "",
      postdate: "",
      tranid: "",
      amt: "",
    });
  });

  it("decodes entities, keeps the first of a name, and steps over what is not a flat element", () => {
    const xml =
      '<?xml version="1.0"?><!-- x --><result>NOT &amp; CAPTURED</result><result>CAPTURED</result><a b="1">x</a><outer><amt>1.000</amt></outer><bad';
    expect(readTranPipeXml(xml)).toEqual({ result: "NOT & CAPTURED", amt: "1.000" });
  });

  it("reads hostile input in one pass and refuses what is too large", () => {
    const unclosed = "<a>".repeat(Math.floor((KNET_XML_MAX_CHARS - 100) / 3));
    const lessThans = "<".repeat(KNET_XML_MAX_CHARS - 100);
    expect(readTranPipeXml(unclosed)).toEqual({});
    expect(readTranPipeXml(lessThans)).toEqual({});
    expect(readTranPipeXml(`${"<result>".repeat(5000)}x</result>`)).toEqual({ result: "x" });
    expect(() => readTranPipeXml("x".repeat(KNET_XML_MAX_CHARS + 1))).toThrow();
  });
});
