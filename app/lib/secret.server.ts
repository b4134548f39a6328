import type { DB } from "~/db/database.server";
import { randomToken } from "./crypto.server";
import { env } from "./env.server";

let cached: string | undefined;

/**
 * SESSION_SECRET when given; otherwise a secret made once and kept in the database,
 * so the embedded default needs no configuration and survives restarts.
 */
export async function getAppSecret(db: DB): Promise<string> {
  if (cached) return cached;
  const configured = env().SESSION_SECRET;
  if (configured) return (cached = configured);
  const existing = await db.selectFrom("app_settings").select("value").where("key", "=", "secret").executeTakeFirst();
  if (existing) return (cached = existing.value);
  const secret = randomToken(48);
  await db
    .insertInto("app_settings")
    .values({ key: "secret", value: secret })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
  const stored = await db
    .selectFrom("app_settings")
    .select("value")
    .where("key", "=", "secret")
    .executeTakeFirstOrThrow();
  return (cached = stored.value);
}
