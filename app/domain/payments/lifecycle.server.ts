import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { Actor } from "~/domain/identity/permissions";
import { queueMail } from "~/domain/messaging/mail.server";
import { sendSms } from "~/domain/messaging/sms.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { money, refuse, type Refusal } from "~/lib/outcome";
import { bumpTotals } from "./running-totals.server";
import { DELETABLE_STATES, PAYABLE_STATES } from "./states";
import { recordDeletedStatistics } from "./statistics-rollup.server";
import { transitionTransaction } from "./transaction-state.server";

/**
 * What happens to a transaction besides being paid and refunded: the customer is sent its link
 * again, the merchant cancels it, deletes it from the list or brings it back.
 */

export type LifecycleOutcome = { ok: true; code: string } | Refusal;

/** Where a customer pays a transaction: the platform's pay page. */
export function payUrlOf(baseUrl: string, lang: Language, transactionId: string) {
  return `${baseUrl}/${lang}/pay/${transactionId}`;
}

async function findTransaction(db: DB, merchantId: number, id: string) {
  return db
    .selectFrom("transactions")
    .select(["id", "order_no", "state", "amount", "currency_code", "customer_email", "customer_phone", "deleted_at"])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** The message with the link to pay (mail.pay_link, sms.pay_link), in the merchant's name. */
export async function payLinkParams(
  db: DB,
  input: { merchantId: number; amount: number; currency: string; link: string; lang: Language },
) {
  const merchant = await db
    .selectFrom("merchants")
    .select(["title_en", "title_ar"])
    .where("id", "=", input.merchantId)
    .executeTakeFirstOrThrow();
  return {
    merchant: input.lang === "ar" ? merchant.title_ar : merchant.title_en,
    amount: money(input.amount, input.currency),
    link: input.link,
  };
}

/** Sends the customer the link to pay a transaction that is still payable, by e-mail or SMS. */
export async function sendPayLink(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    transactionId: string;
    channel: "email" | "sms";
    baseUrl: string;
    lang: Language;
  },
): Promise<LifecycleOutcome> {
  const transaction = await findTransaction(db, input.merchantId, input.transactionId);
  if (!transaction) return refuse("api.not_found");
  const to = input.channel === "email" ? transaction.customer_email : transaction.customer_phone;
  if (!PAYABLE_STATES.includes(transaction.state) || !to) return refuse("actions.not_available");
  const params = await payLinkParams(db, {
    merchantId: input.merchantId,
    amount: transaction.amount,
    currency: transaction.currency_code,
    link: payUrlOf(input.baseUrl, input.lang, transaction.id),
    lang: input.lang,
  });
  await writeTransaction(db, async (trx) => {
    if (input.channel === "email")
      await queueMail(trx, { merchantId: input.merchantId, to, template: "pay_link", params, lang: input.lang });
    else await sendSms(trx, { merchantId: input.merchantId, to, template: "pay_link", params, lang: input.lang });
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: `transaction_${input.channel}`,
      params: { orderNo: transaction.order_no, to },
      objectType: "transaction",
      objectId: transaction.id,
    });
  });
  return { ok: true, code: `actions.done.${input.channel}` };
}

/** The merchant withdraws a request nobody has paid: the customer can no longer pay it. */
export async function cancelTransaction(
  db: DB,
  input: { merchantId: number; actor: Actor; transactionId: string },
): Promise<LifecycleOutcome> {
  return writeTransaction(db, async (trx): Promise<LifecycleOutcome> => {
    const transaction = await findTransaction(trx, input.merchantId, input.transactionId);
    if (!transaction) return refuse("api.not_found");
    const moved = await transitionTransaction(
      trx,
      transaction.id,
      "canceled",
      { kind: "canceled", actor: input.actor },
      { from: PAYABLE_STATES },
    );
    if (!moved.ok) return refuse("pay.errors.not_payable");
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "transaction_cancel",
      params: { orderNo: transaction.order_no },
      objectType: "transaction",
      objectId: transaction.id,
    });
    return { ok: true, code: "actions.done.cancel" };
  });
}

/**
 * Deletes a transaction nobody paid from the list, or restores a deleted one; the list's totals
 * and the statistics follow in the same database transaction.
 */
export async function setDeleted(
  db: DB,
  input: { merchantId: number; actor: Actor; transactionId: string; deleted: boolean },
): Promise<LifecycleOutcome> {
  return writeTransaction(db, async (trx): Promise<LifecycleOutcome> => {
    const row = await trx
      .selectFrom("transactions")
      .select(["id", "order_no", "plugin", "currency_code", "amount", "created_at", "state", "deleted_at"])
      .where("merchant_id", "=", input.merchantId)
      .where("id", "=", input.transactionId)
      .executeTakeFirst();
    if (!row) return refuse("api.not_found");
    if (input.deleted && (row.deleted_at || !DELETABLE_STATES.includes(row.state)))
      return refuse("actions.not_applicable");
    if (!input.deleted && !row.deleted_at) return refuse("actions.not_applicable");
    await trx
      .updateTable("transactions")
      .set({ deleted_at: input.deleted ? nowIso() : null })
      .where("id", "=", row.id)
      .execute();
    const sign = input.deleted ? 1 : -1;
    await bumpTotals(
      trx,
      { merchantId: input.merchantId, plugin: row.plugin, currency: row.currency_code, at: row.created_at },
      { deleted_count: sign, deleted_amount: sign * row.amount },
    );
    await recordDeletedStatistics(trx, input.merchantId, row.id, input.deleted ? -1 : 1);
    const action = input.deleted ? "delete" : "restore";
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: `transaction_${action}`,
      params: { orderNo: row.order_no },
      objectType: "transaction",
      objectId: row.id,
    });
    return { ok: true, code: `actions.done.${action}` };
  });
}
