import { randomBytes } from "node:crypto";
import type { DB } from "~/db/database.server";
import { addMs, now, nowIso } from "~/lib/clock.server";

/**
 * An upload's error report (the bad cells as CSV), kept on the server a short while so that the page
 * links to it rather than carrying it: a random token, read only by the merchant whose upload it was.
 */

/** How long a report can be downloaded after the upload that made it. */
export const ERROR_REPORT_KEPT_MS = 60 * 60_000;

/** Keeps a report and answers its token; reports past their time are removed on the way. */
export async function keepErrorReport(db: DB, input: { merchantId: number; fileName: string; content: string }) {
  await db
    .deleteFrom("bulk_error_reports")
    .where("created_at", "<", addMs(now(), -ERROR_REPORT_KEPT_MS).toISOString())
    .execute();
  const token = randomBytes(24).toString("base64url");
  await db
    .insertInto("bulk_error_reports")
    .values({
      merchant_id: input.merchantId,
      token,
      file_name: input.fileName.slice(0, 200),
      content: input.content,
      created_at: nowIso(),
    })
    .execute();
  return token;
}

/** A report of the merchant's that is still kept; undefined otherwise. */
export async function loadErrorReport(db: DB, merchantId: number, token: string) {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return undefined;
  return db
    .selectFrom("bulk_error_reports")
    .select(["file_name", "content"])
    .where("merchant_id", "=", merchantId)
    .where("token", "=", token)
    .where("created_at", ">=", addMs(now(), -ERROR_REPORT_KEPT_MS).toISOString())
    .executeTakeFirst();
}
