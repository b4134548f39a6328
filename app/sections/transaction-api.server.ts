/**
 * What the transaction API routes share (dashboard spec §7 generic plugin transactions): the
 * section guard, the list and its configuration, bulk actions, serializing, Idempotency-Key.
 * The API routes of the core (routes/api/v1/plugins) and of the sections call these.
 */
import type { RouterContextProvider } from "react-router";
import type { SessionUser } from "~/domain/identity/users.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import type { SectionDeclaration } from "./contract";
import { findSection, isTransactionSection, TRANSACTION_SECTIONS } from "./registry";
import { sectionFieldNames, transactionExtensions } from "./registry.server";
import { callerOf, respondOnce as respondIdempotently, type StoredResponse } from "~/web/idempotency.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { EXPRESS_SEARCH_LIMIT, findExpressMatches } from "~/domain/transactions/express-search.server";
import { loadTableFields } from "~/domain/transactions/fields.server";
import { FILTER_NAMES, parseListQuery } from "~/domain/transactions/filters";
import { bulkActionsFor, loadFilterChoices, loadPluginUnits } from "~/domain/transactions/list-config.server";
import {
  childOperations,
  findTransactionRow,
  listTransactions,
  type TransactionRow,
} from "~/domain/transactions/list.server";
import { BULK_ACTIONS, runBulkAction, type RowActionName } from "~/domain/payments/transaction-actions.server";
import { loadSerializeContext, presentTableFields, serializeTransaction } from "~/presentation/transactions.server";
import { messageOf } from "~/web/outcomes.server";
import { DISPLAY_STATES } from "~/domain/transactions/display-state";
import { platformAddresses } from "~/web/addresses.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  apiLanguage,
  readBody,
  requireApiPermission,
  requireApiUser,
  userOnPlugin,
} from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import type { Language } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";

type Context = Readonly<RouterContextProvider>;

const MAX_BODY_BYTES = 64 * 1024;

/** The routes under `deleted_transaction` (their pattern says so) serve the deleted rows of a section. */
export function isDeletedRoute(pattern: string) {
  return pattern.includes("/deleted_transaction");
}

/**
 * The signed-in user and the section `plugin` names. A section that is not a transaction section,
 * or that the merchant does not have, answers 404 as if it did not exist.
 */
export async function requireTransactionSection(
  request: Request,
  context: Context,
  plugin: string,
  feature: "transactions" | "deleted_transactions" = "transactions",
) {
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const section = isTransactionSection(plugin) ? findSection(plugin) : undefined;
  const user = section ? userOnPlugin(signedIn, section.key) : null;
  if (!section || !user || !hasFeature(await loadAvailableSections(db, user.merchantId), section.key, feature)) {
    throw apiDetail(request, "api.not_found", 404);
  }
  return { user, db, section, lang: apiLanguage(request) };
}

export function actionBaseUrl(plugin: string, id: string) {
  return `/api/v1/plugins/${plugin}/transaction/actions/${id}`;
}

export function serializeContextFor(db: ReturnType<typeof getDbFrom>, user: SessionUser, lang: Language) {
  return loadSerializeContext(db, {
    merchantId: user.merchantId,
    lang,
    user,
    payUrl: (id) => payUrlOf(linkBaseUrl(), lang, id),
    actionUrl: (row: TransactionRow, action) => `${actionBaseUrl(row.plugin, row.id)}/${action}/`,
    extensionsOf: transactionExtensions,
  });
}

/** One of the section's transactions, live or deleted, of the user's merchant only. */
export async function findSectionRow(
  db: ReturnType<typeof getDbFrom>,
  user: SessionUser,
  section: SectionDeclaration,
  id: string,
) {
  const scope = { merchantId: user.merchantId, plugin: section.key };
  return (
    (await findTransactionRow(db, { ...scope, deleted: false }, id)) ??
    (await findTransactionRow(db, { ...scope, deleted: true }, id))
  );
}

/** The list query's filters (dashboard spec §3 transaction filters); page and per_page are not. */
const FILTER_PARAMS = ["q", ...FILTER_NAMES];
const FLAG_VALUES = ["true", "false", "1", "0"];
const ID_FILTERS = ["initiator", "unit", "bulk"] as const;

/**
 * Values the list query would quietly drop (an unknown state, a non-numeric id, a flag that is
 * neither true nor false). The page may ignore them; an API client would get every row instead
 * of the ones it asked for, so the API refuses them.
 */
