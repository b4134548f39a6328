import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { hmacSha256 } from "./crypto.server";
import { getAppSecret } from "./secret.server";
import { newSignedToken, verifySignedToken } from "./signed-token.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

describe("signed tokens", () => {
  it("gives back the token of a value it signed, for the same purpose only", async () => {
    const { token, signed } = await newSignedToken(database.db, "food-cart");
    expect(signed.startsWith(`${token}.`)).toBe(true);
    expect(await verifySignedToken(database.db, "food-cart", signed)).toBe(token);
    expect(await verifySignedToken(database.db, "catalogue-cart", signed)).toBeNull();
  });

  it("refuses a changed token, a changed signature, a bare token and nothing", async () => {
    const { token, signed } = await newSignedToken(database.db, "catalogue-cart");
    const signature = signed.slice(token.length + 1);
    const otherToken = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const otherSignature = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    expect(await verifySignedToken(database.db, "catalogue-cart", `${otherToken}.${signature}`)).toBeNull();
    expect(await verifySignedToken(database.db, "catalogue-cart", `${token}.${otherSignature}`)).toBeNull();
    expect(await verifySignedToken(database.db, "catalogue-cart", token)).toBeNull();
    expect(await verifySignedToken(database.db, "catalogue-cart", null)).toBeNull();
  });

  it("reads the cookies handed out before: 16 bytes of the HMAC keyed by purpose and secret", async () => {
    const secret = await getAppSecret(database.db);
    const token = "a".repeat(32);
    const signature = Buffer.from(hmacSha256(`food-cart:${secret}`, token), "hex")
      .subarray(0, 16)
      .toString("base64url");
    expect(await verifySignedToken(database.db, "food-cart", `${token}.${signature}`)).toBe(token);
  });
});
