import type { DB } from "~/db/database.server";
import { attachmentName, isMerchantAttachmentKey } from "~/domain/payments/attachments.server";
import { recordAudit } from "~/domain/audit/audit-log.server";

/**
 * What a merchant may change on a transaction after it was made: whether staff have seen it, and
 * its attachment (a file_url from attachment upload; null removes it). Amounts, customer, gateway
 * and state are the payment's record and move only through payments and operations; email_seen
 * and disclosed_to_merchant are the platform's to set.
 */
export const CHANGEABLE_FIELDS = ["seen", "attachment"] as const;
export type TransactionChanges = { seen?: boolean; attachment?: string | null };

export type PartialUpdateOutcome = { ok: true } | { ok: false; status: 400 | 404; errors: Record<string, string[]> };

export async function updateTransactionFields(
  db: DB,
  input: { merchantId: number; plugin: string; transactionId: string; actor: { id: number; username: string }; changes: TransactionChanges },
): Promise<PartialUpdateOutcome> {
  const { changes } = input;
  const values: { seen?: number; attachment_path?: string | null; attachment_name?: string | null } = {};
  if (changes.seen !== undefined) values.seen = changes.seen ? 1 : 0;
  if (changes.attachment !== undefined) {
    if (changes.attachment !== null && !isMerchantAttachmentKey(input.merchantId, changes.attachment)) {
      return { ok: false, status: 400, errors: { attachment: ["attachment.errors.unknown"] } };
    }
    values.attachment_path = changes.attachment;
    values.attachment_name = changes.attachment === null ? null : attachmentName(changes.attachment);
  }
  if (Object.keys(values).length === 0) return { ok: false, status: 400, errors: { non_field_errors: ["api.nothing_to_update"] } };
  const described = Object.entries(changes)
    .map(([name, value]) => `${name}=${value === null ? "none" : name === "attachment" ? attachmentName(String(value)) : String(value)}`)
    .join(", ");
  return db.transaction().execute(async (trx): Promise<PartialUpdateOutcome> => {
    const updated = await trx
      .updateTable("transactions")
      .set(values)
      .where("merchant_id", "=", input.merchantId)
      .where("plugin", "=", input.plugin)
      .where("id", "=", input.transactionId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { ok: false, status: 404, errors: { detail: ["api.not_found"] } };
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "transaction_update",
      description: `${input.actor.username}: changed ${described} on transaction ${input.transactionId}`,
      objectType: "transaction",
      objectId: input.transactionId,
    });
    return { ok: true };
  });
}
