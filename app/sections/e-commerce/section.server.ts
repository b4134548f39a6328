import type { SectionServer } from "../contract";
import { queueReceiptMail } from "~/domain/messaging/payment-mail.server";
import { translator } from "~/lib/i18n.server";

/** What a session's transaction keeps of its session on `extra` (written when the session is made). */
function sessionExtra(extra: string | null | undefined): { session_id?: string; merchant_order_no?: string | null } {
  try {
    return extra ? JSON.parse(extra) : {};
  } catch {
    return {};
  }
}

export const sectionServer: SectionServer = {
  key: "e_commerce",
  // A customer who gave an e-mail gets the receipt of what they paid on the hosted page, written with the payment.
  onTransition: async (trx, event) => {
    if (event.cause.kind !== "payment" || (event.to !== "paid" && event.to !== "authorized")) return;
    if (!event.transaction.customer_email) return;
    await queueReceiptMail(trx, { attemptId: event.cause.attemptId });
  },
  transactions: {
    details: (row, lang) => {
      const t = translator(lang);
      const extra = sessionExtra(row.extra);
      return [
        ...(extra.merchant_order_no
          ? [{ name: "merchant_order_no", label: t("ecommerce.merchant_order_no"), value: extra.merchant_order_no }]
          : []),
        ...(extra.session_id
          ? [{ name: "session_id", label: t("ecommerce.session_id"), value: extra.session_id }]
          : []),
      ];
    },
    serialize: (row) => {
      const extra = sessionExtra(row.extra);
      return { session_id: extra.session_id ?? null, merchant_order_no: extra.merchant_order_no ?? null };
    },
    extraKeys: ["session_id", "merchant_order_no", "language"],
  },
};
