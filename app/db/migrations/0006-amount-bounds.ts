import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Decision 0015: the bounds of an editable amount, and the lease by which an Idempotency-Key held by
 * a request that died is given to a later retry.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  const money = engine === "postgres" ? "bigint" : "integer";

  // What a customer may pay on a request with an editable amount, in minor units; null on other
  // requests (and on editable ones made before bounds, which get the defaults when paid).
  await db.schema.alterTable("transactions").addColumn("min_amount", money).execute();
  await db.schema.alterTable("transactions").addColumn("max_amount", money).execute();

  // Until when the request that took a key holds it; null once it has answered (and on keys taken
  // before leases, whose lease is counted from created_at).
  await db.schema.alterTable("idempotency_keys").addColumn("locked_until", timestamp).execute();
}
