import type { RouterContextProvider } from "react-router";
import type { SessionUser } from "~/domain/identity/users.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { apiDetail, apiLanguage, requireApiPermission, requireApiUser, userOnPlugin } from "~/web/api.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

type Context = Readonly<RouterContextProvider>;

/** Who may see and make bulks: the merchant has the section's upload feature, the user may create payment requests. */
export const BULK_PERMISSION = "add_paymenttransaction";

/** A page of the bulk section: the signed-in user with the permission; 404 for a merchant without the feature. */
export async function requireBulkPage(context: Context, request: Request, params: { lang?: string }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "bulk", "upload");
  requirePermission(auth, BULK_PERMISSION);
  const lang: Language = isLanguage(params.lang) ? params.lang : "en";
  return {
    auth,
    db: getDbFrom(context),
    lang,
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
  };
}

/**
 * The user of a bulk API call (a bearer token, or an API key with grants on bulk) who may create
 * payment requests; a merchant without the feature answers 404, as if it did not exist.
 */
export async function requireBulkApi(request: Request, context: Context) {
  const { user: person } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  if (!hasFeature(await loadAvailableSections(db, person.merchantId), "bulk", "upload"))
    throw apiDetail(request, "api.not_found", 404);
  const user = userOnPlugin(person, "bulk");
  if (!user) throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, BULK_PERMISSION);
  return { user: user as SessionUser, db, lang: apiLanguage(request), actor: { id: user.id, username: user.username } };
}

/** A positive id of a path segment, or null. */
export function idOf(value: string | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}
