import { DateTime } from "luxon";
import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { editableAmountCap } from "~/domain/payments/amount-bounds.server";
import { listMerchantGateways, supportsCurrency, type GatewayRow } from "~/domain/payments/gateway-settings.server";
import { now, nowIso } from "~/lib/clock.server";
import { DISPLAY_ZONE } from "~/lib/format";
import { isSupportedCurrency, parseAmount, toDecimalString } from "~/lib/money";
import { money } from "~/lib/outcome";

/** What a restriction set says of one currency, in minor units; null: no limit of that kind. */
export type CurrencyLimits = { min: number | null; max: number | null; daily_cap: number | null };

export type RestrictionRow = {
  id: number;
  merchant_id: number;
  collector_id: number | null;
  currencies: string;
  gateways: string;
  limits: string;
  active_from: string | null;
  active_to: string | null;
  updated_at: string;
};

/**
 * What a collector takes, once the merchant's restrictions (or the collector's own, which replace
 * them whole) are read against the merchant's gateways: the currencies, each with at least one
 * gateway that takes it, the gateways, the amounts, and the days. `scope` says whose payments the
 * daily cap counts: every collector's of the merchant, or this collector's alone.
 */
export type EffectiveRestrictions = {
  restrictionId: number | null;
  scope: "merchant" | "collector";
  currencies: string[];
  defaultCurrency: string;
  gateways: Pick<GatewayRow, "code" | "name_en" | "name_ar" | "logo_url" | "currencies" | "kind">[];
  limits: Record<string, { min: number; max: number; dailyCap: number | null }>;
  activeFrom: string | null;
  activeTo: string | null;
};

const restrictionColumns = [
  "id",
  "merchant_id",
  "collector_id",
  "currencies",
  "gateways",
  "limits",
  "active_from",
  "active_to",
  "updated_at",
] as const;

const splitList = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export function parseLimits(json: string): Record<string, CurrencyLimits> {
  try {
    const parsed = JSON.parse(json) as Record<string, Partial<CurrencyLimits>>;
    const limits: Record<string, CurrencyLimits> = {};
    const amount = (value: unknown) =>
      typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : null;
    for (const [currency, values] of Object.entries(parsed ?? {})) {
      if (!isSupportedCurrency(currency) || !values || typeof values !== "object") continue;
      limits[currency] = { min: amount(values.min), max: amount(values.max), daily_cap: amount(values.daily_cap) };
    }
    return limits;
  } catch {
    return {};
  }
}

/** The merchant's restrictions (`collectorId` null) or a collector's own; undefined when there are none. */
export function findRestrictions(db: DB, merchantId: number, collectorId: number | null) {
  let query = db
    .selectFrom("customer_payment_restrictions")
    .select(restrictionColumns)
    .where("merchant_id", "=", merchantId);
  query =
    collectorId === null ? query.where("collector_id", "is", null) : query.where("collector_id", "=", collectorId);
  return query.orderBy("id").executeTakeFirst() as Promise<RestrictionRow | undefined>;
}

/** The gateways a customer may pay a collector with: the merchant's enabled ones, all but cash on delivery unless the restrictions name them. */
async function allowedGateways(db: DB, merchantId: number, named: string[]) {
  const gateways = await listMerchantGateways(db, merchantId, { enabledOnly: true });
  return named.length
    ? gateways.filter((gateway) => named.includes(gateway.code))
    : gateways.filter((gateway) => gateway.kind !== "cod");
}

