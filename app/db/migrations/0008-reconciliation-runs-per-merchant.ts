import type { Kysely } from "kysely";

/** Each comparison of the books is recorded per merchant, so a merchant's page shows its own last run (decision 0013). */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("reconciliation_runs").addColumn("merchant_id", "integer", (c) => c.references("merchants.id")).execute();
  await db.schema.createIndex("reconciliation_runs_merchant").on("reconciliation_runs").columns(["merchant_id", "id"]).execute();
}
