import { data, redirect } from "react-router";
import { can } from "~/domain/identity/permissions";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { actionContextOf, runBulkAction, runRowAction, rowActions } from "~/domain/payments/transaction-actions.server";
import { loadTableFields } from "~/domain/transactions/fields.server";
import { DISPLAY_STATES, displayStateOf, STATUS_TABS } from "~/domain/transactions/display-state";
import { parseListQuery, withParams } from "~/domain/transactions/filters";
import { bulkActionsFor } from "~/domain/transactions/list-config.server";
import { childOperations, countLimitFor, listTransactions } from "~/domain/transactions/list.server";
import { listStatistics } from "~/domain/transactions/totals.server";
import { formatCount, formatListDateTime } from "~/lib/format";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import { exportConfig } from "~/presentation/report-files.server";
import { cellValue, describeRowAction, operationMessage, presentTableFields } from "~/presentation/transactions.server";
import { sectionFieldNames, transactionExtensions } from "~/sections/registry.server";
import { platformAddresses } from "~/web/addresses.server";
import { flashCookie } from "~/web/flash.server";
import { doneStatusOf, messageOf, statusOf } from "~/web/outcomes.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { headerPermissionOf, requireListPlace, scopeOf } from "./context.server";
import { operationDialogAction, operationDialogOf } from "./details/operation-dialog.server";
import { readFormData } from "~/web/form-data.server";

const OPERATIONS = ["refund", "capture", "void"] as const;
type OperationName = (typeof OPERATIONS)[number];
const isOperation = (value: unknown): value is OperationName => OPERATIONS.includes(value as OperationName);

/** Minor units per currency as the page shows them. */
function moneyList(values: { currency_code: string; value: number }[], lang: "en" | "ar") {
  return values.map((entry) => ({
    currency: entry.currency_code,
    text: formatAmount(entry.value, entry.currency_code, lang),
  }));
}

type Args = Parameters<typeof requireListPlace>[0];