/** The restrictions that apply to a collector's payments now: its own, else the merchant's, else none but the platform's cap. */
export async function effectiveRestrictions(
  db: DB,
  collector: { id: number; merchant_id: number },
): Promise<EffectiveRestrictions> {
  const own = await findRestrictions(db, collector.merchant_id, collector.id);
  const row = own ?? (await findRestrictions(db, collector.merchant_id, null));
  const { currency: merchantCurrency } = await loadMerchantDefaults(db, collector.merchant_id);
  const gateways = await allowedGateways(db, collector.merchant_id, row ? splitList(row.gateways) : []);
  const named = row ? splitList(row.currencies) : [];
  const currencies = (named.length ? named : [merchantCurrency]).filter((currency) =>
    gateways.some((gateway) => supportsCurrency(gateway, currency)),
  );
  const stored = row ? parseLimits(row.limits) : {};
  const limits: EffectiveRestrictions["limits"] = {};
  for (const currency of currencies) {
    const set = stored[currency];
    const cap = editableAmountCap(currency);
    limits[currency] = { min: set?.min ?? 1, max: Math.min(set?.max ?? cap, cap), dailyCap: set?.daily_cap ?? null };
  }
  return {
    restrictionId: row?.id ?? null,
    scope: own ? "collector" : "merchant",
    currencies,
    defaultCurrency: currencies.includes(merchantCurrency) ? merchantCurrency : (currencies[0] ?? merchantCurrency),
    gateways: gateways.map(({ code, name_en, name_ar, logo_url, currencies: taken, kind }) => ({
      code,
      name_en,
      name_ar,
      logo_url,
      currencies: taken,
      kind,
    })),
    limits,
    activeFrom: row?.active_from ?? null,
    activeTo: row?.active_to ?? null,
  };
}

/** Today in Kuwait, as the restrictions' dates and the daily cap count days. */
export function kuwaitToday(at: Date = now()): string {
  return DateTime.fromJSDate(at).setZone(DISPLAY_ZONE).toISODate()!;
}

/** Whether the restrictions' days include today (both ends included). */
export function isWithinDates(
  restrictions: Pick<EffectiveRestrictions, "activeFrom" | "activeTo">,
  today = kuwaitToday(),
) {
  return (
    (restrictions.activeFrom === null || restrictions.activeFrom <= today) &&
    (restrictions.activeTo === null || today <= restrictions.activeTo)
  );
}

/** What the restriction page sends: lists of codes, decimal amounts by currency, Kuwait dates. */
export type RestrictionInput = {
  currencies?: unknown;
  gateways?: unknown;
  limits?: unknown;
  active_from?: unknown;
  active_to?: unknown;
};

const asList = (value: unknown) =>
  (Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [])
    .map((item) => String(item).trim())
    .filter(Boolean)
    .slice(0, 40);
const asText = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/**
 * Checks a restriction set against the merchant's gateways: currencies the merchant can take,
 * gateways of its own, amounts in each currency's decimals within the platform's cap, the minimum
 * not above the maximum, a daily cap not below the minimum, dates that are dates with the first
 * not after the last. Field errors name the form's fields (`limits.KWD.min`).
 */
export async function checkRestrictions(db: DB, merchantId: number, input: RestrictionInput) {
  const errors: FieldErrors = {};
  const params: Record<string, ReturnType<typeof money>> = {};
  const gateways = await listMerchantGateways(db, merchantId, { enabledOnly: false });
  const currencies = [...new Set(asList(input.currencies).map((code) => code.toUpperCase()))];
  if (
    currencies.some(
      (code) => !isSupportedCurrency(code) || !gateways.some((gateway) => supportsCurrency(gateway, code)),
    )
  )
    errors.currencies = ["collectors.errors.currency"];
  const codes = [...new Set(asList(input.gateways))];
  if (codes.some((code) => !gateways.some((gateway) => gateway.code === code)))
    errors.gateways = ["collectors.errors.gateway"];
  else if (
    codes.length &&
    currencies.length &&
    currencies.some(
      (currency) => !gateways.some((gateway) => codes.includes(gateway.code) && supportsCurrency(gateway, currency)),
    )
  )
    errors.gateways = ["collectors.errors.gateway_for_currency"];

  const limits: Record<string, CurrencyLimits> = {};
  const given =
    input.limits && typeof input.limits === "object" ? (input.limits as Record<string, Record<string, unknown>>) : {};
  for (const [currency, values] of Object.entries(given)) {
    if (!isSupportedCurrency(currency) || !values || typeof values !== "object") continue;
    const cap = editableAmountCap(currency);
    const read = (field: keyof CurrencyLimits) => {
      const text = asText(values[field]);
      if (!text) return null;
      const parsed = parseAmount(text, currency);
      const key = `limits.${currency}.${field}`;
      if (!parsed.ok) errors[key] = [parsed.error];
      else if (parsed.minor <= 0) errors[key] = ["money.invalid"];
      else if (field !== "daily_cap" && parsed.minor > cap) {
        errors[key] = ["collectors.errors.above_platform_cap"];
        params.cap = money(cap, currency);
      } else return parsed.minor;
      return null;
    };
    const set = { min: read("min"), max: read("max"), daily_cap: read("daily_cap") };
    if (set.min !== null && set.max !== null && set.min > set.max)
      errors[`limits.${currency}.min`] = ["collectors.errors.min_above_max"];
    if (set.daily_cap !== null && set.min !== null && set.daily_cap < set.min)
      errors[`limits.${currency}.daily_cap`] = ["collectors.errors.cap_below_min"];
    if (set.min !== null || set.max !== null || set.daily_cap !== null) limits[currency] = set;
  }

  const date = (field: "active_from" | "active_to") => {
    const text = asText(input[field]);
    if (!text) return null;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !DateTime.fromISO(text).isValid) {
      errors[field] = ["collectors.errors.date"];
      return null;
    }
    return text;
  };
  const activeFrom = date("active_from");
  const activeTo = date("active_to");
  if (activeFrom && activeTo && activeFrom > activeTo) errors.active_to = ["collectors.errors.dates_order"];
  if (Object.keys(errors).length) return { ok: false as const, errors, params };
  return {
    ok: true as const,
    values: {
      currencies: currencies.join(","),
      gateways: codes.join(","),
      limits: JSON.stringify(limits),
      active_from: activeFrom,
      active_to: activeTo,
    },
  };
}

