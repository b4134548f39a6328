import type { RouterContextProvider } from "react-router";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { apiDetail, apiLanguage, requireApiPermission, requireApiUser, userInSetup } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

type Context = Readonly<RouterContextProvider>;

/**
 * The user of an event API call (a bearer token, or an API key with an `events` scope: `events:read`,
 * `events:write`) who may do `permission`; a merchant without the Bookings feature answers 404, as if it did not exist.
 */
export async function requireEventApi(
  request: Request,
  context: Context,
  permission: "view_booking" | "change_booking",
) {
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const user = userInSetup(signedIn, "events");
  if (!user || !hasFeature(await loadAvailableSections(db, user.merchantId), "event", "bookings"))
    throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, permission);
  return { user, db, lang: apiLanguage(request) };
}

/** A positive integer id from the path, or null. */
export function pathId(value: string | undefined) {
  return value && /^\d{1,12}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}
