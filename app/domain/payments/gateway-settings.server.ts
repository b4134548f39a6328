import type { DB } from "~/db/database.server";
import type { GatewayTable } from "~/db/schema";
import type { Selectable } from "kysely";
import { sandboxEnabled } from "~/lib/env.server";
import { unseal } from "~/lib/sealed.server";
import { computeFee, type FeeRule } from "~/lib/money";
import { named, type NameParam } from "~/lib/outcome";
import type { GatewayConfig } from "./gateways/gateway";
import { gatewayKind } from "./gateways/registry";

export type GatewayRow = Selectable<GatewayTable>;

const gatewayColumns = [
  "id",
  "merchant_id",
  "code",
  "kind",
  "name_en",
  "name_ar",
  "logo_url",
  "currencies",
  "endpoint_url",
  "credentials",
  "fee_fixed",
  "fee_basis_points",
  "fee_payer",
  "capture_mode",
  "enabled",
  "sort_order",
  "created_at",
  "mode",
  "credentials_set_at",
] as const;

/**
 * The merchant's gateways; `enabledOnly`: those a customer can pay with now, enabled and reachable
 * (a gateway standing on the platform's sandbox is not, while the sandboxes are off).
 */
export async function listMerchantGateways(db: DB, merchantId: number, options: { enabledOnly?: boolean } = {}) {
  let query = db.selectFrom("gateways").select(gatewayColumns).where("merchant_id", "=", merchantId);
  if (options.enabledOnly) query = query.where("enabled", "=", 1);
  const gateways = await query.orderBy("sort_order").orderBy("id").execute();
  return options.enabledOnly ? gateways.filter(isReachable) : gateways;
}

/** Whether the platform can reach this gateway: it has an endpoint of its own, or needs none, or the sandboxes are on. */
export function isReachable(gateway: Pick<GatewayRow, "kind" | "endpoint_url">) {
  return gateway.endpoint_url !== null || !gatewayKind(gateway.kind).sandboxPath || sandboxEnabled();
}

export async function findMerchantGateway(db: DB, merchantId: number, code: string) {
  return db
    .selectFrom("gateways")
    .select(gatewayColumns)
    .where("merchant_id", "=", merchantId)
    .where("code", "=", code)
    .executeTakeFirst();
}

export function supportsCurrency(gateway: Pick<GatewayRow, "currencies">, currency: string) {
  return gateway.currencies
    .split(",")
    .map((code) => code.trim().toUpperCase())
    .includes(currency.toUpperCase());
}

export function feeRuleOf(gateway: Pick<GatewayRow, "fee_fixed" | "fee_basis_points">): FeeRule {
  return { fixed: gateway.fee_fixed, basisPoints: gateway.fee_basis_points };
}

export function hasFee(gateway: Pick<GatewayRow, "fee_fixed" | "fee_basis_points">) {
  return gateway.fee_fixed > 0 || gateway.fee_basis_points > 0;
}

export { computeFee };

/**
 * The adapter's view of a gateway: secrets parsed, endpoints resolved. A gateway without an
 * endpoint of its own is this platform's sandbox, reached at the platform's own addresses.
 */
export function toGatewayConfig(
  gateway: GatewayRow,
  platform: { publicBaseUrl: string; internalBaseUrl: string },
): GatewayConfig {
  const sandboxPath = gatewayKind(gateway.kind).sandboxPath ?? "";
  return {
    code: gateway.code,
    kind: gateway.kind,
    credentials: JSON.parse(unseal(gateway.credentials)) as Record<string, string>,
    captureMode: gateway.capture_mode,
    endpoints: gateway.endpoint_url
      ? { browser: gateway.endpoint_url, server: gateway.endpoint_url }
      : { browser: `${platform.publicBaseUrl}${sandboxPath}`, server: `${platform.internalBaseUrl}${sandboxPath}` },
  };
}

/** A gateway's name in both languages, for a message or an audit line (its code when it is gone). */
export async function gatewayNameParam(db: DB, merchantId: number, code: string): Promise<NameParam> {
  const gateway = await db
    .selectFrom("gateways")
    .select(["name_en", "name_ar"])
    .where("merchant_id", "=", merchantId)
    .where("code", "=", code)
    .executeTakeFirst();
  return named(gateway?.name_en ?? code, gateway?.name_ar ?? code);
}
