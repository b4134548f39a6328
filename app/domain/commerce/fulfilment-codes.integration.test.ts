import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hmacSha256 } from "~/lib/crypto.server";
import { getAppSecret } from "~/lib/secret.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { fulfilmentCode, readFulfilmentCode, type FulfilmentCodeKind } from "./fulfilment-codes.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.destroy());

const TICKET: FulfilmentCodeKind = { prefix: "EVT1", purpose: "event-ticket", fields: 2 };
const ORDER: FulfilmentCodeKind = { prefix: "FOOD1", purpose: "food-order", fields: 1 };

/** A code as tickets and food orders were signed before the format was shared (decision 0023; order-qr). */
async function printedBefore(prefix: string, purpose: string, fields: string[]) {
  const secret = await getAppSecret(database.db);
  const signature = Buffer.from(hmacSha256(`${purpose}:${secret}`, fields.join(".")), "hex")
    .subarray(0, 12)
    .toString("base64url");
  return `${prefix}.${fields.join(".")}.${signature}`;
}

describe("one format for every fulfilment code", () => {
  it("is the format tickets and food orders were printed in, so every printed code still reads", async () => {
    const ticket = await printedBefore("EVT1", "event-ticket", ["42", "K7M2QX9PRT"]);
    const order = await printedBefore("FOOD1", "food-order", ["1307"]);
    expect(await fulfilmentCode(database.db, TICKET, [42, "K7M2QX9PRT"])).toBe(ticket);
    expect(await fulfilmentCode(database.db, ORDER, [1307])).toBe(order);
    expect(await readFulfilmentCode(database.db, TICKET, ` ${ticket}\n`)).toEqual({
      kind: "signed",
      fields: ["42", "K7M2QX9PRT"],
    });
    expect(await readFulfilmentCode(database.db, ORDER, order)).toEqual({ kind: "signed", fields: ["1307"] });
  });

  it("refuses a code whose fields or signature were changed, cut or lengthened", async () => {
    const code = await fulfilmentCode(database.db, TICKET, [42, "K7M2QX9PRT"]);
    const [prefix, event, number, signature] = code.split(".");
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    for (const tampered of [
      `${prefix}.43.${number}.${signature}`,
      `${prefix}.${event}.K7M2QX9PRU.${signature}`,
      `${prefix}.${event}.${number}.${flipped}`,
      `${prefix}.${event}.${number}.${signature.slice(0, 12)}`,
      `${prefix}.${event}.${number}.${signature}.extra`,
      `${prefix}.${event}.${signature}`,
      `${prefix}.${event}.${number}.`,
      prefix,
    ])
      expect(await readFulfilmentCode(database.db, TICKET, tampered), tampered).toEqual({ kind: "refused" });
  });

  it("refuses one kind's code where another is scanned, even with the same fields under the other prefix", async () => {
    const order = await fulfilmentCode(database.db, ORDER, [42]);
    const ticket = await fulfilmentCode(database.db, TICKET, [42, "K7M2QX9PRT"]);
    expect(await readFulfilmentCode(database.db, TICKET, order)).toEqual({ kind: "refused" });
    expect(await readFulfilmentCode(database.db, ORDER, ticket)).toEqual({ kind: "refused" });
    // An order's signature does not sign a one-field code of another kind: the purpose keys it.
    const SINGLE: FulfilmentCodeKind = { prefix: "EVT9", purpose: "event-ticket-single", fields: 1 };
    const relabelled = order.replace(/^FOOD1\./, "EVT9.");
    expect(await readFulfilmentCode(database.db, SINGLE, relabelled)).toEqual({ kind: "refused" });
  });

  it("hands what staff typed back as typed, for a door that takes numbers", async () => {
    expect(await readFulfilmentCode(database.db, TICKET, " k7m2q-x9prt ")).toEqual({
      kind: "typed",
      text: "k7m2q-x9prt",
    });
    expect(await readFulfilmentCode(database.db, ORDER, "1307")).toEqual({ kind: "typed", text: "1307" });
  });

  it("makes no code of fields it could not read back", async () => {
    await expect(fulfilmentCode(database.db, TICKET, [42])).rejects.toThrow();
    await expect(fulfilmentCode(database.db, TICKET, [42, "A.B"])).rejects.toThrow();
  });
});