export async function loadList(args: Args) {
  const { context, request } = args;
  const { auth, place } = await requireListPlace(args);
  const db = getDbFrom(context);
  const url = new URL(request.url);
  const lang = place.lang;
  const canSearch = can(auth.user, "search_paymenttransaction");
  // Without the search right the list is the plain newest-first list: filters in a link are ignored.
  const query = parseListQuery(
    canSearch ? url.searchParams : new URLSearchParams(pick(url.searchParams, ["page", "per_page"])),
  );
  const scope = scopeOf(auth, place);
  const extensions = place.section ? transactionExtensions(place.section.key) : undefined;
  const [fields, gateways, actionContext, page, statistics] = await Promise.all([
    loadTableFields(
      db,
      auth.user.merchantId,
      place.sectionKey,
      place.section ? sectionFieldNames(place.section.key) : [],
    ).then((loaded) => presentTableFields(loaded, extensions)),
    listMerchantGateways(db, auth.user.merchantId),
    actionContextOf(db, auth.user.merchantId),
    listTransactions(db, scope, query, { countLimit: countLimitFor(query.filters) }),
    can(auth.user, "view_paymenttransaction_statistics") && !place.deleted
      ? listStatistics(db, auth.user.merchantId, place.section?.key)
      : null,
  ]);
  const gatewayNames = new Map(gateways.map((gateway) => [gateway.code, gateway]));
  const columns = fields
    .filter((field) => field.is_active)
    .map((field) => ({ name: field.name, label: lang === "ar" ? field.label_ar : field.label_en }));
  const children = await childOperations(
    db,
    auth.user.merchantId,
    page.rows.map((row) => row.id),
  );
  const t = translator(lang);
  const rows = page.rows.map((row) => ({
    id: row.id,
    orderNo: row.order_no,
    state: displayStateOf(row),
    plugin: row.plugin,
    paidLate: row.paid_late,
    cells: Object.fromEntries(
      columns.map((column) => [
        column.name,
        cellValue(row, column.name, lang, gatewayNames, transactionExtensions(row.plugin)),
      ]),
    ),
    actions: rowActions(row, auth.user, actionContext).map((action) => describeRowAction(action, row, lang, "")),
    children: children
      .filter((child) => child.transaction_id === row.id)
      .map((child) => ({
        id: child.id,
        kind: child.kind,
        state: child.state,
        amount: formatAmount(child.amount, child.currency_code, lang),
        created: formatListDateTime(child.created_at, lang),
        by: child.requested_by ?? "",
        message: operationMessage(child.message, lang),
      })),
  }));

  const operation = url.searchParams.get("operation");
  const operationId = url.searchParams.get("id");
  // The same refund, capture or void dialog as the details page: the confirmation and the reason too.
  const dialog =
    isOperation(operation) && operationId
      ? await operationDialogOf(db, {
          merchantId: auth.user.merchantId,
          actor: auth.user,
          transactionId: operationId,
          kind: operation,
          lang,
        })
      : null;

  const users = canSearch
    ? await db
        .selectFrom("users")
        .select(["id", "username"])
        .where("merchant_id", "=", auth.user.merchantId)
        .orderBy("username")
        .execute()
    : [];
  const units = canSearch
    ? await db
        .selectFrom("units")
        .select(["id", "title_en", "title_ar"])
        .where("merchant_id", "=", auth.user.merchantId)
        .orderBy("id")
        .execute()
    : [];
  const headerPermission = headerPermissionOf(place);
  const canExport = can(auth.user, "view_export_settings") && !place.deleted;
  const done = url.searchParams.get("done");
  // A row action other than an operation asks first (dashboard spec §2: the confirm dialog).
  const confirmAction = url.searchParams.get("confirm");
  const confirmRow =
    confirmAction && !isOperation(confirmAction) ? rows.find((row) => row.id === operationId) : undefined;
  const confirm =
    confirmRow && confirmRow.actions.some((action) => action.value === confirmAction)
      ? {
          action: confirmAction!,
          id: confirmRow.id,
          orderNo: confirmRow.orderNo,
          message: t(
            confirmAction === "email" || confirmAction === "sms"
              ? `actions.confirm.${confirmAction}`
              : `transactions.confirm.${confirmAction}`,
          ),
        }
      : null;
  return {
    place: {
      sectionKey: place.sectionKey,
      sectionPath: place.section?.path ?? null,
      deleted: place.deleted,
      basePath: place.basePath,
    },
    titleKey: place.section
      ? `features.${place.section.key}.${place.deleted ? "deleted_transactions" : "transactions"}`
      : "shell.all_transactions",
    canSearch,
    canEditHeaders: Boolean(headerPermission && can(auth.user, headerPermission)),
    exportConfig: canExport ? await exportConfig(db, auth.user.merchantId, place.sectionKey, lang, extensions) : null,
    statistics: statistics && {
      generated: moneyList(statistics.generated, lang),
      received: moneyList(statistics.received, lang),
      balance: moneyList(statistics.balance, lang),
    },
    raw: query.raw,
    errors: query.errors,
    choices: {
      states: DISPLAY_STATES.map((state) => ({ value: state, label: t(`states.${state}`) })),
      gateways: gateways.map((gateway) => ({
        value: gateway.code,
        label: lang === "ar" ? gateway.name_ar : gateway.name_en,
      })),
      currencies: [...new Set(gateways.flatMap((gateway) => gateway.currencies.split(",")))].sort(),
      users: users.map((user) => ({ value: String(user.id), label: user.username })),
      units: units.map((unit) => ({ value: String(unit.id), label: lang === "ar" ? unit.title_ar : unit.title_en })),
    },
    // The status tabs of a live list: each a link setting the state filter, the current one marked.
    tabs: canSearch && !place.deleted ? statusTabs(url.search, query.filters.state) : [],
    columns,
    rows,
    // Only the bulk actions this user may take; none, and the rows are not selectable.
    bulkActions: bulkActionsFor(auth.user, place.deleted),
    pagination: {
      count: page.count,
      countText: page.countCapped
        ? t("transactions.count_more", { total: formatCount(countLimitFor(query.filters), lang) })
        : t("transactions.count", { total: formatCount(page.count, lang) }),
      page: page.page,
      pageCount: page.pageCount,
      perPage: page.perPage,
    },
    dialog,
    done: isOperation(done) || done === "requested" || done === "checking" ? done : null,
    confirm,
  };
}

