import type { GatewaySettings } from "../settings";

/**
 * What a merchant enters for the Mastercard Gateway, from the bank's Merchant Administration
 * portal: the merchant id, the API password (Admin → Integration Settings) and the webhook
 * notification secret (Admin → Webhook Notifications). The gateway is told the notification
 * address with each payment; the merchant registers it too, shown for copying.
 */
export const mpgsSettings: GatewaySettings = {
  credentials: [
    { field: "merchant_id", key: "merchantId", required: true, secret: false },
    { field: "api_password", key: "apiPassword", required: true, secret: true },
    {
      field: "notification_secret",
      key: "notificationSecret",
      required: true,
      secret: true,
      hint: "admin.gateways.credential_hint.notification_secret_mpgs",
    },
  ],
  registeredLegs: ["notify"],
};
