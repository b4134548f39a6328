import type { GatewaySettings } from "../settings";

/** KNET's credentials as its manual gives them: the tranportal password is at most 15 characters, the resource key 16; KWD only. */
export const knetSettings: GatewaySettings = {
  credentials: [
    { field: "tranportal_id", key: "tranportalId", required: true, secret: false },
    {
      field: "tranportal_password",
      key: "password",
      required: true,
      secret: true,
      maxLength: 15,
      refusal: "admin.gateways.errors.tranportal_password",
      hint: "admin.gateways.credential_hint.tranportal_password",
    },
    {
      field: "resource_key",
      key: "resourceKey",
      required: true,
      secret: true,
      minLength: 16,
      maxLength: 16,
      refusal: "admin.gateways.errors.resource_key",
      hint: "admin.gateways.credential_hint.resource_key",
    },
  ],
  currencies: { only: ["KWD"], refusal: "admin.gateways.errors.knet_kwd" },
  registeredLegs: ["response", "error"],
};