type Actor = { id: number; username: string };

/** Keeps the merchant's restrictions (`collectorId` null) or a collector's own, audited. */
export async function saveRestrictions(
  db: DB,
  change: { merchantId: number; collectorId: number | null; actor: Actor; input: RestrictionInput; ip?: string | null },
) {
  const checked = await checkRestrictions(db, change.merchantId, change.input);
  if (!checked.ok) return checked;
  await writeTransaction(db, async (trx) => {
    // One set per owner: taken under the merchant's lock, so two saves at once cannot make two.
    await lockMerchant(trx, change.merchantId);
    const existing = await findRestrictions(trx, change.merchantId, change.collectorId);
    if (existing)
      await trx
        .updateTable("customer_payment_restrictions")
        .set({ ...checked.values, updated_at: nowIso() })
        .where("id", "=", existing.id)
        .execute();
    else
      await trx
        .insertInto("customer_payment_restrictions")
        .values({
          merchant_id: change.merchantId,
          collector_id: change.collectorId,
          ...checked.values,
          updated_at: nowIso(),
        })
        .execute();
    await recordAudit(trx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: change.collectorId === null ? "payment_restriction_changed" : "collector_restriction_changed",
      params: { collectorId: change.collectorId ?? "" },
      objectType: change.collectorId === null ? "merchant" : "collector",
      objectId: change.collectorId ?? change.merchantId,
      ip: change.ip ?? null,
    });
  });
  return { ok: true as const };
}

/** A collector goes back to the merchant's restrictions. */
export async function removeOwnRestrictions(
  db: DB,
  change: { merchantId: number; collectorId: number; actor: Actor; ip?: string | null },
) {
  await writeTransaction(db, async (trx) => {
    const removed = await trx
      .deleteFrom("customer_payment_restrictions")
      .where("merchant_id", "=", change.merchantId)
      .where("collector_id", "=", change.collectorId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) > 0) {
      await recordAudit(trx, {
        merchantId: change.merchantId,
        actor: change.actor,
        action: "collector_restriction_removed",
        params: { collectorId: change.collectorId },
        objectType: "collector",
        objectId: change.collectorId,
        ip: change.ip ?? null,
      });
    }
  });
}

/** A stored set as its form shows it: decimal amounts by currency. */
export function restrictionFormValues(row: RestrictionRow | undefined) {
  if (!row)
    return {
      currencies: [] as string[],
      gateways: [] as string[],
      limits: {} as Record<string, Record<string, string>>,
      active_from: "",
      active_to: "",
    };
  const limits: Record<string, Record<string, string>> = {};
  for (const [currency, set] of Object.entries(parseLimits(row.limits))) {
    const decimal = (minor: number | null) => (minor === null ? "" : toDecimalString(minor, currency));
    limits[currency] = { min: decimal(set.min), max: decimal(set.max), daily_cap: decimal(set.daily_cap) };
  }
  return {
    currencies: splitList(row.currencies),
    gateways: splitList(row.gateways),
    limits,
    active_from: row.active_from ?? "",
    active_to: row.active_to ?? "",
  };
}
