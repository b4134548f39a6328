import type { SectionServer } from "../contract";
import { sendReceiptWhenPaid } from "./domain/receipts.server";
import { deliveryDetails, deliveryField, serializeDelivery } from "./presentation/delivery.server";

export const sectionServer: SectionServer = {
  key: "payment_request",
  onTransition: sendReceiptWhenPaid,
  transactions: { fields: [deliveryField], details: deliveryDetails, serialize: serializeDelivery },
};