/** Each status tab's link (the same view with its states and from the first page) and whether it is the view shown. */
function statusTabs(search: string, chosen: string[] | undefined) {
  const current = new Set(chosen ?? []);
  return STATUS_TABS.map((tab) => ({
    key: tab.key,
    search:
      withParams(search, {
        state: tab.states.join(",") || null,
        page: null,
        operation: null,
        confirm: null,
        id: null,
        done: null,
      }) || "?",
    current: tab.states.length === current.size && tab.states.every((state) => current.has(state)),
  }));
}

function pick(params: URLSearchParams, names: string[]) {
  return [...params].filter(([name]) => names.includes(name));
}

export type ListNotice = {
  color: "green" | "orange" | "red";
  message: string;
  results?: { id: string; ok: boolean; message: string }[];
};

/** The list's forms: a bulk action on the selected rows, one row's action, or the refund/capture/void dialog's two steps. */
export async function listAction(args: Args, given?: FormData) {
  const { context, request } = args;
  const { auth, place } = await requireListPlace(args);
  const db = getDbFrom(context);
  const lang = place.lang;
  const t = translator(lang);
  const form = given ?? (await readFormData(request));
  const command = form.get("row_command");
  // One row's action button sits in the list's form: its value names the action and the row.
  const intent = typeof command === "string" && command.includes(":") ? "row" : String(form.get("intent") ?? "");
  const url = new URL(request.url);
  const common = {
    merchantId: auth.user.merchantId,
    user: auth.user,
    lang,
    baseUrl: linkBaseUrl(),
    addresses: platformAddresses(request),
    plugin: place.section?.key,
  };

  if (intent === "bulk") {
    const ids = form.getAll("ids").map(String).filter(Boolean);
    const action = String(form.get("bulk_action") ?? "");
    if (ids.length === 0)
      return data<ListNotice>({ color: "red", message: t("actions.bulk_none_selected") }, { status: 400 });
    const bulk = await runBulkAction(db, { ...common, action, ids });
    const color = bulk.outcome === "all" ? "green" : bulk.outcome === "some" ? "orange" : "red";
    const status = bulk.outcome === "all" ? 200 : bulk.outcome === "some" ? 207 : 400;
    const results = bulk.results.map(({ id, outcome }) => ({ id, ok: outcome.ok, message: messageOf(outcome, lang) }));
    return data<ListNotice>({ color, message: messageOf({ code: bulk.code }, lang), results }, { status });
  }

  if (intent === "row") {
    const [rowAction, id] = String(command ?? `${form.get("row_action") ?? ""}:${form.get("id") ?? ""}`).split(":");
    const outcome = await runRowAction(db, { ...common, transactionId: id ?? "", action: rowAction ?? "" });
    // Deleted or restored from its details page, the row has left this list: back to the list.
    if (outcome.ok && (rowAction === "delete" || rowAction === "restore") && url.pathname !== place.basePath) {
      throw redirect(place.basePath, {
        headers: { "Set-Cookie": flashCookie({ kind: "success", message: `actions.done.${rowAction}` }) },
      });
    }
    return data<ListNotice>(
      { color: outcome.ok ? "green" : "red", message: messageOf(outcome, lang) },
      { status: outcome.ok ? doneStatusOf(outcome) : statusOf(outcome) },
    );
  }

  if (intent === "operation") {
    return operationDialogAction(db, {
      form,
      url,
      actor: auth.user,
      merchantId: auth.user.merchantId,
      lang,
      baseUrl: common.baseUrl,
      addresses: common.addresses,
      plugin: common.plugin,
    });
  }
  return data<ListNotice>({ color: "red", message: t("actions.not_available") }, { status: 400 });
}
