import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Gateways' messages kept as received (decision 0037): every result KNET posts to responseURL that
 * decrypts with the terminal's key is kept, encrypted and plain, as the manual asks; and the KNET
 * sandbox's books record the payments it voided because the merchant did not answer REDIRECT=.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("gateway_messages")
    .addColumn("id", id.type, id.build)
    .addColumn("attempt_id", "text", (c) => c.notNull().references("payment_attempts.id"))
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    /** SHA-256 of `received`: the gateway posting the same result again keeps one row. */
    .addColumn("digest", "text", (c) => c.notNull())
    /** As the gateway sent it (KNET: the encrypted trandata). */
    .addColumn("received", "text", (c) => c.notNull())
    .addColumn("plain", "text", (c) => c.notNull())
    /** Null: taken as the attempt's result; else why it was refused (another track id or amount). */
    .addColumn("refusal", "text")
    .addColumn("received_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("gateway_messages_attempt_digest").on("gateway_messages").columns(["attempt_id", "digest"]).unique().execute();
  await db.schema.alterTable("sandbox_knet_payments").addColumn("voided_at", timestamp).execute();
}
