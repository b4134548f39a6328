import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import { convertCardGateways } from "./0039-mastercard-gateway";

let database: TestDatabase;
let merchantId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  merchantId = (await seedMerchant(database.db, "Cards")).merchantId;
});
afterAll(async () => database?.destroy());

/** A gateway of the old card kind, copied from the merchant's MPGS one: on the sandbox, or with an endpoint of its own. */
async function cardGateway(code: string, endpoint: string | null) {
  const template = await database.db.selectFrom("gateways").selectAll().where("merchant_id", "=", merchantId).where("code", "=", "mpgs-sandbox").executeTakeFirstOrThrow();
  const { id: _id, ...row } = template;
  await database.db.insertInto("gateways").values({ ...row, code, kind: "card", endpoint_url: endpoint, enabled: 1 }).execute();
}

describe("migration 0039", () => {
  it("turns card gateways into Mastercard Gateway ones, turning off those with an acquirer of their own", async () => {
    await cardGateway("old-card-sandbox", null);
    await cardGateway("old-card-bank", "https://acquirer.example");
    await convertCardGateways(database.db);
    const gateways = await database.db.selectFrom("gateways").select(["code", "kind", "enabled"]).where("merchant_id", "=", merchantId).where("code", "like", "old-card-%").orderBy("code").execute();
    expect(gateways).toEqual([
      { code: "old-card-bank", kind: "mpgs", enabled: 0 },
      { code: "old-card-sandbox", kind: "mpgs", enabled: 1 },
    ]);
    expect(await database.db.selectFrom("gateways").select("id").where("kind", "=", "card").execute()).toEqual([]);
  });
});
