import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import type { Auth } from "~/web/request-context.server";
import { tableHeaderPermission } from "~/domain/identity/permissions";
import type { ListScope } from "~/domain/transactions/list.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { findSection } from "~/sections/registry";
import type { SectionDeclaration } from "~/sections/contract";
import { transactionPageOf } from "./pages";

/** Which list a workspace page serves: all transactions, or one section's live or deleted ones. */
export type ListPlace = {
  lang: Language;
  /** null: all transactions. */
  section: SectionDeclaration | null;
  deleted: boolean;
  /** The list's own path, e.g. /en/payment-request/transactions. */
  basePath: string;
  /** What the export and the table fields are keyed by. */
  sectionKey: string;
};

type Args = {
  context: Parameters<typeof requireUser>[0];
  request: Request;
  params: { lang?: string };
  pattern: string;
};

/** The page a loader or action serves, from the pattern of the route that matched it (app/routes/dashboard/transactions/pages.ts). */
export function placeOf({ params, pattern }: Pick<Args, "params" | "pattern">): ListPlace {
  const page = transactionPageOf(pattern);
  const lang = params.lang;
  if (!page || !isLanguage(lang)) notFound();
  const section = page.sectionKey === null ? null : (findSection(page.sectionKey) ?? null);
  if (page.sectionKey !== null && !section) notFound();
  const list = section ? `${section.path}/${page.deleted ? "deleted-transactions" : "transactions"}` : "transactions";
  return { lang, section, deleted: page.deleted, basePath: `/${lang}/${list}`, sectionKey: section?.key ?? "all" };
}

/** Signs in, checks the section and feature exist for the merchant and the user may view transactions. */
export async function requireListPlace(args: Args): Promise<{ auth: Auth; place: ListPlace }> {
  const auth = requireUser(args.context, args.request);
  const place = placeOf(args);
  if (place.section)
    await requireSection(
      args.context,
      auth,
      place.section.key,
      place.deleted ? "deleted_transactions" : "transactions",
    );
  requirePermission(auth, "view_paymenttransaction");
  return { auth, place };
}

export function scopeOf(auth: Auth, place: ListPlace): ListScope {
  return { merchantId: auth.user.merchantId, plugin: place.section?.key, deleted: place.deleted };
}

export function headerPermissionOf(place: ListPlace) {
  return place.section ? tableHeaderPermission(place.section.key) : null;
}
