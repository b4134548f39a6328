import type { Route } from "./+types/payment-request-details";
import { payUrlOf } from "~/domain/payments/payment-requests.server";
import { serializeMerchantTransaction } from "~/domain/payments/serialize.server";
import { findMerchantTransaction } from "~/domain/payments/transactions.server";
import { apiDetail, apiJson, apiLanguage, requireApiPermission, requireApiUser } from "~/lib/api.server";
import { getDbFrom } from "~/lib/request-context.server";
import { linkBaseUrl } from "~/lib/sign-in.server";

/** GET: one of the signed-in merchant's payment requests; another merchant's id answers 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "view_paymenttransaction");
  const transaction = await findMerchantTransaction(getDbFrom(context), user.merchantId, params.id, "payment_request");
  if (!transaction) return apiDetail(request, "api.not_found", 404);
  return apiJson(serializeMerchantTransaction(transaction, payUrlOf(linkBaseUrl(), apiLanguage(request), transaction.id)));
}
