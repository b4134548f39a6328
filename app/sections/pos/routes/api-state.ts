import type { Route } from "./+types/api-state";
import { getDbFrom } from "~/web/request-context.server";
import { findCounterTransaction, loadCounterState, stateJson } from "../presentation/counter.server";
import { languageOf, requireCounter } from "./guard.server";

/**
 * Where one of the merchant's payments stands, for the counter's payment page to follow while the
 * customer pays: `{ state, final, paid, in_flight, attempt_id, attempt_url }`. Never cached. The page asks
 * with `X-Background-Request: 1`, so following a payment does not keep an idle session alive.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await requireCounter(context, request, "view");
  const db = getDbFrom(context);
  const transaction = await findCounterTransaction(db, auth.user.merchantId, params.transactionId);
  const headers = { "Cache-Control": "no-store" };
  if (!transaction) return Response.json({ detail: "Not found." }, { status: 404, headers });
  return Response.json(stateJson(await loadCounterState(db, transaction), languageOf(params)), { headers });
}
