import type { Route } from "./+types/transaction-details";
import { childOperations, findTransactionRow } from "~/domain/transactions/list.server";
import { duplicatePayments } from "~/domain/payments/operations.server";
import { serializeDuplicatePayment, serializeTransactionDetails } from "~/presentation/transactions.server";
import { apiDetail, apiJson, methodNotAllowed, requireApiPermission } from "~/web/api.server";
import { isDeletedRoute, requireTransactionSection, serializeContextFor } from "~/sections/transaction-api.server";

/**
 * GET plugins/{plugin}/transaction/details/{id} (and deleted_transaction/{id}): one of the
 * merchant's transactions of this section with its details rows, QR code, actions, child
 * operations and duplicate payments (to refund with `attempt_id`). Another merchant's id, or another section's, answers 404.
 */
export async function loader({ request, context, params, pattern }: Route.LoaderArgs) {
  const deleted = isDeletedRoute(pattern);
  const { user, db, section, lang } = await requireTransactionSection(
    request,
    context,
    params.plugin,
    deleted ? "deleted_transactions" : "transactions",
  );
  requireApiPermission(request, user, "view_paymenttransaction");
  const row = await findTransactionRow(db, { merchantId: user.merchantId, plugin: section.key, deleted }, params.id);
  if (!row) return apiDetail(request, "api.not_found", 404);
  const [serializer, operations, duplicates] = await Promise.all([
    serializeContextFor(db, user, lang),
    childOperations(db, user.merchantId, [row.id]),
    duplicatePayments(db, user.merchantId, row.id),
  ]);
  return apiJson({
    ...(await serializeTransactionDetails(db, row, serializer, operations)),
    duplicate_payments: duplicates.map(serializeDuplicatePayment),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
