import type { Route } from "./+types/test-clock";
import { notFound } from "~/web/guards.server";
import { testClockCookie, testClockOffsetOf } from "~/web/test-clock-scope.server";

/**
 * Moves the caller's clock forward (a cookie: web/test-clock-scope.server.ts); exists only when
 * the server runs with TEST_CLOCK=1.
 */
export async function action({ request }: Route.ActionArgs) {
  if (process.env.TEST_CLOCK !== "1") notFound();
  const { ms } = (await request.json()) as { ms: number };
  if (!Number.isSafeInteger(ms)) return Response.json({ ms: ["A whole number of milliseconds."] }, { status: 400 });
  const offsetMs = testClockOffsetOf(request.headers.get("Cookie")) + ms;
  return Response.json({ ok: true }, { headers: { "Set-Cookie": testClockCookie(offsetMs) } });
}

export function loader() {
  notFound();
}
