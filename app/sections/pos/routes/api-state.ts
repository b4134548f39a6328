import type { Route } from "./+types/api-state";
import { getDbFrom } from "~/web/request-context.server";
import { counterState, findCounterTransaction, stateJson } from "../presentation/counter.server";
import { languageOf, requireCounter } from "./guard.server";

/**
 * Where one of the merchant's payments stands, for the counter's payment page to follow while the
 * customer pays: `{ state, final, paid, attempt_id, attempt_url }`. Never cached.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await requireCounter(context, request, "view");
  const transaction = await findCounterTransaction(getDbFrom(context), auth.user.merchantId, params.transactionId);
  const headers = { "Cache-Control": "no-store" };
  if (!transaction) return Response.json({ detail: "Not found." }, { status: 404, headers });
  return Response.json(stateJson(counterState(transaction), languageOf(params)), { headers });
}
