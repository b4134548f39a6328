import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * One order number: a food or shop order is known by its transaction's order number (short and
 * sequential per merchant) on every page, mail and list, and keeps it here so that lists and searches
 * read it without a join. Orders placed before take theirs from their transaction.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  for (const table of ["food_orders", "catalogue_orders"]) {
    await db.schema.alterTable(table).addColumn("order_no", "integer").execute();
    const transactionId = sql.ref(`${table}.transaction_id`);
    await sql`update ${sql.table(table)} set order_no = (select transactions.order_no from transactions where transactions.id = ${transactionId})`.execute(db);
    await db.schema.createIndex(`${table}_order_no`).on(table).columns(["merchant_id", "order_no"]).execute();
  }
}
