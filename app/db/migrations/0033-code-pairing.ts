import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Code pairing (decision 0031): the merchant issues codes, each paired with a value only its
 * customer knows (a civil ID, a booking number); a customer who types both on /cpr is sent to the
 * pay page of a payment request made for that use. The merchant's websites that link to /cpr say
 * which merchant the customer came from and how the paired field is labelled there.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("code_pairing_sites")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    /** The referring site's host name, lower case (with its port when it has one): one merchant's on the platform. */
    .addColumn("host", "text", (c) => c.notNull().unique())
    /** The paired field's label on this site; blank: the merchant's default label. */
    .addColumn("label_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("label_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("code_pairing_sites_merchant").on("code_pairing_sites").columns(["merchant_id", "host"]).execute();
  await db.schema
    .createTable("code_pairing_settings")
    .addColumn("merchant_id", "integer", (c) => c.primaryKey().references("merchants.id"))
    /** The paired field's label where a site has none of its own. */
    .addColumn("label_en", "text", (c) => c.notNull())
    .addColumn("label_ar", "text", (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("code_pairing_codes")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    /** The code as the merchant hands it out (upper case, no spaces). */
    .addColumn("code", "text", (c) => c.notNull())
    /** HMAC of the code under the platform's secret: what a customer's code is looked up by (unique per merchant). */
    .addColumn("code_lookup", "text", (c) => c.notNull())
    /** The value paired with the code, as typed by the merchant, and as compared (normalised). */
    .addColumn("pair", "text", (c) => c.notNull())
    .addColumn("pair_normalized", "text", (c) => c.notNull())
    /** What each use leads to: a payment request of this amount, currency and description. */
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    /** 1: single use. */
    .addColumn("max_uses", "integer", (c) => c.notNull())
    .addColumn("uses", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", timestamp)
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "integer", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("code_pairing_codes_lookup").on("code_pairing_codes").columns(["merchant_id", "code_lookup"]).unique().execute();
  await db.schema.createIndex("code_pairing_codes_merchant").on("code_pairing_codes").columns(["merchant_id", "created_at"]).execute();
  await db.schema
    .createTable("code_pairing_uses")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("code_id", "integer", (c) => c.notNull().references("code_pairing_codes.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().unique().references("transactions.id"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("code_pairing_uses_code").on("code_pairing_uses").columns(["code_id"]).execute();
}
