import type { Route } from "./+types/test-clock";
import { advanceClock } from "~/lib/clock.server";
import { notFound } from "~/web/guards.server";

/** Moves the server's clock forward; exists only when the server runs with TEST_CLOCK=1. */
export async function action({ request }: Route.ActionArgs) {
  if (process.env.TEST_CLOCK !== "1") notFound();
  const { ms } = (await request.json()) as { ms: number };
  advanceClock(Number(ms));
  return Response.json({ ok: true });
}

export function loader() {
  notFound();
}
