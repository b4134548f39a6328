import type { DB } from "~/db/database.server";
import { startAttempt } from "~/domain/payments/attempts.server";
import { findMerchantGateway } from "~/domain/payments/gateway-settings.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { platformAddresses } from "~/web/addresses.server";

export type ShopifyStart =
  | { ok: true; redirectUrl: string; attemptId: string }
  | { ok: false; status: 400 | 404; error: string; field: "gateway_code" | "non_field_errors"; params?: TextParams };

/**
 * Starts paying a handed-over transaction with the chosen method (the payment options page and the
 * API alike): the core's one way of starting an attempt, which refuses an expired or already paid
 * transaction and sends a repeated submit where the first went. A result shown at once (cash on
 * delivery, a repeat of a finished attempt) is the section's own result page.
 */
export async function startShopifyAttempt(
  db: DB,
  request: Request,
  input: { transactionId: string; gatewayCode: string; submissionToken: string; lang: Language },
): Promise<ShopifyStart> {
  if (!input.gatewayCode) return { ok: false, status: 400, error: "pay.errors.choose_gateway", field: "gateway_code" };
  // A test session is paid only on a test gateway, even one switched to live since the hand-over.
  const session = await db
    .selectFrom("shopify_payment_sessions")
    .select(["merchant_id", "test"])
    .where("transaction_id", "=", input.transactionId)
    .executeTakeFirst();
  if (session?.test === 1) {
    const gateway = await findMerchantGateway(db, session.merchant_id, input.gatewayCode.slice(0, 40));
    if (gateway && gateway.mode !== "test")
      return { ok: false, status: 400, error: "shopify_public.test_gateway_only", field: "gateway_code" };
  }
  const outcome = await startAttempt(db, {
    plugins: ["shopify"],
    transactionId: input.transactionId,
    gatewayCode: input.gatewayCode.slice(0, 40),
    submissionToken: input.submissionToken,
    lang: input.lang,
    addresses: platformAddresses(request),
  });
  if (!outcome.ok)
    return {
      ok: false,
      status: outcome.error === "pay.errors.not_found" ? 404 : 400,
      error: outcome.error,
      field: outcome.field === "gateway_code" ? "gateway_code" : "non_field_errors",
      params: outcome.params,
    };
  const core = /^\/(en|ar)\/pay\/attempt-detail\/([0-9A-Za-z]{22})$/.exec(outcome.redirectUrl);
  return {
    ok: true,
    attemptId: outcome.attemptId,
    redirectUrl: core ? `/${core[1]}/spf/payment-details/${core[2]}` : outcome.redirectUrl,
  };
}
