import type { Route } from "./+types/api-transactions";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { findMerchantTransaction } from "~/sections/payment-request/domain/transactions.server";
import { loadPaymentRequestSettings } from "~/sections/payment-request/settings.server";
import { serializeMerchantTransaction } from "~/sections/payment-request/domain/serialize.server";
import { apiLanguage, methodNotAllowed, readBody, requireApiPermission } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { describe } from "~/presentation/texts.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import {
  requireTransactionSection,
  respondWithBulkAction,
  respondWithList,
  respondWithListConfig,
} from "~/sections/transaction-api.server";

/**
 * DELETE {ids}: deletes those of the rows that may be deleted, as for every section.
 * POST: create a payment request (amount as a decimal string such as "12.500"). Answers 201 with
 * the transaction, its id, state and public pay URL as checkout_url. Idempotency-Key: the same key
 * and body answer the first response again and create nothing; another body is refused.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method === "DELETE") return respondWithBulkAction(request, context, "payment_request", "delete");
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db } = await requireTransactionSection(request, context, "payment_request");
  requireApiPermission(request, user, "add_paymenttransaction");
  const body = await readBody(request);
  const lang = apiLanguage(request);
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: "payment_request.create", body },
    async () => {
      const parsed = PaymentRequestSchema.safeParse(body);
      if (!parsed.success) {
        const t = translator(lang);
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues)
          (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(t(issue.message));
        return { status: 400, body: errors };
      }
      const created = await createPaymentRequest(db, {
        merchantId: user.merchantId,
        user: { id: user.id, username: user.username },
        request: parsed.data,
        baseUrl: linkBaseUrl(),
        lang,
        settings: await loadPaymentRequestSettings(db, user.merchantId),
      });
      if (!created.ok) {
        return {
          status: 400,
          body: Object.fromEntries(
            Object.entries(created.errors).map(([field, keys]) => [
              field,
              keys.map((key) => describe(key, created.params, lang)),
            ]),
          ),
        };
      }
      const transaction = await findMerchantTransaction(db, user.merchantId, created.transaction.id);
      return { status: 201, body: serializeMerchantTransaction(transaction!, created.transaction.payUrl) };
    },
  );
}

/** GET: the payment requests, OPTIONS: the list's configuration, as for every section. */
export function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return respondWithListConfig(request, context, "payment_request");
  return respondWithList(request, context, "payment_request");
}
