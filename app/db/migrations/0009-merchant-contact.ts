import type { Kysely } from "kysely";

/** How a customer reaches the merchant when a link can no longer be paid: an e-mail address and a phone number, both optional. */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("merchants").addColumn("contact_email", "text").execute();
  await db.schema.alterTable("merchants").addColumn("contact_phone", "text").execute();
}
