import type { GatewayInput } from "~/domain/payments/gateway-admin.server";

const STRING_FIELDS = [
  "kind",
  "code",
  "name_en",
  "name_ar",
  "fee_fixed",
  "fee_percentage",
  "fee_payer",
  "capture_mode",
  "mode",
] as const;
const FIELDS = new Set<string>([...STRING_FIELDS, "currencies", "endpoint_url", "enabled", "credentials"]);

/** A gateway's fields from a JSON body, with the types checked; unknown fields are refused by name. */
export function gatewayInputOf(
  body: Record<string, unknown>,
): { ok: true; value: GatewayInput } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const value: GatewayInput = {};
  for (const [field, raw] of Object.entries(body)) {
    if (!FIELDS.has(field)) errors[field] = ["api.read_only_field"];
    else if ((STRING_FIELDS as readonly string[]).includes(field)) {
      if (typeof raw === "string") value[field as (typeof STRING_FIELDS)[number]] = raw;
      else if (typeof raw === "number" && (field === "fee_fixed" || field === "fee_percentage"))
        value[field] = String(raw);
      else errors[field] = ["admin.gateways.errors.invalid"];
    } else if (field === "currencies") {
      if (Array.isArray(raw) && raw.every((code) => typeof code === "string")) value.currencies = raw as string[];
      else if (typeof raw === "string") value.currencies = raw.split(",");
      else errors[field] = ["admin.gateways.errors.currencies"];
    } else if (field === "endpoint_url") {
      if (raw === null || typeof raw === "string") value.endpoint_url = raw;
      else errors[field] = ["admin.gateways.errors.endpoint"];
    } else if (field === "enabled") {
      if (typeof raw === "boolean") value.enabled = raw;
      else errors[field] = ["api.invalid_boolean"];
    } else if (field === "credentials") {
      if (
        raw &&
        typeof raw === "object" &&
        !Array.isArray(raw) &&
        Object.values(raw).every((entry) => typeof entry === "string")
      )
        value.credentials = raw as Record<string, string>;
      else errors[field] = ["admin.gateways.errors.credential_unknown"];
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value };
}
