import type { RouterContextProvider } from "react-router";
import { respondOnce, type KeyCaller, type StoredResponse } from "~/web/idempotency.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { apiDetail, apiLanguage, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

type Context = Readonly<RouterContextProvider>;

export const OPERATIONS_BASE = "/api/v1/plugins/c/oa/processes/operation";
export const PERMISSION_REQUESTS_BASE = "/api/v1/plugins/ticket/permission-requests";

/** The bearer user of a Tickets service; a merchant without the feature answers 404, as if it did not exist. */
export async function requireTicketApi(
  request: Request,
  context: Context,
  feature: "operations_approval" | "user_permission_changes",
) {
  const { user } = await requireApiUser(request, context);
  const db = getDbFrom(context);
  if (!hasFeature(await loadAvailableSections(db, user.merchantId), "ticket", feature))
    throw apiDetail(request, "api.not_found", 404);
  return { user, db, lang: apiLanguage(request) };
}

/** A mutation run once per Idempotency-Key: the same key and body answer the first response again. */
export async function answerOnce(
  request: Request,
  input: { db: ReturnType<typeof getDbFrom>; merchantId: number; caller: KeyCaller; scope: string; body: unknown },
  work: () => Promise<StoredResponse>,
) {
  return respondOnce(request, input, work);
}

/** A positive integer id from the path, or null. */
export function pathId(value: string | undefined) {
  return value && /^\d{1,12}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}
