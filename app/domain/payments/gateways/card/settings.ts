import type { GatewaySettings } from "../settings";

export const cardSettings: GatewaySettings = {
  credentials: [
    { field: "merchant_id", key: "merchantId", required: false, secret: false },
    { field: "api_key", key: "apiKey", required: true, secret: true },
    { field: "notification_secret", key: "webhookSecret", required: true, secret: true },
  ],
};
