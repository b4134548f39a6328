import type { Route } from "./+types/readyz";
import { readiness } from "~/lib/readiness.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * Readiness, for the load balancer and the orchestrator: 503 while any check fails, with which.
 * /healthz stays liveness (the process answers), so a stalled worker never gets a web instance restarted.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { ready, checks } = await readiness(getDbFrom(context));
  const failed = Object.entries(checks)
    .filter(([, value]) => value !== "ok")
    .map(([name]) => name);
  return Response.json(ready ? { status: "ready", checks } : { status: "not ready", failed, checks }, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
