import { data, redirect } from "react-router";
import type { Route } from "./+types/transactions-export";
import { findSection, isTransactionSection } from "~/sections/registry";
import { ALL_SECTIONS, canExport, requestExport } from "~/domain/reporting/exports.server";
import { sectionFieldNames } from "~/sections/registry.server";
import { withParams } from "~/domain/transactions/filters";
import { notFound, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

function text(form: FormData, name: string, max = 2000) {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, max) : "";
}

/** The list an export was asked from: all transactions or one section's. */
function listPath(lang: string, section: string) {
  if (section === ALL_SECTIONS) return `/${lang}/transactions`;
  return `/${lang}/${findSection(section)?.path ?? ""}/transactions`;
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${isLanguage(params.lang) ? params.lang : "en"}/generated-reports`);
}

/**
 * The Export Transactions popover posts here: section, query (the list's query string),
 * file_format, export_type, fields, language. Success opens Generated Reports on the new report;
 * a refused request goes back to the list with export_error, where the popover says why.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  if (!canExport(auth.user)) throw data({ reason: "forbidden" }, { status: 403 });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const form = await readFormData(request);
  const section = text(form, "section", 64);
  if (section !== ALL_SECTIONS && !isTransactionSection(section)) notFound();
  if (section !== ALL_SECTIONS) await requireSection(context, auth, section, "transactions");
  const query = text(form, "query").replace(/^\?/, "");
  const result = await requestExport(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    user: auth.user,
    section,
    sectionFields: sectionFieldNames(section),
    query,
    fileFormat: text(form, "file_format", 16),
    exportType: text(form, "export_type", 16),
    fields: form
      .getAll("fields")
      .filter((value): value is string => typeof value === "string")
      .slice(0, 100),
    language: text(form, "language", 8) || lang,
    ip: context.get(clientAddressContext),
  });
  if (result.ok) return redirect(`/${lang}/generated-reports?id=${result.id}`);
  if (result.error === "forbidden") throw data({ reason: "forbidden" }, { status: 403 });
  const key = Object.values(result.errors)[0].replace(/^exports\.errors\./, "");
  return redirect(`${listPath(lang, section)}${withParams(query, { export_error: key, page: null })}`);
}
