import { sql } from "kysely";
import type { Route } from "./+types/healthz";
import { getDbFrom } from "~/web/request-context.server";

export async function loader({ context }: Route.LoaderArgs) {
  await sql`select 1`.execute(getDbFrom(context));
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
