import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { writeTransaction } from "~/db/database.server";
import { loadSectionServers } from "~/sections/registry.server";
import {
  connectTransitionHooks,
  createTransaction,
  transitionTransaction,
  type TransitionEvent,
} from "./transaction-state.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const heard: TransitionEvent[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "State");
  // A section of this test's own hears its transactions' changes; the others keep their real hooks.
  const servers = await loadSectionServers();
  connectTransitionHooks(
    (key) =>
      key === "state_test"
        ? async (trx, event) => {
            heard.push(event);
            await trx
              .insertInto("outgoing_sms")
              .values({
                merchant_id: event.transaction.merchant_id,
                to_number: "+96550000000",
                body: `${event.from}->${event.to}`,
                status: "stored",
                created_at: new Date().toISOString(),
              })
              .execute();
            if (event.to === "canceled") throw new Error("the section refuses");
          }
        : servers.get(key)?.onTransition,
    [
      // A watcher that fails after writing, for one amount only.
      async (trx, event) => {
        if (event.transaction.amount !== 4242) return;
        await trx
          .insertInto("outgoing_sms")
          .values({
            merchant_id: event.transaction.merchant_id,
            to_number: "+96550000000",
            body: `watcher ${event.to}`,
            status: "stored",
            created_at: new Date().toISOString(),
          })
          .execute();
        throw new Error("the watcher fails");
      },
    ],
  );
});
afterAll(async () => database?.destroy());
afterEach(() => {
  heard.length = 0;
});

async function newTransaction(plugin = "state_test", amount = 5000) {
  return writeTransaction(database.db, (trx) =>
    createTransaction(trx, {
      merchant_id: shop.merchantId,
      plugin,
      amount,
      currency_code: "KWD",
      pg_codes: "knet-sandbox",
      customer_email: "payer@example.com",
    }),
  );
}

const stateOf = async (id: string) =>
  (await database.db.selectFrom("transactions").select("state").where("id", "=", id).executeTakeFirstOrThrow()).state;
const messages = async () =>
  (await database.db.selectFrom("outgoing_sms").select("body").orderBy("id").execute()).map((row) => row.body);

describe("transitionTransaction", () => {
  it("creates a transaction in state created with the merchant's next order number", async () => {
    const first = await newTransaction();
    const second = await newTransaction();
    expect(second.orderNo).toBe(first.orderNo + 1);
    expect(await stateOf(first.id)).toBe("created");
  });

  it("moves along the allowed changes and tells the owning section inside the same database transaction", async () => {
    const { id } = await newTransaction();
    const opened = await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, id, "pending", { kind: "opened" }),
    );
    expect(opened).toMatchObject({ ok: true, from: "created" });
    expect(heard).toEqual([
      expect.objectContaining({
        from: "created",
        to: "pending",
        cause: { kind: "opened" },
        transaction: expect.objectContaining({ id, plugin: "state_test", state: "pending" }),
      }),
    ]);
    expect(await messages()).toContain("created->pending");
  });

  it("refuses a change the table does not allow, with its code, writing nothing and telling nobody", async () => {
    const { id } = await newTransaction();
    const refused = await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, id, "refunded", { kind: "refund", operationId: 1 }),
    );
    expect(refused).toMatchObject({ ok: false, code: "transition.not_allowed", state: "created" });
    expect(await stateOf(id)).toBe("created");
    expect(heard).toEqual([]);
    const stale = await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, id, "canceled", { kind: "expired" }, { from: ["pending"] }),
    );
    expect(stale).toMatchObject({ ok: false, code: "transition.not_allowed" });
    const missing = await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, "nope", "pending", { kind: "opened" }),
    );
    expect(missing).toMatchObject({ ok: false, code: "transition.not_found" });
  });

  it("rolls the change back with the section's own writes when the section's hook fails", async () => {
    const { id } = await newTransaction();
    const before = await messages();
    await expect(
      writeTransaction(database.db, (trx) =>
        transitionTransaction(trx, id, "canceled", {
          kind: "canceled",
          actor: { id: shop.admin.id, username: shop.admin.username },
        }),
      ),
    ).rejects.toThrow("the section refuses");
    expect(await stateOf(id)).toBe("created");
    expect(await messages()).toEqual(before);
  });

  it("records a payment even when a watcher fails: only the watcher's own writes are undone", async () => {
    const { id } = await newTransaction("state_test", 4242);
    const paid = await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, id, "paid", { kind: "payment", attemptId: "no-attempt" }),
    );
    expect(paid).toMatchObject({ ok: true, from: "created" });
    expect(await stateOf(id)).toBe("paid");
    const written = await messages();
    expect(written).toContain("created->paid");
    expect(written).not.toContain("watcher paid");
  });

  it("has the payment-request section send its receipt when a payment request is paid", async () => {
    const { id } = await newTransaction("payment_request");
    const attempt = await database.db
      .insertInto("payment_attempts")
      .values({
        id: "A".repeat(22),
        transaction_id: id,
        merchant_id: shop.merchantId,
        gateway_code: "knet-sandbox",
        gateway_kind: "knet",
        state: "success",
        amount: 5000,
        fee: 0,
        total: 5000,
        fee_payer: "merchant",
        currency_code: "KWD",
        track_id: "123456789012345678",
        submission_token: "t",
        lang: "ar",
        gateway_reference: null,
        redirect_url: null,
        payment_id: null,
        tran_id: null,
        auth_code: null,
        reference_id: null,
        post_date: null,
        result_code: null,
        created_at: new Date().toISOString(),
        completed_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, id, "paid", { kind: "payment", attemptId: attempt.id }),
    );
    const mail = await database.db
      .selectFrom("outgoing_mail")
      .select(["to_address", "subject"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(mail.to_address).toBe("payer@example.com");
    expect(mail.subject).toMatch(/^تم استلام الدفع للطلب رقم \d+$/);
  });
});
