import { DateTime } from "luxon";
import type { RequestState } from "~/db/schema";

/**
 * The filters of the two approval lists (Operations Requests and Permissions Requests), read from
 * a query string. The pages' GET forms and the API use the same names, so a link reproduces a view.
 */
export const REQUEST_STATES: readonly RequestState[] = ["pending", "approved", "rejected", "canceled", "expired"];
export const REQUEST_PAGE_SIZES = [10, 50, 100] as const;

export type RequestFilters = {
  state?: RequestState[];
  /** refund | capture | void for operations; the permission for permission requests. */
  type?: string[];
  gateway_code?: string[];
  currency_code?: string[];
  /** Inclusive bounds as UTC ISO instants (Kuwait days). */
  created_after?: string;
  created_before?: string;
};

export type RequestListQuery = {
  filters: RequestFilters;
  page: number;
  perPage: number;
  /** Translation keys of filter errors by field; the offending filter is not applied. */
  errors: Record<string, string>;
  /** The raw values, for refilling the form. */
  raw: Record<string, string>;
};

const ZONE = "Asia/Kuwait";

/** A Kuwait day (YYYY-MM-DD) or an ISO instant; `end` makes a bare day mean the end of that day. */
function parseBound(value: string, end: boolean): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = DateTime.fromISO(value, { zone: ZONE });
    if (!day.isValid) return null;
    return (end ? day.endOf("day") : day.startOf("day")).toUTC().toISO();
  }
  const instant = DateTime.fromISO(value, { setZone: true });
  return instant.isValid ? instant.toUTC().toISO() : null;
}

function many(params: URLSearchParams, name: string, allowed?: readonly string[]) {
  const values = params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value && value.length <= 64 && (!allowed || allowed.includes(value)));
  return values.length ? [...new Set(values)] : undefined;
}

function positiveInt(value: string | null): number | undefined {
  if (!value || !/^\d{1,9}$/.test(value)) return undefined;
  const number = Number(value);
  return number > 0 ? number : undefined;
}

/** `types`: the values the type filter accepts. `status=NEW` (the spec's name for pending) is read as state=pending. */
export function parseRequestQuery(params: URLSearchParams, types: readonly string[]): RequestListQuery {
  const filters: RequestFilters = {};
  const errors: Record<string, string> = {};
  const raw: Record<string, string> = {};
  for (const [key, value] of params) if (!(key in raw)) raw[key] = value;

  const states = many(params, "state", REQUEST_STATES) as RequestState[] | undefined;
  const status = many(params, "status")
    ?.map((value) => (value.toUpperCase() === "NEW" ? "pending" : value.toLowerCase()))
    .filter((value): value is RequestState => (REQUEST_STATES as readonly string[]).includes(value));
  const allStates = [...new Set([...(states ?? []), ...(status ?? [])])];
  if (allStates.length) filters.state = allStates;
  filters.type = many(params, "type", types);
  filters.gateway_code = many(params, "gateway_code");
  filters.currency_code = many(params, "currency_code")?.map((code) => code.toUpperCase());

  const afterRaw = params.get("created_after")?.trim();
  const beforeRaw = params.get("created_before")?.trim();
  const after = afterRaw ? parseBound(afterRaw, false) : undefined;
  const before = beforeRaw ? parseBound(beforeRaw, true) : undefined;
  if (after === null) errors.created_after = "tickets.errors.bad_date";
  if (before === null) errors.created_before = "tickets.errors.bad_date";
  if (after && before && before < after) {
    errors.created_before = "tickets.errors.to_before_from";
  } else {
    if (after) filters.created_after = after;
    if (before) filters.created_before = before;
  }
  for (const key of Object.keys(filters) as (keyof RequestFilters)[]) {
    if (filters[key] === undefined) delete filters[key];
  }

  const page = positiveInt(params.get("page")) ?? 1;
  const perPageRaw = Number(params.get("per_page"));
  const perPage = (REQUEST_PAGE_SIZES as readonly number[]).includes(perPageRaw) ? perPageRaw : REQUEST_PAGE_SIZES[0];
  return { filters, page: Math.min(page, 100_000), perPage, errors, raw };
}
