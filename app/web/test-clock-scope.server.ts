// POST /__test/clock moves the clock of its caller only: it keeps the caller's offset in a cookie,
// and requests that carry the cookie run with now() moved by it. Browser contexts have cookies of
// their own, so one end-to-end test moving its clock leaves the others' alone. Without TEST_CLOCK=1
// the cookie means nothing.
import type { MiddlewareFunction } from "react-router";
import { runWithClockOffset } from "~/lib/clock.server";

export function testClockOffsetOf(cookieHeader: string | null | undefined): number {
  if (process.env.TEST_CLOCK !== "1" || !cookieHeader) return 0;
  const match = /(?:^|;)\s*kp_test_clock=(-?\d+)\s*(?:;|$)/.exec(cookieHeader);
  return match ? Number(match[1]) : 0;
}

export function testClockCookie(offsetMs: number) {
  return `kp_test_clock=${offsetMs}; Path=/; HttpOnly; SameSite=Lax`;
}

/** Runs `fn` on the clock of the caller whose Cookie header this is. */
export function runOnCallerClock<T>(cookieHeader: string | null | undefined, fn: () => T): T {
  const offsetMs = testClockOffsetOf(cookieHeader);
  return offsetMs ? runWithClockOffset(offsetMs, fn) : fn();
}

export const testClockScopeMiddleware: MiddlewareFunction<Response> = ({ request }, next) =>
  runOnCallerClock(request.headers.get("Cookie"), next);
