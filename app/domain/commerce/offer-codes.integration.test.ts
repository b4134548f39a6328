import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { writeTransaction, type DB } from "~/db/database.server";
import { advanceClock, nowIso, resetClock } from "~/lib/clock.server";
import {
  checkOfferCode,
  claimOfferCode,
  findOfferCode,
  offerDiscount,
  releaseOfferCode,
  type OfferCode,
  type OfferCodeScope,
} from "./offer-codes.server";

let database: TestDatabase;
let merchantId: number;
let counter = 0;

/*
 * A section of the test's own: its customers' uses are the audit entries its orders write in the
 * transaction that claims (a real table, so that concurrent claims count what others committed).
 */
const SHOP: OfferCodeScope = {
  section: "test_shop",
  texts: "test_shop.errors.code_",
  customerUses: async (db, offerCodeId, customerKey) => {
    const row = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number | string>().as("uses"))
      .where("object_type", "=", `test_offer_use_${offerCodeId}`)
      .where("object_id", "=", customerKey)
      .executeTakeFirstOrThrow();
    return Number(row.uses);
  },
};

beforeAll(async () => {
  database = await createTestDatabase();
  merchantId = (await seedMerchant(database.db, "Offers")).merchantId;
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

async function makeCode(values: Partial<OfferCode> = {}, section = SHOP.section) {
  counter += 1;
  const code = values.code ?? `CODE${counter}`;
  return database.db
    .insertInto("offer_codes")
    .values({
      merchant_id: merchantId,
      section,
      code,
      code_lc: code.toLowerCase(),
      discount_type: values.discount_type ?? "percentage",
      amount: values.amount ?? 1000,
      valid_from: values.valid_from ?? null,
      valid_to: values.valid_to ?? null,
      min_total: values.min_total ?? 0,
      max_uses: values.max_uses ?? null,
      max_uses_per_customer: values.max_uses_per_customer ?? null,
      used: values.used ?? 0,
      is_active: values.is_active ?? 1,
      created_at: nowIso(),
      updated_at: nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const usedOf = async (id: number) =>
  (await database.db.selectFrom("offer_codes").select("used").where("id", "=", id).executeTakeFirstOrThrow()).used;

/** An order of the test's section: claims a use and records its customer's use in the same transaction. */
function placeOrder(db: DB, offerCodeId: number, customerKey: string | null) {
  return writeTransaction(db, async (trx) => {
    const claimed = await claimOfferCode(trx, SHOP, offerCodeId, customerKey);
    if (claimed.ok && customerKey)
      await trx
        .insertInto("audit_log")
        .values({
          merchant_id: merchantId,
          actor_user_id: null,
          actor_name: "test",
          action: "test_offer_used",
          params: "{}",
          description: "",
          object_type: `test_offer_use_${offerCodeId}`,
          object_id: customerKey,
          ip: null,
          created_at: nowIso(),
        })
        .execute();
    return claimed;
  });
}

const check = async (offer: OfferCode | undefined, subtotal: number, customerKey: string | null = null) =>
  checkOfferCode(database.db, SHOP, offer, { subtotal, customerKey });

describe("an offer code", () => {
  it("is found by its code in any case, within its own section only", async () => {
    const offer = await makeCode({ code: "Eid-25" });
    expect((await findOfferCode(database.db, SHOP, merchantId, "  eid-25 "))?.id).toBe(offer.id);
    expect(await findOfferCode(database.db, { ...SHOP, section: "other_shop" }, merchantId, "EID-25")).toBeUndefined();
    expect(await findOfferCode(database.db, SHOP, merchantId + 1000, "EID-25")).toBeUndefined();
    expect(await findOfferCode(database.db, SHOP, merchantId, "")).toBeUndefined();
  });

  it("applies only while active and within its dates, and refuses in the section's words", async () => {
    const start = Date.parse(nowIso());
    const from = new Date(start + 60 * 60_000).toISOString();
    const to = new Date(start + 2 * 60 * 60_000).toISOString();
    const dated = await makeCode({ valid_from: from, valid_to: to });
    expect(await check(undefined, 1000)).toEqual({ ok: false, code: "test_shop.errors.code_unknown" });
    expect(await check(await makeCode({ is_active: 0 }), 1000)).toEqual({
      ok: false,
      code: "test_shop.errors.code_unknown",
    });
    expect(await check(dated, 1000)).toEqual({ ok: false, code: "test_shop.errors.code_not_yet" });
    advanceClock(90 * 60_000);
    expect(await check(dated, 1000)).toEqual({ ok: true });
    advanceClock(60 * 60_000);
    expect(await check(dated, 1000)).toEqual({ ok: false, code: "test_shop.errors.code_expired" });
  });

  it("applies from its minimum subtotal on, naming the minimum in minor units", async () => {
    const offer = await makeCode({ min_total: 5000 });
    expect(await check(offer, 4999)).toEqual({
      ok: false,
      code: "test_shop.errors.code_minimum",
      params: { minimum: 5000 },
    });
    expect(await check(offer, 5000)).toEqual({ ok: true });
  });

  it("takes a percentage rounded half up or a fixed amount, in minor units, never more than the subtotal", () => {
    // 10% of 1.005 KWD is 100.5 fils: half up, 101. 12.5% of 1.001 is 125.125: 125.
    expect(offerDiscount({ discount_type: "percentage", amount: 1000 }, 1005)).toBe(101);
    expect(offerDiscount({ discount_type: "percentage", amount: 1000 }, 1004)).toBe(100);
    expect(offerDiscount({ discount_type: "percentage", amount: 1250 }, 1001)).toBe(125);
    expect(offerDiscount({ discount_type: "percentage", amount: 10_000 }, 7777)).toBe(7777);
    expect(offerDiscount({ discount_type: "fixed", amount: 1500 }, 10_000)).toBe(1500);
    expect(offerDiscount({ discount_type: "fixed", amount: 1500 }, 1200)).toBe(1200);
    expect(offerDiscount({ discount_type: "fixed", amount: 1500 }, 0)).toBe(0);
  });

  it("is used at most its uses overall: the check refuses once they are taken, and so does the claim", async () => {
    const offer = await makeCode({ max_uses: 2 });
    expect(await placeOrder(database.db, offer.id, null)).toEqual({ ok: true });
    expect(await placeOrder(database.db, offer.id, null)).toEqual({ ok: true });
    expect(await placeOrder(database.db, offer.id, null)).toEqual({ ok: false, code: "test_shop.errors.code_used_up" });
    expect(await usedOf(offer.id)).toBe(2);
    const now = await findOfferCode(database.db, SHOP, merchantId, offer.code);
    expect(await check(now, 1000)).toEqual({ ok: false, code: "test_shop.errors.code_used_up" });
  });

  it("is used at most its uses per customer, counted by the section; others still may", async () => {
    const offer = await makeCode({ max_uses_per_customer: 1 });
    expect(await check(offer, 1000, "+96550000001")).toEqual({ ok: true });
    expect(await placeOrder(database.db, offer.id, "+96550000001")).toEqual({ ok: true });
    expect(await check(offer, 1000, "+96550000001")).toEqual({
      ok: false,
      code: "test_shop.errors.code_customer_used",
    });
    expect(await placeOrder(database.db, offer.id, "+96550000001")).toEqual({
      ok: false,
      code: "test_shop.errors.code_customer_used",
    });
    expect(await placeOrder(database.db, offer.id, "+96550000002")).toEqual({ ok: true });
    // A claim without a customer (a late payment taking its use again) counts the overall limit only.
    expect(await placeOrder(database.db, offer.id, null)).toEqual({ ok: true });
    expect(await usedOf(offer.id)).toBe(3);
  });

  it("is claimed by exactly one of 10 orders placed at once when it has one use", async () => {
    const offer = await makeCode({ max_uses: 1 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => placeOrder(database.db, offer.id, null)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual(
      Array.from({ length: 9 }, () => ({ ok: false, code: "test_shop.errors.code_used_up" })),
    );
    expect(await usedOf(offer.id)).toBe(1);
  });

  it("is claimed once by one customer placing 10 orders at once when it has one use per customer", async () => {
    const offer = await makeCode({ max_uses_per_customer: 1 });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => placeOrder(database.db, offer.id, "+96550000003")),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(await usedOf(offer.id)).toBe(1);
  });

  it("is not claimed when it is another section's or gone", async () => {
    const theirs = await makeCode({}, "other_shop");
    expect(await placeOrder(database.db, theirs.id, null)).toEqual({
      ok: false,
      code: "test_shop.errors.code_unknown",
    });
    expect(await usedOf(theirs.id)).toBe(0);
    expect(await placeOrder(database.db, 999_999, null)).toEqual({ ok: false, code: "test_shop.errors.code_unknown" });
  });

  it("gives a use back once: 10 releases at once of its one use give back one, never below zero", async () => {
    const offer = await makeCode({ max_uses: 1 });
    expect(await placeOrder(database.db, offer.id, null)).toEqual({ ok: true });
    const released = await Promise.all(
      Array.from({ length: 10 }, () => writeTransaction(database.db, (trx) => releaseOfferCode(trx, offer.id))),
    );
    expect(released.filter(Boolean)).toHaveLength(1);
    expect(await usedOf(offer.id)).toBe(0);
    // The use given back is there to claim again, once.
    expect(await placeOrder(database.db, offer.id, null)).toEqual({ ok: true });
    expect(await placeOrder(database.db, offer.id, null)).toEqual({ ok: false, code: "test_shop.errors.code_used_up" });
  });
});
