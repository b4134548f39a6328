import type { Route } from "./+types/transaction-pay-choices";
import { findSection } from "~/sections/registry";
import { findPublicTransaction } from "~/domain/payments/pay-page.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { publicPayChoices } from "~/presentation/public-pay-view.server";
import { apiDetail, apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, str } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/** POST {amount}: the pay choices priced for an amount typed on an editable request. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  if (findSection(params.plugin)?.transactions?.payable !== true) return apiDetail(request, "api.not_found", 404);
  const db = getDbFrom(context);
  const transaction = await findPublicTransaction(db, params.id, [params.plugin]);
  if (!transaction) return apiDetail(request, "pay.not_found", 404);
  if (!PAYABLE_STATES.includes(transaction.state))
    return apiErrors(request, { non_field_errors: ["pay.errors.not_payable"] });
  const body = await readBody(request);
  const priced = await publicPayChoices(
    db,
    transaction,
    body.amount === undefined ? null : str(body.amount, 20),
    apiLanguage(request),
  );
  // Already in the caller's language: the message names the allowed range.
  if (!priced.ok) return apiJson({ amount: [priced.error] }, 400);
  return apiJson({ pay_choices: priced.choices, default_pay_choice: priced.default });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
