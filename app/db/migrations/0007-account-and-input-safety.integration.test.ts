import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import { removeBidiControlsFromAttachmentNames } from "./0007-account-and-input-safety";

let database: TestDatabase;
let merchantId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  merchantId = (await seedMerchant(database.db, "Names")).merchantId;
});
afterAll(async () => database?.destroy());

async function insert(id: string, orderNo: number, attachmentName: string | null) {
  const at = "2026-03-10T08:00:00.000Z";
  await database.db
    .insertInto("transactions")
    .values({
      id, merchant_id: merchantId, unit_id: null, plugin: "payment_request", order_no: orderNo, state: "created", amount: 1000, currency_code: "KWD",
      editable_amount: 0, customer_email: null, customer_email_lc: null, customer_phone: null, customer_first_name: null, customer_last_name: null,
      description: null, remarks: null, attachment_path: attachmentName ? `${merchantId}/key/${attachmentName}` : null, attachment_name: attachmentName,
      pg_codes: "cod", expiration_time: null, next_url: null, initiator_user_id: null, gateway_code: null, paid_attempt_id: null,
      send_email: 0, send_sms: 0, created_at: at, state_changed_at: at, deleted_at: null,
    })
    .execute();
}

describe("migration 0007", () => {
  it("takes the direction controls out of attachment names already stored, and leaves the rest alone", async () => {
    await insert("N0000000000000000000001", 1, "invoice-\u202efdp.exe\u2066\u200f\u061c.pdf");
    await insert("N0000000000000000000002", 2, "فاتورة 12.pdf");
    await insert("N0000000000000000000003", 3, null);
    await removeBidiControlsFromAttachmentNames(database.db);
    const rows = await database.db.selectFrom("transactions").select(["id", "attachment_name", "attachment_path"]).where("merchant_id", "=", merchantId).orderBy("id").execute();
    expect(rows.map((row) => row.attachment_name)).toEqual(["invoice-fdp.exe.pdf", "فاتورة 12.pdf", null]);
    // The storage key names the stored file and stays as it is; downloads clean the name they send.
    expect(rows[0].attachment_path).toContain("\u202e");
  });
});
