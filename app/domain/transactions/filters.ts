import { DateTime } from "luxon";
import { DISPLAY_STATES } from "./display-state";

/**
 * The list filters of dashboard spec §3, read from a query string. The page's GET form and the
 * API use the same names, so a link reproduces a view and the API answers the same rows.
 */
export type TransactionFilters = {
  q?: string;
  state?: string[];
  gateway_code?: string[];
  currency_code?: string[];
  initiator?: number;
  unit?: number;
  seen?: boolean;
  email_seen?: boolean;
  disclosed_to_merchant?: boolean;
  product_type?: string;
  bulk?: number;
  /** Inclusive bounds as UTC ISO instants. */
  created_after?: string;
  created_before?: string;
  state_changed_at_after?: string;
  state_changed_at_before?: string;
};

/** The filters' names in a query string, besides the search box's q; the page's form and the API read the same. */
export const FILTER_NAMES = [
  "created_after",
  "created_before",
  "state_changed_at_after",
  "state_changed_at_before",
  "state",
  "gateway_code",
  "currency_code",
  "initiator",
  "unit",
  "seen",
  "email_seen",
  "disclosed_to_merchant",
  "product_type",
  "bulk",
] as const satisfies readonly Exclude<keyof TransactionFilters, "q">[];

export const PAGE_SIZES = [10, 50, 100] as const;
/** "all" shows every row only while there are at most this many. */
export const ALL_ROWS_LIMIT = 1000;

export type ListQuery = {
  filters: TransactionFilters;
  page: number;
  perPage: number | "all";
  /** Translation keys of filter errors by field; the offending filter is not applied. */
  errors: Record<string, string>;
  /** The raw values, for refilling the form. */
  raw: Record<string, string | string[]>;
};

const ZONE = "Asia/Kuwait";
const DATE_FIELDS = [
  ["created_after", "created_before"],
  ["state_changed_at_after", "state_changed_at_before"],
] as const;

/** A date (YYYY-MM-DD, Kuwait day) or an ISO instant; `end` makes a bare date mean the end of that day. */
function parseBound(value: string, end: boolean): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = DateTime.fromISO(value, { zone: ZONE });
    if (!day.isValid) return null;
    return (end ? day.endOf("day") : day.startOf("day")).toUTC().toISO();
  }
  const instant = DateTime.fromISO(value, { setZone: true });
  return instant.isValid ? instant.toUTC().toISO() : null;
}

function flag(value: string | null): boolean | undefined {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  return undefined;
}

function positiveInt(value: string | null): number | undefined {
  if (!value || !/^\d{1,9}$/.test(value)) return undefined;
  const number = Number(value);
  return number > 0 ? number : undefined;
}

/** Several values of one filter: repeated parameters or a comma-joined one. */
function many(params: URLSearchParams, name: string, allowed?: readonly string[]) {
  const values = params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value && value.length <= 64 && (!allowed || allowed.includes(value)));
  return values.length ? [...new Set(values)] : undefined;
}

export function parseListQuery(params: URLSearchParams): ListQuery {
  const filters: TransactionFilters = {};
  const errors: Record<string, string> = {};
  const raw: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const existing = raw[key];
    raw[key] = existing === undefined ? value : ([] as string[]).concat(existing, value);
  }

  const q = params.get("q")?.trim();
  if (q) filters.q = q.slice(0, 100);
  filters.state = many(params, "state", DISPLAY_STATES);
  filters.gateway_code = many(params, "gateway_code");
  filters.currency_code = many(params, "currency_code")?.map((code) => code.toUpperCase());
  filters.initiator = positiveInt(params.get("initiator"));
  filters.unit = positiveInt(params.get("unit"));
  filters.bulk = positiveInt(params.get("bulk"));
  filters.seen = flag(params.get("seen"));
  filters.email_seen = flag(params.get("email_seen"));
  filters.disclosed_to_merchant = flag(params.get("disclosed_to_merchant"));
  const productType = params.get("product_type")?.trim();
  if (productType) filters.product_type = productType.slice(0, 64);

  for (const [afterName, beforeName] of DATE_FIELDS) {
    const afterRaw = params.get(afterName)?.trim();
    const beforeRaw = params.get(beforeName)?.trim();
    const after = afterRaw ? parseBound(afterRaw, false) : undefined;
    const before = beforeRaw ? parseBound(beforeRaw, true) : undefined;
    if (after === null) errors[afterName] = "transactions.errors.bad_date";
    if (before === null) errors[beforeName] = "transactions.errors.bad_date";
    if (after && before && before < after) {
      errors[beforeName] = "transactions.errors.to_before_from";
      continue;
    }
    if (after) filters[afterName] = after;
    if (before) filters[beforeName] = before;
  }
  for (const key of Object.keys(filters) as (keyof TransactionFilters)[]) {
    if (filters[key] === undefined) delete filters[key];
  }

  const page = positiveInt(params.get("page")) ?? 1;
  const perPageRaw = params.get("per_page");
  const perPage =
    perPageRaw === "all"
      ? "all"
      : (PAGE_SIZES as readonly number[]).includes(Number(perPageRaw))
        ? Number(perPageRaw)
        : PAGE_SIZES[0];
  return { filters, page, perPage, errors, raw };
}

/** The same view with some parameters changed (page, per_page…); empty values drop out. */
export function withParams(search: string, changes: Record<string, string | number | null>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Whether any filter (not page or page size) is set. */
export function hasFilters(filters: TransactionFilters) {
  return Object.keys(filters).length > 0;
}
