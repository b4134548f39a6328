import type { DB } from "~/db/database.server";
import { PLATFORM_ACTOR } from "~/domain/payments/operations.server";
import { paymentReturnsOfTransaction } from "~/domain/payments/returns.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";

/**
 * The payments of these transactions the platform gives back by itself, as the merchant's order,
 * booking and transaction pages show them (components/payment-returns.tsx): how much, why, and
 * where it stands.
 */
export async function paymentReturnsView(
  db: DB,
  merchantId: number,
  transactionIds: readonly (string | null)[],
  lang: Language,
) {
  const views = [];
  for (const transactionId of transactionIds) {
    if (!transactionId) continue;
    for (const given of await paymentReturnsOfTransaction(db, merchantId, transactionId))
      views.push({
        attemptId: given.attemptId,
        transactionId,
        kind: given.kind,
        reason: given.reason,
        status: given.status,
        amount: formatAmount(given.amount, given.currency, lang),
      });
  }
  return views;
}

export type PaymentReturnView = Awaited<ReturnType<typeof paymentReturnsView>>[number];

/** The maker of an Operations Request as people read it: the platform, for a payment it gives back by itself. */
export function makerName(name: string, lang: Language) {
  return name === PLATFORM_ACTOR.username ? translator(lang)("payment_return.maker") : name;
}
