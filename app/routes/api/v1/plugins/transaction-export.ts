import type { Route } from "./+types/transaction-export";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { ALL_SECTIONS, canExport, openReportDownload, requestExport } from "~/domain/reporting/exports.server";
import { exportConfig } from "~/presentation/report-files.server";
import { isTransactionSection } from "~/sections/registry";
import { sectionFieldNames, transactionExtensions } from "~/sections/registry.server";
import { apiDetail, apiErrors, apiJson, apiLanguage, methodNotAllowed, requireApiUser } from "~/web/api.server";
import { fileResponse } from "~/web/file-response.server";
import { isLanguage } from "~/lib/i18n";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

type Args = Route.LoaderArgs;

/** What the export reads besides the list filters; the rest of the query string is the filters. */
const EXPORT_PARAMS = ["file_format", "export_type", "language", "fields", "auth_token", "id"];

/**
 * The bearer access token, from the Authorization header or, for a link a browser opens in a new
 * window (dashboard spec §7), from the auth_token query parameter.
 */
async function exportUser({ request, context }: Args) {
  const token = new URL(request.url).searchParams.get("auth_token");
  if (!token || request.headers.has("Authorization")) return (await requireApiUser(request, context)).user;
  const headers = new Headers(request.headers);
  headers.set("Authorization", `Bearer ${token}`);
  return (await requireApiUser(new Request(request.url, { headers }), context)).user;
}

/**
 * OPTIONS: the export config. GET with the list filters, file_format, export_type, language and
 * fields: asks for an export, 201 {id}. GET with id: the finished file, or 202 with the progress
 * while it is being made (docs/decisions/0006-exports.md).
 */
export async function loader(args: Args) {
  const { request, context, params } = args;
  const user = await exportUser(args);
  if (request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS")
    return methodNotAllowed(request);
  const db = getDbFrom(context);
  const section = params.plugin;
  if (section !== ALL_SECTIONS && !isTransactionSection(section)) return apiDetail(request, "api.not_found", 404);
  if (
    section !== ALL_SECTIONS &&
    !hasFeature(await loadAvailableSections(db, user.merchantId), section, "transactions")
  ) {
    return apiDetail(request, "api.not_found", 404);
  }
  if (!canExport(user)) return apiDetail(request, "api.permission_denied", 403);
  const url = new URL(request.url);
  const lang = isLanguage(url.searchParams.get("language"))
    ? (url.searchParams.get("language") as "en" | "ar")
    : apiLanguage(request);

  if (request.method === "OPTIONS") {
    const config = await exportConfig(db, user.merchantId, section, lang, transactionExtensions(section));
    const plain = (fields: typeof config.builtin_fields) =>
      fields.map(({ name, label_en, label_ar }) => ({ name, label_en, label_ar }));
    return apiJson({
      builtin_fields: plain(config.builtin_fields),
      custom_fields: plain(config.custom_fields),
      other_fields: plain(config.other_fields),
      default: config.default,
      file_formats: ["csv", "xls"],
      export_types: ["default", "selected"],
    });
  }

  const id = url.searchParams.get("id");
  if (id !== null) {
    if (!/^\d{1,12}$/.test(id)) return apiDetail(request, "api.not_found", 404);
    const file = await openReportDownload(db, {
      merchantId: user.merchantId,
      user,
      id: Number(id),
      ip: context.get(clientAddressContext),
    });
    if (file.ok) {
      return fileResponse(file);
    }
    if (file.reason === "not_found") return apiDetail(request, "api.not_found", 404);
    if (file.state === "failed")
      return apiDetail(request, "exports.failed", 409, { id: Number(id), state: file.state });
    return apiDetail(request, "exports.not_ready", 202, {
      id: Number(id),
      state: file.state,
      rows_done: file.rows_done,
      rows_total: file.rows_total,
    });
  }

  const filters = new URLSearchParams(url.searchParams);
  for (const name of EXPORT_PARAMS) filters.delete(name);
  const result = await requestExport(db, {
    merchantId: user.merchantId,
    user,
    section,
    sectionFields: sectionFieldNames(section),
    query: filters.toString(),
    fileFormat: url.searchParams.get("file_format") ?? "csv",
    exportType: url.searchParams.get("export_type") ?? "default",
    fields: url.searchParams.getAll("fields"),
    language: url.searchParams.get("language") ?? lang,
    ip: context.get(clientAddressContext),
  });
  if (!result.ok) {
    if (result.error === "forbidden") return apiDetail(request, "api.permission_denied", 403);
    return apiErrors(request, Object.fromEntries(Object.entries(result.errors).map(([field, key]) => [field, [key]])));
  }
  return apiJson({ id: result.id, state: "queued" }, 201);
}

export async function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
