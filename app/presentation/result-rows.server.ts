import { DateTime } from "luxon";
import { GATEWAY_KINDS, isGatewayKind } from "~/domain/payments/gateways/registry";
import { cardEnding, DISPLAY_ZONE, formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import type { Attempt } from "~/domain/payments/attempts.server";
import type { GatewayRow } from "~/domain/payments/gateway-settings.server";

type ResultAttempt = Pick<
  Attempt,
  | "state"
  | "total"
  | "currency_code"
  | "track_id"
  | "gateway_code"
  | "gateway_kind"
  | "completed_at"
  | "post_date"
  | "tran_id"
  | "auth_code"
  | "reference_id"
  | "payment_id"
  | "card_masked"
>;

function showsTrackId(attempt: Pick<Attempt, "gateway_kind">) {
  return isGatewayKind(attempt.gateway_kind) && GATEWAY_KINDS[attempt.gateway_kind].showsTrackId === true;
}

function kuwaitDay(iso: string) {
  return DateTime.fromISO(iso, { zone: "utc" }).setZone(DISPLAY_ZONE).startOf("day");
}

/**
 * KNET's post date (MMDD, the bank's business day in Kuwait) as a date people read, in the year
 * that puts it nearest the payment; null when it is the payment's own day (the date row says it).
 */
export function readablePostDate(postDate: string | null, completedAt: string | null, lang: Language): string | null {
  const match = /^(\d{2})(\d{2})$/.exec(postDate ?? "");
  if (!match) return postDate || null;
  const day = kuwaitDay(completedAt ?? new Date().toISOString());
  const candidates = [day.year - 1, day.year, day.year + 1]
    .map((year) =>
      DateTime.fromObject({ year, month: Number(match[1]), day: Number(match[2]) }, { zone: DISPLAY_ZONE }),
    )
    .filter((date) => date.isValid);
  if (!candidates.length) return postDate;
  const nearest = candidates.reduce((best, date) =>
    Math.abs(date.diff(day).toMillis()) < Math.abs(best.diff(day).toMillis()) ? date : best,
  );
  if (completedAt && nearest.hasSame(day, "day")) return null;
  return nearest.setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-GB").toFormat("d LLL yyyy");
}

/**
 * The payment details of a result (public spec §2 attempt result), as [label key, value] rows with
 * the empty ones left out. The status value is itself a translation key. Our track id is shown once:
 * as KNET's Track ID on a KNET payment (KNET asks merchants to show it), as the Reference No otherwise.
 */
export function resultRows(
  attempt: ResultAttempt,
  orderNo: number,
  gateway: Pick<GatewayRow, "name_en" | "name_ar"> | undefined,
  lang: Language,
  options: { withDate?: boolean } = {},
): [string, string][] {
  const trackIdShown = showsTrackId(attempt);
  const rows: [string, string | null][] = [
    ["result.order_no", String(orderNo)],
    ["result.amount", formatAmount(attempt.total, attempt.currency_code, lang)],
    ["result.reference_no", trackIdShown ? null : attempt.track_id],
    ["result.status", `result.states.${attempt.state}`],
    ["result.gateway", gateway ? (lang === "ar" ? gateway.name_ar : gateway.name_en) : attempt.gateway_code],
    ["result.card", cardEnding(attempt.card_masked)],
    ["result.date", options.withDate && attempt.completed_at ? formatDateTime(attempt.completed_at, lang) : null],
    ["result.track_id", trackIdShown ? attempt.track_id : null],
    ["result.post_date", readablePostDate(attempt.post_date, options.withDate ? attempt.completed_at : null, lang)],
    ["result.transaction_id", attempt.tran_id],
    ["result.auth_code", attempt.auth_code],
    ["result.reference_id", attempt.reference_id],
    ["result.payment_id", attempt.payment_id],
  ];
  return rows.filter((row): row is [string, string] => Boolean(row[1]));
}

/**
 * The rows the customer's result page shows: the same details with every value written out in the
 * page's language, the date and time in Kuwait, and no value shown twice (a gateway named like the
 * status, a gateway reference equal to another). The amount is led with above the table, so it is
 * left out here.
 */
export function customerResultRows(
  attempt: ResultAttempt,
  orderNo: number,
  gateway: Pick<GatewayRow, "name_en" | "name_ar"> | undefined,
  lang: Language,
): [string, string][] {
  const t = translator(lang);
  const seen = new Set<string>();
  const shown: [string, string][] = [];
  for (const [label, value] of resultRows(attempt, orderNo, gateway, lang, { withDate: true })) {
    if (label === "result.amount") continue;
    const text = label === "result.status" ? t(value) : value;
    const key = text.trim().toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    shown.push([label === "result.date" ? "result.date_kuwait" : label, text]);
  }
  return shown;
}

/** What the customer is told happened to a payment that did not go through, from the gateway's answer. */
export type FailureReason = "declined" | "canceled" | "timed_out" | "unavailable" | "unconfirmed" | "not_completed";

const REASONS_BY_RESULT: Record<string, FailureReason> = {
  // KNET
  "NOT CAPTURED": "declined",
  "NOT APPROVED": "declined",
  "DENIED BY RISK": "declined",
  CANCELED: "canceled",
  VOIDED: "canceled",
  "HOST TIMEOUT": "timed_out",
  // The Mastercard Gateway (response.gatewayCode, or the order's status when no payment was made)
  DECLINED: "declined",
  EXPIRED_CARD: "declined",
  INSUFFICIENT_FUNDS: "declined",
  AUTHENTICATION_UNSUCCESSFUL: "declined",
  TIMED_OUT: "timed_out",
  // The platform's own
  TIMEOUT: "timed_out",
  START_FAILED: "unavailable",
  NOT_STARTED: "unavailable",
  AMOUNT_MISMATCH: "unconfirmed",
};

export function failureReasonOf(attempt: Pick<Attempt, "state" | "result_code">): FailureReason {
  const known = REASONS_BY_RESULT[(attempt.result_code ?? "").trim().toUpperCase()];
  if (known) return known;
  if (attempt.state === "canceled") return "canceled";
  return "not_completed";
}
