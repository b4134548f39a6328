import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { seedMerchant } from "../../tests/support/fixtures";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { once, PUBLIC_CALLER, storedKeyOf, type KeyCaller, type StoredResponse } from "./idempotency.server";

let database: TestDatabase;
let merchantId: number;
let admin: KeyCaller;

beforeAll(async () => {
  database = await createTestDatabase();
  const merchant = await seedMerchant(database.db, "Keys");
  merchantId = merchant.merchantId;
  admin = { kind: "user", userId: merchant.admin.id };
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

const call = (key: string, request: unknown, work: () => Promise<StoredResponse>, caller = admin) =>
  once(database.db, { merchantId, caller, key, scope: "test.create", request }, work);

describe("Idempotency-Key", () => {
  it("releases the key of a request that died, after its lease, to exactly one retry", async () => {
    // The first request takes the key and never answers: its process died.
    // Its work starts only once the key is taken.
    let working!: () => void;
    const taken = new Promise<void>((resolve) => (working = resolve));
    void call("crashed-1", { amount: "5.000" }, () => {
      working();
      return new Promise<StoredResponse>(() => {});
    });
    await taken;
    const stored = await database.db
      .selectFrom("idempotency_keys")
      .select("response_status")
      .where("key", "=", storedKeyOf(admin, "crashed-1", ""))
      .executeTakeFirstOrThrow();
    expect(stored.response_status).toBeNull();

    // While the lease runs, a retry is told the request is still being processed.
    let runs = 0;
    const work = async () => {
      runs += 1;
      return { status: 201, body: { id: `made-${runs}` } };
    };
    expect((await call("crashed-1", { amount: "5.000" }, work)).kind).toBe("in_progress");
    expect(runs).toBe(0);

    // Past the lease, two retries race: one takes the key over and runs (held here until the other
    // has answered), the other finds the key taken.
    advanceClock(2 * 60_000);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const heldWork = async () => {
      await gate;
      return work();
    };
    const retries = [
      call("crashed-1", { amount: "5.000" }, heldWork),
      call("crashed-1", { amount: "5.000" }, heldWork),
    ];
    expect((await Promise.race(retries)).kind).toBe("in_progress");
    release();
    const outcomes = await Promise.all(retries);
    expect(runs).toBe(1);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(["fresh", "in_progress"]);

    // From then on the key answers what the retry answered.
    const replay = await call("crashed-1", { amount: "5.000" }, work);
    expect(replay).toEqual({ kind: "replayed", response: { status: 201, body: { id: "made-1" } } });
    expect(runs).toBe(1);
  });

  it("replays the same body with its fields in another order, at any depth", async () => {
    let runs = 0;
    const work = async () => ({ status: 201, body: { run: ++runs } });
    const first = await call(
      "reordered-1",
      { amount: "5.000", pg_codes: ["knet", "cod"], customer: { first: "A", last: "B" } },
      work,
    );
    const again = await call(
      "reordered-1",
      { customer: { last: "B", first: "A" }, pg_codes: ["knet", "cod"], amount: "5.000" },
      work,
    );
    expect(first.kind).toBe("fresh");
    expect(again).toEqual({ kind: "replayed", response: { status: 201, body: { run: 1 } } });
    // The order of a list is part of the request.
    expect(
      (
        await call(
          "reordered-1",
          { amount: "5.000", pg_codes: ["cod", "knet"], customer: { first: "A", last: "B" } },
          work,
        )
      ).kind,
    ).toBe("conflict");
    expect(runs).toBe(1);
  });

  it("refuses a key longer than 255 characters instead of cutting it", async () => {
    let runs = 0;
    const work = async () => ({ status: 201, body: { run: ++runs } });
    expect((await call("k".repeat(255), { amount: "1" }, work)).kind).toBe("fresh");
    expect((await call(`${"k".repeat(255)}x`, { amount: "2" }, work)).kind).toBe("invalid_key");
    expect(runs).toBe(1);
  });

  it("keeps each caller's keys apart: a user's, an API key's, and every public caller's", async () => {
    let runs = 0;
    const work = async () => ({ status: 201, body: { run: ++runs } });
    const otherUser: KeyCaller = { kind: "user", userId: 999_999 };
    const apiKey: KeyCaller = { kind: "api_key", apiKeyId: 1 };
    // A customer on a public API takes "K" first, with a body of their own.
    expect((await call("K", { basket: "customer A" }, work, PUBLIC_CALLER)).kind).toBe("fresh");
    // Another customer's "K" is their own request, and the merchant's user, another user and an API
    // key each get theirs: nobody is told the key belongs to another request.
    expect(await call("K", { basket: "customer B" }, work, PUBLIC_CALLER)).toEqual({
      kind: "fresh",
      response: { status: 201, body: { run: 2 } },
    });
    expect(await call("K", { amount: "5.000" }, work)).toEqual({
      kind: "fresh",
      response: { status: 201, body: { run: 3 } },
    });
    expect(await call("K", { amount: "5.000" }, work, otherUser)).toEqual({
      kind: "fresh",
      response: { status: 201, body: { run: 4 } },
    });
    expect(await call("K", { amount: "5.000" }, work, apiKey)).toEqual({
      kind: "fresh",
      response: { status: 201, body: { run: 5 } },
    });
    // Within one caller a key still answers once, and another body with it is still a conflict.
    expect(await call("K", { basket: "customer A" }, work, PUBLIC_CALLER)).toEqual({
      kind: "replayed",
      response: { status: 201, body: { run: 1 } },
    });
    expect(await call("K", { amount: "5.000" }, work)).toEqual({
      kind: "replayed",
      response: { status: 201, body: { run: 3 } },
    });
    expect((await call("K", { amount: "6.000" }, work)).kind).toBe("conflict");
    expect((await call("K", { amount: "6.000" }, work, apiKey)).kind).toBe("conflict");
    expect(runs).toBe(5);
  });
});
