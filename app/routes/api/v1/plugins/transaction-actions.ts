import type { Route } from "./+types/transaction-actions";
import { availableActions, describeAction, runAction } from "~/domain/payments/actions.server";
import { findMerchantTransaction } from "~/domain/payments/transactions.server";
import { apiDetail, apiJson, apiLanguage, methodNotAllowed, requireApiUser } from "~/lib/api.server";
import { getDbFrom } from "~/lib/request-context.server";
import { linkBaseUrl } from "~/lib/sign-in.server";

/** GET: the actions the signed-in user may take on this transaction now, each with the URL to post to. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  const transaction = await findMerchantTransaction(getDbFrom(context), user.merchantId, params.id);
  if (!transaction || transaction.plugin !== params.plugin) return apiDetail(request, "api.not_found", 404);
  const lang = apiLanguage(request);
  const base = `/api/v1/plugins/${params.plugin}/transaction/actions/${transaction.id}`;
  return apiJson(availableActions(transaction, user).map((action) => describeAction(action, lang, `${base}/${action}/`)));
}

/** POST .../actions/{id}/{action}/: runs it. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  const outcome = await runAction(getDbFrom(context), {
    merchantId: user.merchantId,
    user,
    transactionId: params.id,
    action: params.action ?? "",
    baseUrl: linkBaseUrl(),
    lang: apiLanguage(request),
  });
  if (!outcome.ok) return apiJson({ detail: outcome.message }, outcome.status);
  return apiJson({ message: outcome.message });
}
