import type { DB } from "~/db/database.server";
import { loadSectionSettings } from "~/domain/merchants/sections-admin.server";
import type { PaymentRequestSettings } from "./domain/payment-requests.server";
import { paymentRequest } from "./section";

/** The merchant's settings for payment requests, as this section's rules read them. */
export async function loadPaymentRequestSettings(db: DB, merchantId: number): Promise<PaymentRequestSettings> {
  const values = await loadSectionSettings(db, merchantId, paymentRequest);
  return {
    defaultExpiryHours: typeof values.default_expiry_hours === "number" ? values.default_expiry_hours : null,
    editableAmount: values.editable_amount !== false,
    emailNotifications: values.email_notifications !== false,
    smsNotifications: values.sms_notifications !== false,
    multiStepCheckout: values.multi_step_checkout !== false,
    qrCodeType:
      values.qr_code_type === "transaction_id" || values.qr_code_type === "none" ? values.qr_code_type : "payment_link",
  };
}
