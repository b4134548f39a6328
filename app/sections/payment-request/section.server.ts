import type { SectionServer } from "../contract";
import { sendReceiptWhenPaid } from "./domain/receipts.server";
import { deliveryDetails, deliveryField, serializeDelivery } from "./presentation/delivery.server";
import { loadPaymentRequestSettings } from "./settings.server";

export const sectionServer: SectionServer = {
  key: "payment_request",
  onTransition: (trx, event) => sendReceiptWhenPaid(trx, event, async () => (await loadPaymentRequestSettings(trx, event.transaction.merchant_id)).emailNotifications),
  transactions: {
    fields: [deliveryField],
    details: deliveryDetails,
    serialize: serializeDelivery,
    refusedActions: async (db, merchantId) => {
      const settings = await loadPaymentRequestSettings(db, merchantId);
      return [...(settings.emailNotifications ? [] : (["email"] as const)), ...(settings.smsNotifications ? [] : (["sms"] as const))];
    },
    qrContent: async (db, row, payUrl) => {
      const { qrCodeType } = await loadPaymentRequestSettings(db, row.merchant_id);
      return qrCodeType === "none" ? null : qrCodeType === "transaction_id" ? row.id : payUrl;
    },
  },
};