function invalidFilterValues(params: URLSearchParams) {
  const errors: Record<string, string[]> = {};
  const values = (name: string) =>
    params
      .getAll(name)
      .flatMap((value) => value.split(","))
      .map((value) => value.trim())
      .filter(Boolean);
  if (values("state").some((state) => !(DISPLAY_STATES as readonly string[]).includes(state)))
    errors.state = ["api.invalid_choice"];
  for (const name of ID_FILTERS) {
    const value = params.get(name)?.trim();
    if (value && !/^[1-9]\d{0,8}$/.test(value)) errors[name] = ["api.invalid_choice"];
  }
  for (const name of ["seen", "email_seen", "disclosed_to_merchant"]) {
    const value = params.get(name)?.trim();
    if (value && !FLAG_VALUES.includes(value)) errors[name] = ["api.invalid_boolean"];
  }
  return errors;
}

/**
 * GET transaction (or deleted_transaction): one page of the section's rows, newest first, with
 * every filter of the list; answers {count, page, page_count, per_page, next, previous, results}.
 * Filtering and search need search_paymenttransaction: without it a filtered call is refused
 * (403) rather than answered with unfiltered rows.
 */
export async function respondWithList(request: Request, context: Context, plugin: string, deleted = false) {
  const { user, db, section, lang } = await requireTransactionSection(
    request,
    context,
    plugin,
    deleted ? "deleted_transactions" : "transactions",
  );
  requireApiPermission(request, user, "view_paymenttransaction");
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params);
  if (FILTER_PARAMS.some((name) => params.get(name)?.trim()))
    requireApiPermission(request, user, "search_paymenttransaction");
  const invalid = invalidFilterValues(params);
  for (const [field, key] of Object.entries(query.errors)) invalid[field] = [key];
  if (Object.keys(invalid).length) return apiErrors(request, invalid);

  const page = await listTransactions(db, { merchantId: user.merchantId, plugin: section.key, deleted }, query);
  const [serializer, operations] = await Promise.all([
    serializeContextFor(db, user, lang),
    childOperations(
      db,
      user.merchantId,
      page.rows.map((row) => row.id),
    ),
  ]);
  return apiJson({
    count: page.count,
    page: page.page,
    page_count: page.pageCount,
    per_page: page.perPage,
    next: page.page < page.pageCount ? page.page + 1 : null,
    previous: page.page > 1 ? page.page - 1 : null,
    results: page.rows.map((row) => serializeTransaction(row, serializer, operations)),
  });
}

/**
 * OPTIONS transaction: the list's configuration (dashboard spec §3 list config) — filter
 * choices, the bulk actions this user may take, the section's columns, the default export
 * fields, whether requests may have an editable amount, and the installed plugins with units.
 */
export async function respondWithListConfig(request: Request, context: Context, plugin: string, deleted = false) {
  const { user, db, section, lang } = await requireTransactionSection(
    request,
    context,
    plugin,
    deleted ? "deleted_transactions" : "transactions",
  );
  requireApiPermission(request, user, "view_paymenttransaction");
  const t = translator(lang);
  const [choices, fields, plugins] = await Promise.all([
    loadFilterChoices(db, {
      merchantId: user.merchantId,
      plugin: section.key,
      lang,
      offersBulkFilter: section.transactions?.filters?.includes("bulk") ?? false,
    }),
    loadTableFields(db, user.merchantId, section.key, sectionFieldNames(section.key)).then((loaded) =>
      presentTableFields(loaded, transactionExtensions(section.key)),
    ),
    loadPluginUnits(
      db,
      user.merchantId,
      lang,
      TRANSACTION_SECTIONS.map((candidate) => candidate.key),
    ),
  ]);
  const filters = {
    ...choices,
    states: choices.states.map((state) => ({ value: state, display_name: t(`states.${state}`) })),
  };
  const listPath = `/api/v1/plugins/${section.key}/transaction`;
  return apiJson({
    filters_data: filters,
    actions: bulkActionsFor(user, deleted).map((action) => ({
      value: action,
      display_name: t(`actions.${action}`),
      method: action === "delete" ? "DELETE" : "POST",
      url: action === "delete" ? listPath : `${listPath}/actions/bulk/${action}/`,
    })),
    fields,
    export: { default: fields.filter((field) => field.is_active).map((field) => field.name) },
    enable_editable_amount: section.transactions?.editableAmount ?? false,
    plugins,
  });
}

