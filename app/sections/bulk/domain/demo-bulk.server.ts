import type { DB } from "~/db/database.server";
import { toCsv } from "~/lib/spreadsheet.server";
import { exampleRows } from "./bulk-examples";
import { dispatchRun } from "./bulk-runs.server";
import { uploadBulk } from "./bulk-upload.server";

/** The job the section declares as its demo data (section.ts `demoJob`), queued by the demo seed. */
export const DEMO_BULK_JOB = "bulk_demo_upload";

/**
 * The demo merchant's sample bulk: the all-fields example file, uploaded by its first user and sent
 * (the mails and text messages are in the demo mailbox). Once: a merchant with a bulk already has it.
 */
export async function seedDemoBulk(db: DB, payload: { merchantId: number; userId: number }, baseUrl: string) {
  const existing = await db
    .selectFrom("bulk_uploads")
    .select("id")
    .where("merchant_id", "=", payload.merchantId)
    .executeTakeFirst();
  if (existing) return;
  const user = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where("id", "=", payload.userId)
    .where("merchant_id", "=", payload.merchantId)
    .executeTakeFirst();
  if (!user) return;
  const bytes = Buffer.from(toCsv(exampleRows("all_fields")), "utf8");
  const outcome = await uploadBulk(db, {
    merchantId: payload.merchantId,
    user,
    fileName: "sample-rent-and-fees.csv",
    bytes,
    choices: { sendEmail: true, sendSms: true, schedule: "monthly", lang: "en" },
    baseUrl,
  });
  if (!outcome.ok) throw new Error(`The demo bulk was refused: ${JSON.stringify(outcome)}`);
  await dispatchRun(db, outcome.dispatchLogId);
}
