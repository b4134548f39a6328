import type { Route } from "./+types/api-checkout-page";
import { publicPayView } from "~/presentation/public-pay-view.server";
import { apiDetail, apiJson, apiLanguage, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { platformAddresses } from "~/web/addresses.server";
import { offersCheckoutFields, PAYABLE_SECTIONS } from "~/sections/registry";
import { findPublicSession, offersSessions, sessionState } from "../domain/sessions.server";

/**
 * GET: what the hosted checkout page shows (public spec §7 checkout-page/{id}): the payment as the
 * pay API reads it (amount, unit_details, pay_choices, valid_for_payment, expiration_time…) with
 * the session's own order number, state and redirect_url. Anyone with the session id may read it.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const lang = apiLanguage(request);
  const session = await findPublicSession(db, params.sessionId);
  if (!session || !(await offersSessions(db, session.merchant_id))) return apiDetail(request, "api.not_found", 404);
  const view = await publicPayView(db, session.transaction_id, lang, PAYABLE_SECTIONS, {
    checkoutFields: offersCheckoutFields(session.type),
    addresses: platformAddresses(request),
  });
  if (!view.ok) return apiDetail(request, view.code, view.code === "pay.paused" ? 423 : 404);
  const current = (await findPublicSession(db, session.id)) ?? session;
  return apiJson({
    ...(view.body as Record<string, unknown>),
    session_id: session.id,
    transaction_id: session.transaction_id,
    reference_number: session.transaction_order_no,
    order_no: session.order_no,
    type: session.type,
    state: sessionState(current),
    redirect_url: session.redirect_url,
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
