import type { DB } from "~/db/database.server";

/** One of the merchant's transactions, with the initiator's username; never another merchant's. */
export async function findMerchantTransaction(db: DB, merchantId: number, id: string, plugin?: string) {
  let query = db
    .selectFrom("transactions")
    .leftJoin("users", "users.id", "transactions.initiator_user_id")
    .select([
      "transactions.id",
      "transactions.order_no",
      "transactions.plugin",
      "transactions.state",
      "transactions.amount",
      "transactions.currency_code",
      "transactions.customer_email",
      "transactions.customer_phone",
      "transactions.customer_first_name",
      "transactions.customer_last_name",
      "transactions.description",
      "transactions.attachment_name",
      "transactions.delivery_mode",
      "transactions.delivery_address",
      "transactions.delivery_lat",
      "transactions.delivery_lng",
      "transactions.pg_codes",
      "transactions.expiration_time",
      "transactions.paid_amount",
      "transactions.fee",
      "transactions.gateway_code",
      "transactions.paid_attempt_id",
      "transactions.editable_amount",
      "transactions.min_amount",
      "transactions.max_amount",
      "transactions.created_at",
      "transactions.state_changed_at",
      "users.username as initiator",
    ])
    .where("transactions.merchant_id", "=", merchantId)
    .where("transactions.id", "=", id)
    .where("transactions.deleted_at", "is", null);
  if (plugin) query = query.where("transactions.plugin", "=", plugin);
  return query.executeTakeFirst();
}