/** The `ids` of a bulk call: a list of transaction ids, or one comma-joined string. */
export function idsOf(body: Record<string, unknown>): string[] {
  const raw = body.ids;
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : [];
  return list
    .filter((id): id is string => typeof id === "string" && id.trim() !== "" && id.length <= 64)
    .map((id) => id.trim());
}

/**
 * One action on many of the section's rows ({ids}): 200 when all succeed, 207 with per-id results
 * when some do, 400 when none; 403 when the user may not take this action at all.
 */
export async function respondWithBulkAction(request: Request, context: Context, plugin: string, action: string) {
  const deleted = action === "restore";
  const { user, db, section, lang } = await requireTransactionSection(
    request,
    context,
    plugin,
    deleted ? "deleted_transactions" : "transactions",
  );
  if (!BULK_ACTIONS.includes(action as RowActionName)) return apiDetail(request, "api.not_found", 404);
  if (!bulkActionsFor(user, deleted).includes(action as RowActionName))
    return apiDetail(request, "api.permission_denied", 403);
  const body = await readBody(request);
  const ids = idsOf(body);
  if (ids.length === 0) return apiErrors(request, { ids: ["actions.bulk_none_selected"] });
  return respondOnce(request, db, user, `transaction.bulk.${section.key}.${action}`, { ids }, async () => {
    const bulk = await runBulkAction(db, {
      merchantId: user.merchantId,
      user,
      action,
      ids,
      lang,
      baseUrl: linkBaseUrl(),
      addresses: platformAddresses(request),
      plugin: section.key,
    });
    const results = bulk.results.map(({ id, outcome }) => ({ id, ok: outcome.ok, message: messageOf(outcome, lang) }));
    const status = bulk.outcome === "all" ? 200 : bulk.outcome === "some" ? 207 : 400;
    return { status, body: { message: messageOf({ code: bulk.code }, lang), results } };
  });
}

/** Runs a mutation once per Idempotency-Key (web/idempotency.server.ts). */
export async function respondOnce(
  request: Request,
  db: ReturnType<typeof getDbFrom>,
  user: SessionUser,
  scope: string,
  body: unknown,
  work: () => Promise<StoredResponse>,
) {
  return respondIdempotently(request, { db, merchantId: user.merchantId, caller: callerOf(user), scope, body }, work);
}

/** A JSON body that may be a list (PATCH fields) or an object, at most 64 KB. */
export async function readJsonBody(request: Request): Promise<unknown> {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES)
    throw apiDetail(request, "errors.too_large", 413);
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw apiDetail(request, "errors.too_large", 413);
  try {
    return JSON.parse(text);
  } catch {
    throw apiDetail(request, "api.invalid_body", 400);
  }
}

/**
 * GET search/express?q=: the express search of the dashboard (id, order number, gateway reference,
 * phone, or the start of an e-mail) across every section, as list rows: the newest
 * EXPRESS_SEARCH_LIMIT matches in `results` and how many there are in `count`. OPTIONS: its parameter.
 */
export async function respondWithExpressSearch(request: Request, context: Context) {
  const { user } = await requireApiUser(request, context);
  const db = getDbFrom(context);
  if (!hasFeature(await loadAvailableSections(db, user.merchantId), "express_search"))
    throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, "view_paymenttransaction");
  requireApiPermission(request, user, "search_paymenttransaction");
  const lang = apiLanguage(request);
  if (request.method === "OPTIONS") {
    const t = translator(lang);
    return apiJson({
      name: t("express_search.title"),
      description: t("express_search.description"),
      actions: { GET: { q: { type: "string", required: true, max_length: 100, label: t("express_search.label") } } },
      limit: EXPRESS_SEARCH_LIMIT,
    });
  }
  const q = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  if (!q) return apiErrors(request, { q: ["errors.required"] });
  if (q.length > 100) return apiErrors(request, { q: ["errors.too_long"] });
  const page = await findExpressMatches(db, user.merchantId, q);
  const [serializer, operations] = await Promise.all([
    serializeContextFor(db, user, lang),
    childOperations(
      db,
      user.merchantId,
      page.rows.map((row) => row.id),
    ),
  ]);
  return apiJson({
    count: page.count,
    results: page.rows.map((row) => serializeTransaction(row, serializer, operations)),
  });
}
