import type { DB } from "~/db/database.server";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { queueMail } from "~/domain/messaging/mail.server";
import { sendSms } from "~/domain/messaging/sms.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { translator, type Language } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import { moveTransactionState, PAYABLE_STATES } from "./pay-page.server";
import { payUrlOf } from "./payment-requests.server";
import { findMerchantTransaction } from "./transactions.server";

export type TransactionAction = "email" | "sms" | "cancel";

type Transaction = NonNullable<Awaited<ReturnType<typeof findMerchantTransaction>>>;

/** The actions a user may take on a transaction now (dashboard spec §3 Action), decided on the server. */
export function availableActions(transaction: Transaction, user: PermissionHolder): TransactionAction[] {
  if (!PAYABLE_STATES.includes(transaction.state)) return [];
  const actions: TransactionAction[] = [];
  if (can(user, "change_paymenttransaction") || can(user, "add_paymenttransaction")) {
    if (transaction.customer_email) actions.push("email");
    if (transaction.customer_phone) actions.push("sms");
  }
  if (can(user, "change_paymenttransaction")) actions.push("cancel");
  return actions;
}

export function describeAction(action: TransactionAction, lang: Language, url: string) {
  const t = translator(lang);
  const icons = { email: "mail", sms: "message", cancel: "x" } as const;
  return { value: action, url, display_name: t(`actions.${action}`), icon: icons[action], available_amount: null };
}

/** Runs one action if it is available to this user on this transaction of their merchant. */
export async function runAction(
  db: DB,
  input: {
    merchantId: number;
    user: PermissionHolder & { id: number; username: string };
    transactionId: string;
    action: string;
    baseUrl: string;
    lang: Language;
  },
): Promise<{ ok: true; message: string } | { ok: false; status: 400 | 403 | 404; message: string }> {
  const t = translator(input.lang);
  const transaction = await findMerchantTransaction(db, input.merchantId, input.transactionId);
  if (!transaction) return { ok: false, status: 404, message: t("api.not_found") };
  const allowed = availableActions(transaction, input.user);
  if (!allowed.includes(input.action as TransactionAction)) return { ok: false, status: 403, message: t("actions.not_available") };
  const merchant = await db.selectFrom("merchants").select(["title_en", "title_ar"]).where("id", "=", input.merchantId).executeTakeFirstOrThrow();
  const vars = {
    merchant: input.lang === "ar" ? merchant.title_ar : merchant.title_en,
    amount: formatAmount(transaction.amount, transaction.currency_code, input.lang),
    link: payUrlOf(input.baseUrl, input.lang, transaction.id),
  };
  if (input.action === "email") {
    await queueMail(db, { merchantId: input.merchantId, to: transaction.customer_email!, subject: t("mail.payment_request.subject", vars), text: t("mail.payment_request.body", vars) });
  } else if (input.action === "sms") {
    await sendSms(db, { merchantId: input.merchantId, to: transaction.customer_phone!, body: t("sms.payment_request", vars) });
  } else if (!(await moveTransactionState(db, transaction.id, "canceled", PAYABLE_STATES))) {
    return { ok: false, status: 400, message: t("pay.errors.not_payable") };
  }
  await recordAudit(db, {
    merchantId: input.merchantId,
    actor: { id: input.user.id, username: input.user.username },
    action: `transaction_${input.action}`,
    description: `${input.user.username}: ${input.action} on order #${transaction.order_no}`,
    objectType: "transaction",
    objectId: transaction.id,
  });
  return { ok: true, message: t(`actions.done.${input.action}`) };
}
