import type { DB } from "~/db/database.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { isLanguage } from "~/lib/i18n";
import { money } from "~/lib/outcome";

/**
 * When a customer pays a payment request, they get a receipt by e-mail in the language they paid
 * in — written with the payment, so the mail exists exactly when the payment does.
 */
export async function sendReceiptWhenPaid(trx: DB, event: TransitionEvent) {
  if (event.cause.kind !== "payment" || (event.to !== "paid" && event.to !== "authorized")) return;
  const email = event.transaction.customer_email;
  if (!email) return;
  const attempt = await trx
    .selectFrom("payment_attempts")
    .select(["total", "currency_code", "track_id", "lang"])
    .where("id", "=", event.cause.attemptId)
    .executeTakeFirstOrThrow();
  await queueMail(trx, {
    merchantId: event.transaction.merchant_id,
    to: email,
    template: "receipt",
    params: { orderNo: event.transaction.order_no, amount: money(attempt.total, attempt.currency_code), reference: attempt.track_id },
    lang: isLanguage(attempt.lang) ? attempt.lang : "en",
  });
}
