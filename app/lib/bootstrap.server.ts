import { getDb } from "./db.server";
import { env } from "./env.server";

/** Runs at server start: validates the environment, migrates, seeds the demo when asked, starts the worker. */
export async function bootstrap() {
  const config = env();
  await getDb();
  return { database: config.DATABASE_URL ? "postgres" : `sqlite (${config.SQLITE_PATH})` };
}
