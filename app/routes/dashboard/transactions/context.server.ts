import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import type { Auth } from "~/web/request-context.server";
import { findSectionByPath, type Section } from "~/domain/merchant/sections";
import { tableHeaderPermission } from "~/domain/identity/permissions";
import { isLanguage, type Language } from "~/lib/i18n";
import type { ListScope } from "~/domain/transactions/list.server";

/** Which list a dashboard path names: all transactions, or one section's live or deleted ones. */
export type ListPlace = {
  lang: Language;
  /** null: all transactions. */
  section: Section | null;
  deleted: boolean;
  /** The list's own path, e.g. /en/payment-request/transactions. */
  basePath: string;
  /** What the export and the table fields are keyed by. */
  sectionKey: string;
};

export function placeOf(pathname: string): Omit<ListPlace, "lang"> & { lang: string } {
  const [, lang, first, second] = pathname.replace(/\.data$/, "").split("/");
  if (first === "transactions") return { lang, section: null, deleted: false, basePath: `/${lang}/transactions`, sectionKey: "all" };
  const section = findSectionByPath(first ?? "");
  if (!section || (second !== "transactions" && second !== "deleted-transactions" && second !== "table-headers")) notFound();
  const deleted = second === "deleted-transactions";
  return { lang, section, deleted, basePath: `/${lang}/${section.path}/${deleted ? "deleted-transactions" : "transactions"}`, sectionKey: section.key };
}

/** Signs in, checks the section and feature exist for the merchant and the user may view transactions. */
export async function requireListPlace(context: Parameters<typeof requireUser>[0], request: Request): Promise<{ auth: Auth; place: ListPlace }> {
  const auth = requireUser(context, request);
  const place = placeOf(new URL(request.url).pathname);
  if (!isLanguage(place.lang)) notFound();
  if (place.section) await requireSection(context, auth, place.section.key, place.deleted ? "deleted_transactions" : "transactions");
  requirePermission(auth, "view_paymenttransaction");
  return { auth, place: place as ListPlace };
}

export function scopeOf(auth: Auth, place: ListPlace): ListScope {
  return { merchantId: auth.user.merchantId, plugin: place.section?.plugin, deleted: place.deleted };
}

export function headerPermissionOf(place: ListPlace) {
  return place.section ? tableHeaderPermission(place.section.key) : null;
}
