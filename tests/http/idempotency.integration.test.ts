import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { storedKeyOf } from "~/web/idempotency.server";

let database: TestDatabase;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  merchant = await seedMerchant(database.db, "Keys");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  token = (await app.apiToken(merchant.admin.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

const create = (body: unknown, headers: Record<string, string> = {}) =>
  app.request("/api/v1/plugins/payment_request/transaction", {
    json: body,
    headers: { Authorization: `Bearer ${token}`, ...headers },
  });
const countWithAmount = async (minor: number) =>
  (await database.db.selectFrom("transactions").select("id").where("amount", "=", minor).execute()).length;

describe("Idempotency-Key on the API", () => {
  it("gives the key of a request that died to one retry once its lease has run out", async () => {
    // A create that took the key and died before it answered: the key's row has no response.
    const body = { amount: "7.000", pg_codes: "cod" };
    await database.db
      .insertInto("idempotency_keys")
      .values({
        merchant_id: merchant.merchantId,
        key: storedKeyOf({ kind: "user", userId: merchant.admin.id }, "order-crashed", ""),
        scope: "payment_request.create",
        request_hash: createHash("sha256")
          .update(`payment_request.create\n${JSON.stringify(body)}`)
          .digest("hex"),
        response_status: null,
        response_body: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    const early = await create(body, { "Idempotency-Key": "order-crashed" });
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual({
      non_field_errors: ["A request with this Idempotency-Key is still being processed."],
    });

    await app.request("/__test/clock", { json: { ms: 2 * 60_000 } });
    // Two retries together: one takes the key over and creates; the other finds it still held (409)
    // or, if it came after the first had answered, replays that answer.
    const retries = await Promise.all([
      create(body, { "Idempotency-Key": "order-crashed" }),
      create(body, { "Idempotency-Key": "order-crashed" }),
    ]);
    const created = retries.filter(
      (response) => response.status === 201 && response.headers.get("Idempotent-Replayed") === null,
    );
    expect(created).toHaveLength(1);
    expect(retries.every((response) => response.status === 201 || response.status === 409)).toBe(true);
    const made = await created[0].json();
    const later = await create(body, { "Idempotency-Key": "order-crashed" });
    expect(later.status).toBe(201);
    expect(later.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await later.json()).id).toBe(made.id);
    expect(await countWithAmount(7000)).toBe(1);
  });

  it("replays a body whose fields come in another order", async () => {
    const first = await create(
      { amount: "8.000", pg_codes: ["cod"], customer_email: "c@example.com" },
      { "Idempotency-Key": "order-reordered" },
    );
    const again = await create(
      { customer_email: "c@example.com", pg_codes: ["cod"], amount: "8.000" },
      { "Idempotency-Key": "order-reordered" },
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await again.json()).id).toBe((await first.json()).id);
    expect(await countWithAmount(8000)).toBe(1);
  });

  it("refuses a key longer than 255 characters, in the caller's language, and creates nothing", async () => {
    expect((await create({ amount: "9.000", pg_codes: "cod" }, { "Idempotency-Key": "k".repeat(255) })).status).toBe(
      201,
    );
    const tooLong = await create({ amount: "9.500", pg_codes: "cod" }, { "Idempotency-Key": "k".repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      non_field_errors: ["An Idempotency-Key can be at most 255 characters long."],
    });
    const arabic = await create(
      { amount: "9.500", pg_codes: "cod" },
      { "Idempotency-Key": "k".repeat(256), "Accept-Language": "ar" },
    );
    expect(arabic.status).toBe(400);
    expect((await arabic.json()).non_field_errors[0]).toMatch(/255/);
    expect(await countWithAmount(9500)).toBe(0);
  });

  it("keeps long keys apart on the public pay call and refuses one over 255 characters", async () => {
    const created = await (await create({ amount: "3.000", pg_codes: ["knet-sandbox"] })).json();
    const pay = (key: string) =>
      app.request(`/api/v1/plugins/payment_request/transaction/pay/${created.id}`, {
        json: { gateway_code: "knet-sandbox" },
        headers: { "Idempotency-Key": key },
      });
    const prefix = "p".repeat(64);
    const firstResponse = await pay(`${prefix}-first`);
    const first = await firstResponse.json();
    expect(firstResponse.status, JSON.stringify(first)).toBe(200);
    const repeated = await (await pay(`${prefix}-first`)).json();
    const second = await (await pay(`${prefix}-second`)).json();
    expect(repeated.attempt_id).toBe(first.attempt_id);
    expect(second.attempt_id).not.toBe(first.attempt_id);
    const tooLong = await pay("p".repeat(256));
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      non_field_errors: ["An Idempotency-Key can be at most 255 characters long."],
    });
  });
});
