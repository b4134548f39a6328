import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { list, refuse, word, type Refusal } from "~/lib/outcome";
import { attachmentName, isMerchantAttachmentKey } from "./attachments.server";

/**
 * What a merchant may change on a transaction after it was made: whether staff have seen it, and
 * its attachment (a file_url from attachment upload; null removes it). Amounts, customer, gateway
 * and state are the payment's record and move only through payments and operations; email_seen
 * and disclosed_to_merchant are the platform's to set.
 */
export const CHANGEABLE_FIELDS = ["seen", "attachment"] as const;
export type TransactionChanges = { seen?: boolean; attachment?: string | null };

export type PartialUpdateOutcome = { ok: true } | Refusal;

/**
 * Changes a live transaction of the merchant (of one section when `plugin` is given), audited in
 * the same database transaction: one transaction_update entry naming the changes, or, for the
 * details page's attachment field, transaction_attachment_set or _cleared.
 */
export async function updateTransactionFields(
  db: DB,
  input: {
    merchantId: number;
    plugin?: string;
    transactionId: string;
    actor: { id: number; username: string };
    changes: TransactionChanges;
    auditAs?: "update" | "attachment";
  },
): Promise<PartialUpdateOutcome> {
  const { changes } = input;
  const values: { seen?: number; attachment_path?: string | null; attachment_name?: string | null } = {};
  if (changes.seen !== undefined) values.seen = changes.seen ? 1 : 0;
  if (changes.attachment !== undefined) {
    if (changes.attachment !== null && !isMerchantAttachmentKey(input.merchantId, changes.attachment)) {
      return refuse("attachment.errors.unknown", { field: "attachment" });
    }
    values.attachment_path = changes.attachment;
    values.attachment_name = changes.attachment === null ? null : attachmentName(changes.attachment);
  }
  if (Object.keys(values).length === 0) return refuse("api.nothing_to_update");
  return db.transaction().execute(async (trx): Promise<PartialUpdateOutcome> => {
    let query = trx
      .updateTable("transactions")
      .set(values)
      .where("merchant_id", "=", input.merchantId)
      .where("id", "=", input.transactionId)
      .where("deleted_at", "is", null);
    if (input.plugin) query = query.where("plugin", "=", input.plugin);
    const updated = await query.returning("order_no").executeTakeFirst();
    if (!updated) return refuse("api.not_found");
    const audit = {
      merchantId: input.merchantId,
      actor: input.actor,
      objectType: "transaction",
      objectId: input.transactionId,
    };
    if (input.auditAs === "attachment" && changes.attachment !== undefined) {
      await recordAudit(trx, {
        ...audit,
        action: changes.attachment === null ? "transaction_attachment_cleared" : "transaction_attachment_set",
        params: { orderNo: updated.order_no, file: values.attachment_name ?? "" },
      });
    } else {
      const described = list(
        Object.entries(changes).map(([name, value]) =>
          name === "seen"
            ? word(value ? "audit_entry.changes.seen" : "audit_entry.changes.unseen")
            : value === null
              ? word(`audit_entry.changes.${name}_cleared`, `${name}: —`)
              : `${attachmentName(String(value))}`,
        ),
      );
      await recordAudit(trx, {
        ...audit,
        action: "transaction_update",
        params: { orderNo: updated.order_no, changes: described },
      });
    }
    return { ok: true };
  });
}
