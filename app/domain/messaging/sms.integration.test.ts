import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { writeTransaction } from "~/db/database.server";
import { runReadyJobs } from "~/lib/jobs.server";
import { sendSms, setSmsProvider } from "./sms.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Sms");
});
afterAll(async () => database?.destroy());
afterEach(() => setSmsProvider(undefined));

const message = (to: string) => ({
  merchantId: shop.merchantId,
  to,
  template: "pay_link",
  params: { merchant: "Sms Store", amount: "1.000 KWD", link: "https://pay.example/x" },
  lang: "en" as const,
});
const rows = () => database.db.selectFrom("outgoing_sms").select(["to_number", "status"]).orderBy("id").execute();

describe("text messages", () => {
  it("are kept in the outbox when no provider is plugged in", async () => {
    await sendSms(database.db, message("+96550000001"));
    expect(await rows()).toEqual([{ to_number: "+96550000001", status: "stored" }]);
  });

  it("reach a provider only through a job after the transaction that wrote them commits", async () => {
    const delivered: string[] = [];
    setSmsProvider({ deliver: async (sms) => void delivered.push(`${sms.to}: ${sms.body}`) });
    await expect(
      writeTransaction(database.db, async (trx) => {
        await sendSms(trx, message("+96550000002"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await writeTransaction(database.db, (trx) => sendSms(trx, message("+96550000003")));
    expect(delivered).toEqual([]);
    await runReadyJobs(database.db);
    expect(delivered).toEqual(["+96550000003: Sms Store: please pay 1.000 KWD at https://pay.example/x"]);
    expect((await rows()).slice(-1)).toEqual([{ to_number: "+96550000003", status: "sent" }]);
  });
});
