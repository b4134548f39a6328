import type { DB } from "~/db/database.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import { queueReceiptMail } from "~/domain/messaging/payment-mail.server";

/**
 * When a customer pays a payment request, they get a receipt by e-mail in the language they paid
 * in — written with the payment, so the mail exists exactly when the payment does — unless the
 * merchant turned customer e-mails off (`emailsOn`, asked only when there is a receipt to send).
 */
export async function sendReceiptWhenPaid(
  trx: DB,
  event: TransitionEvent,
  emailsOn: () => Promise<boolean> = async () => true,
) {
  if (event.cause.kind !== "payment" || (event.to !== "paid" && event.to !== "authorized")) return;
  if (!event.transaction.customer_email) return;
  if (!(await emailsOn())) return;
  await queueReceiptMail(trx, { attemptId: event.cause.attemptId });
}
