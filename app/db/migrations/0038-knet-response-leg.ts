import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * KNET's response leg (decision 0037): every result KNET posts to responseURL that decrypts with
 * the terminal's key is kept as received, encrypted and plain, as the manual asks; and the KNET
 * sandbox's books record the payments it voided because the merchant did not answer REDIRECT=.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("knet_responses")
    .addColumn("id", id.type, id.build)
    .addColumn("attempt_id", "text", (c) => c.notNull().references("payment_attempts.id"))
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    /** SHA-256 of `encrypted`: KNET posting the same result again keeps one row. */
    .addColumn("digest", "text", (c) => c.notNull())
    .addColumn("encrypted", "text", (c) => c.notNull())
    .addColumn("plain", "text", (c) => c.notNull())
    /** Null: taken as the attempt's result; else why it was refused (another track id or amount). */
    .addColumn("refusal", "text")
    .addColumn("received_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("knet_responses_attempt_digest").on("knet_responses").columns(["attempt_id", "digest"]).unique().execute();
  await db.schema.alterTable("sandbox_knet_payments").addColumn("voided_at", timestamp).execute();
}
