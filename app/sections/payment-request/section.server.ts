import type { SectionServer } from "../contract";
import { createPaymentRequest } from "./domain/payment-requests.server";
import { PaymentRequestSchema } from "./domain/payment-request-schema";
import { linkBaseUrl } from "~/web/sign-in.server";
import { sendReceiptWhenPaid } from "./domain/receipts.server";
import { deliveryDetails, deliveryField, serializeDelivery } from "./presentation/delivery.server";
import { loadPaymentRequestSettings } from "./settings.server";
import { sourceDetails } from "~/presentation/transaction-sources.server";

export const sectionServer: SectionServer = {
  key: "payment_request",
  requestMaker: async (db, input) => {
    const parsed = PaymentRequestSchema.safeParse(input.fields);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues)
        (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
      return { ok: false, errors, params: {} };
    }
    const created = await createPaymentRequest(db, {
      merchantId: input.merchantId,
      user: input.user,
      request: parsed.data,
      baseUrl: linkBaseUrl(),
      lang: input.lang,
      settings: await loadPaymentRequestSettings(db, input.merchantId),
      extra: { ...input.extra, source: input.source },
      alongside: input.alongside,
    });
    if (!created.ok) return { ok: false, errors: created.errors, params: created.params };
    return { ok: true, transactionId: created.transaction.id, payUrl: created.transaction.payUrl };
  },
  onTransition: (trx, event) =>
    sendReceiptWhenPaid(
      trx,
      event,
      async () => (await loadPaymentRequestSettings(trx, event.transaction.merchant_id)).emailNotifications,
    ),
  transactions: {
    fields: [deliveryField],
    details: (row, lang) => [...deliveryDetails(row, lang), ...sourceDetails(row, lang)],
    // What made the request (the counter) is its own labelled row.
    extraKeys: ["source"],
    serialize: serializeDelivery,
    refusedActions: async (db, merchantId) => {
      const settings = await loadPaymentRequestSettings(db, merchantId);
      return [
        ...(settings.emailNotifications ? [] : (["email"] as const)),
        ...(settings.smsNotifications ? [] : (["sms"] as const)),
      ];
    },
    qrContent: async (db, row, payUrl) => {
      const { qrCodeType } = await loadPaymentRequestSettings(db, row.merchant_id);
      return qrCodeType === "none" ? null : qrCodeType === "transaction_id" ? row.id : payUrl;
    },
  },
};
