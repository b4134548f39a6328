import type { Kysely } from "kysely";

/** The card an attempt was paid with, as the acquirer masks it (first six and last four digits); never more. */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("payment_attempts").addColumn("card_masked", "text").execute();
}
