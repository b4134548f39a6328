import { decimalBoundsOf } from "~/domain/payments/amount-bounds.server";
import { toDecimalString } from "~/lib/money";
import type { findMerchantTransaction } from "./transactions.server";

type MerchantTransaction = NonNullable<Awaited<ReturnType<typeof findMerchantTransaction>>>;

/** A transaction in the API's words (dashboard spec §3): amounts as decimal strings. */
export function serializeMerchantTransaction(transaction: MerchantTransaction, checkoutUrl: string) {
  const money = (minor: number) => toDecimalString(minor, transaction.currency_code);
  return {
    id: transaction.id,
    order_no: transaction.order_no,
    type: transaction.plugin,
    state: transaction.state,
    amount: money(transaction.amount),
    original_amount: money(transaction.amount),
    paid_amount: money(transaction.paid_amount),
    fee: money(transaction.fee),
    currency_code: transaction.currency_code,
    customer_email: transaction.customer_email,
    customer_phone: transaction.customer_phone,
    customer_first_name: transaction.customer_first_name,
    customer_last_name: transaction.customer_last_name,
    description: transaction.description,
    pg_codes: transaction.pg_codes.split(","),
    gateway_code: transaction.gateway_code,
    has_editable_amount: Boolean(transaction.editable_amount),
    ...decimalBoundsOf(transaction),
    expiration_time: transaction.expiration_time,
    created: transaction.created_at,
    state_changed_at: transaction.state_changed_at,
    initiator: transaction.initiator ? { username: transaction.initiator } : null,
    checkout_url: checkoutUrl,
  };
}
