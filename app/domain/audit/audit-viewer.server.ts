import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import { DISPLAY_ZONE } from "~/lib/format";

/**
 * The audit log as a merchant's administrator reads it: the merchant's own entries only, newest
 * first, narrowed by who acted, what they did and on which days (Kuwait days).
 */

export const AUDIT_PAGE_SIZE = 50;
const EXPORT_BATCH_SIZE = 500;
/** Far enough for any real log; beyond it an offset would read more rows than anyone pages through. */
const MAX_PAGE = 100_000;

/** The filters' names in a query string: the page's GET form, its CSV link and the API read the same. */
export const AUDIT_FILTER_NAMES = ["user", "action", "created_after", "created_before"] as const;
type FilterName = (typeof AUDIT_FILTER_NAMES)[number];

export type AuditFilters = {
  actorUserId?: number;
  action?: string;
  /** Inclusive bounds as UTC ISO instants: the start of the first day, the end of the last. */
  createdAfter?: string;
  createdBefore?: string;
};

export type AuditQuery = {
  filters: AuditFilters;
  page: number;
  /** Translation keys of the values refused, by parameter; a refused filter is not applied. */
  errors: Partial<Record<FilterName | "page", string>>;
  /** The filters as given, for refilling the form. */
  raw: Partial<Record<FilterName, string>>;
};

const ACTION_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** A Kuwait day (YYYY-MM-DD) as the UTC instant it starts or, with `end`, ends at. */
function dayBound(value: string, end: boolean): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = DateTime.fromISO(value, { zone: DISPLAY_ZONE });
  if (!day.isValid) return null;
  return (end ? day.endOf("day") : day.startOf("day")).toUTC().toISO();
}

/**
 * Reads the filters and the page from a query string. A user must be one of the merchant's own: an
 * id of another merchant's user is refused like an id that does not exist. An action is any code
 * (older entries keep codes the platform no longer writes); a code nobody used matches nothing.
 */
export async function readAuditQuery(db: DB, merchantId: number, params: URLSearchParams): Promise<AuditQuery> {
  const filters: AuditFilters = {};
  const errors: AuditQuery["errors"] = {};
  const raw: AuditQuery["raw"] = {};
  for (const name of AUDIT_FILTER_NAMES) {
    const value = params.get(name)?.trim();
    if (value) raw[name] = value.slice(0, 100);
  }

  if (raw.user !== undefined) {
    const id = /^[1-9]\d{0,8}$/.test(raw.user) ? Number(raw.user) : null;
    const found =
      id === null
        ? undefined
        : await db
            .selectFrom("users")
            .select("id")
            .where("id", "=", id)
            .where("merchant_id", "=", merchantId)
            .executeTakeFirst();
    if (found) filters.actorUserId = found.id;
    else errors.user = "admin.audit.errors.user";
  }
  if (raw.action !== undefined) {
    if (ACTION_CODE.test(raw.action)) filters.action = raw.action;
    else errors.action = "admin.audit.errors.action";
  }
  const after = raw.created_after === undefined ? undefined : dayBound(raw.created_after, false);
  const before = raw.created_before === undefined ? undefined : dayBound(raw.created_before, true);
  if (after === null) errors.created_after = "admin.audit.errors.date";
  if (before === null) errors.created_before = "admin.audit.errors.date";
  if (after && before && before < after) errors.created_before = "admin.audit.errors.date_order";
  else {
    if (after) filters.createdAfter = after;
    if (before) filters.createdBefore = before;
  }

  const pageText = params.get("page")?.trim();
  let page = 1;
  if (pageText) {
    if (/^[1-9]\d{0,8}$/.test(pageText)) page = Math.min(MAX_PAGE, Number(pageText));
    else errors.page = "admin.audit.errors.page";
  }
  return { filters, page, errors, raw };
}

/** The query string of the filters that were applied (refused ones left out): a link to the same entries. */
export function auditFilterSearch(query: AuditQuery): string {
  const { filters, raw } = query;
  const applied: Record<FilterName, boolean> = {
    user: filters.actorUserId !== undefined,
    action: filters.action !== undefined,
    created_after: filters.createdAfter !== undefined,
    created_before: filters.createdBefore !== undefined,
  };
  const params = new URLSearchParams();
  for (const name of AUDIT_FILTER_NAMES) if (applied[name] && raw[name] !== undefined) params.set(name, raw[name]);
  const text = params.toString();
  return text ? `?${text}` : "";
}

const ENTRY_COLUMNS = [
  "id",
  "actor_user_id",
  "actor_name",
  "action",
  "params",
  "description",
  "ip",
  "created_at",
] as const;

function filtered(db: DB, merchantId: number, filters: AuditFilters) {
  let query = db.selectFrom("audit_log").where("merchant_id", "=", merchantId);
  if (filters.actorUserId !== undefined) query = query.where("actor_user_id", "=", filters.actorUserId);
  if (filters.action !== undefined) query = query.where("action", "=", filters.action);
  if (filters.createdAfter !== undefined) query = query.where("created_at", ">=", filters.createdAfter);
  if (filters.createdBefore !== undefined) query = query.where("created_at", "<=", filters.createdBefore);
  return query;
}

/** One page of entries, newest first, with how many match in all; a page past the end is the last page. */
export async function listAuditPage(db: DB, merchantId: number, filters: AuditFilters, page: number) {
  const { count } = await filtered(db, merchantId, filters)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const current = Math.min(page, pageCount);
  const rows =
    total === 0
      ? []
      : await filtered(db, merchantId, filters)
          .select(ENTRY_COLUMNS)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(AUDIT_PAGE_SIZE)
          .offset((current - 1) * AUDIT_PAGE_SIZE)
          .execute();
  return { rows, count: total, page: current, pageCount };
}

export type AuditViewerRow = Awaited<ReturnType<typeof listAuditPage>>["rows"][number];

/**
 * Every matching entry, newest first, batch by batch: each batch starts after the last one's final
 * entry, so memory stays flat however long the log is and entries written meanwhile are not repeated.
 */
export async function* iterateAuditEntries(
  db: DB,
  merchantId: number,
  filters: AuditFilters,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<AuditViewerRow[]> {
  let last: { created_at: string; id: number } | null = null;
  for (;;) {
    let query = filtered(db, merchantId, filters).select(ENTRY_COLUMNS);
    if (last) {
      const { created_at, id } = last;
      // A row-value comparison: both engines read it as one range of the (merchant, time) index.
      query = query.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(created_at, id)));
    }
    const batch = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(batchSize).execute();
    if (batch.length) yield batch;
    if (batch.length < batchSize) return;
    last = batch[batch.length - 1];
  }
}

/** The merchant's users who appear in its log as actors, and the one filtered by in any case, for the user filter, by username. */
export function listAuditActors(db: DB, merchantId: number, selected?: number) {
  return db
    .selectFrom("users")
    .select(["users.id", "users.username"])
    .where("users.merchant_id", "=", merchantId)
    .where((eb) => {
      const acted = eb.exists(
        eb
          .selectFrom("audit_log")
          .select("audit_log.id")
          .whereRef("audit_log.actor_user_id", "=", "users.id")
          .where("audit_log.merchant_id", "=", merchantId),
      );
      return selected === undefined ? acted : eb.or([acted, eb("users.id", "=", selected)]);
    })
    .orderBy("users.username")
    .execute();
}
