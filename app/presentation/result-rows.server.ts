import { GATEWAY_KINDS, isGatewayKind } from "~/domain/payments/gateways/registry";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import type { Attempt } from "~/domain/payments/attempts.server";
import type { GatewayRow } from "~/domain/payments/gateway-settings.server";

/**
 * The payment details of a result (public spec §2 attempt result), as [label key, value] rows with
 * the empty ones left out. The status value is itself a translation key.
 */
export function resultRows(
  attempt: Attempt,
  orderNo: number,
  gateway: Pick<GatewayRow, "name_en" | "name_ar"> | undefined,
  lang: Language,
  options: { withDate?: boolean } = {},
): [string, string][] {
  const rows: [string, string | null][] = [
    ["result.order_no", String(orderNo)],
    ["result.amount", formatAmount(attempt.total, attempt.currency_code, lang)],
    ["result.reference_no", attempt.track_id],
    ["result.status", `result.states.${attempt.state}`],
    ["result.gateway", gateway ? (lang === "ar" ? gateway.name_ar : gateway.name_en) : attempt.gateway_code],
    ["result.date", options.withDate && attempt.completed_at ? formatDateTime(attempt.completed_at, lang) : null],
    ["result.track_id", isGatewayKind(attempt.gateway_kind) && GATEWAY_KINDS[attempt.gateway_kind].showsTrackId ? attempt.track_id : null],
    ["result.post_date", attempt.post_date],
    ["result.transaction_id", attempt.tran_id],
    ["result.auth_code", attempt.auth_code],
    ["result.reference_id", attempt.reference_id],
    ["result.payment_id", attempt.payment_id],
  ];
  return rows.filter((row): row is [string, string] => Boolean(row[1]));
}
