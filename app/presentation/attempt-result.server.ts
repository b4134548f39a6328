import type { DB } from "~/db/database.server";
import { findAttempt, settleByInquiry, type PlatformAddresses } from "~/domain/payments/attempts.server";
import { findMerchantGateway } from "~/domain/payments/gateway-settings.server";
import { findPublicTransaction, isExpired } from "~/domain/payments/pay-page.server";
import { paymentReturnOf } from "~/domain/payments/returns.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import type { Language } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { merchantContactView } from "./public-pay-view.server";
import { customerResultRows, failureReasonOf } from "./result-rows.server";
import type { CustomerResult, SectionServer } from "~/sections/contract";

/** Only paths on this site, or the merchant's own next_url, may be followed after a payment. */
function safeNext(next: AskedNext, merchantNext: string | null) {
  if (!next.asked) return null;
  if (merchantNext && next.asked === merchantNext) return next.asked;
  return next.local ? next.asked : null;
}

/** The `next` the result page's address asks for, and whether it is a path on this site (web/guards `isLocalPath`). */
export type AskedNext = { asked: string | null; local: boolean };

/** What the sections add to a result page: registry.server's hooks, handed by the caller (presentation reads no section). */
export type ResultPageSections = {
  extensionsOf: (key: string) => SectionServer["transactions"] | undefined;
  customerReturnUrl: (
    db: DB,
    input: { transactionId: string; attemptId: string; result: CustomerResult; lang: Language },
  ) => Promise<string | null>;
};

/**
 * What the result page of a payment attempt shows (public spec: attempt result page): the
 * platform's page (routes/pay/attempt-detail) and a section's own result page (the Shopify flow's
 * payment details) read the same view. `plugins` limits the attempts found to those sections'.
 */
export async function attemptResultView(
  db: DB,
  input: {
    attemptId: string;
    lang: Language;
    addresses: PlatformAddresses;
    next: AskedNext;
    sections: ResultPageSections;
    plugins?: readonly string[];
  },
) {
  const { lang, sections } = input;
  let attempt = await findAttempt(db, input.attemptId);
  const transaction = attempt ? await findPublicTransaction(db, attempt.transaction_id, input.plugins) : undefined;
  if (!attempt || !transaction) return { found: false as const, lang };
  // A result still open is asked of the gateway again, from this server, each time the page loads.
  if (attempt.state === "pending") attempt = await settleByInquiry(db, attempt, input.addresses);
  const [unit, gateway] = await Promise.all([
    loadUnitHeader(db, transaction, lang),
    findMerchantGateway(db, attempt.merchant_id, attempt.gateway_code),
  ]);
  const failedOrOpen = attempt.state !== "success" && attempt.state !== "cod";
  // Money the platform gives back by itself (an order canceled before it arrived, a second payment).
  const returned = attempt.state === "success" ? await paymentReturnOf(db, attempt.id) : undefined;
  const expired = failedOrOpen && (transaction.state === "expired" || isExpired(transaction));
  return {
    found: true as const,
    lang,
    plugin: transaction.plugin,
    transactionId: transaction.id,
    unit,
    state: attempt.state,
    reason:
      attempt.state === "success" || attempt.state === "cod" || attempt.state === "pending"
        ? null
        : failureReasonOf(attempt),
    expired,
    contact: expired ? await merchantContactView(db, attempt.merchant_id, unit) : null,
    amount: formatAmount(attempt.total, attempt.currency_code, lang),
    rows: customerResultRows(attempt, transaction.order_no, gateway, lang),
    description: transaction.description,
    receiptUrl: failedOrOpen ? null : `/${lang}/pay/attempt-detail/${attempt.id}/receipt.pdf`,
    paymentReturn: returned ? { reason: returned.reason, done: returned.status === "returned" } : null,
    // What the payment bought, when its section gives it to download (an event's tickets).
    ticketsUrl:
      attempt.state === "success" && !returned
        ? ((await sections.extensionsOf(transaction.plugin)?.ticketsUrl?.(db, transaction.id, lang)) ?? null)
        : null,
    // Where the customer follows what the payment ordered (a restaurant order's state).
    followUrl:
      (attempt.state === "success" && !returned) || attempt.state === "cod"
        ? ((await sections.extensionsOf(transaction.plugin)?.followUrl?.(db, transaction.id, lang)) ?? null)
        : null,
    attachment: transaction.attachment_name
      ? { name: transaction.attachment_name, url: `/${lang}/pay/${transaction.id}/attachment` }
      : null,
    tryAgainUrl: `/${lang}/pay/${transaction.id}`,
    next: safeNext(input.next, transaction.next_url),
    // Where a section sends the customer on once the result is known (a checkout session's merchant site).
    returnUrl:
      attempt.state === "pending"
        ? null
        : await sections.customerReturnUrl(db, {
            transactionId: transaction.id,
            attemptId: attempt.id,
            result: expired ? "expired" : attempt.state,
            lang,
          }),
    /** A note of the section's under the result (a translation key), and a way back to where the customer came from. */
    note: null as string | null,
    backLink: null as { href: string; label: string } | null,
  };
}

export type AttemptResultData = Awaited<ReturnType<typeof attemptResultView>>;
