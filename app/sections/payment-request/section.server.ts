import type { SectionServer } from "../contract";
import { sendReceiptWhenPaid } from "./domain/receipts.server";
import { deliveryDetails, deliveryField, serializeDelivery } from "./presentation/delivery.server";
import { loadPaymentRequestSettings } from "./settings.server";

export const sectionServer: SectionServer = {
  key: "payment_request",
  onTransition: (trx, event) => sendReceiptWhenPaid(trx, event, async () => (await loadPaymentRequestSettings(trx, event.transaction.merchant_id)).emailNotifications),
  transactions: { fields: [deliveryField], details: deliveryDetails, serialize: serializeDelivery },
};
