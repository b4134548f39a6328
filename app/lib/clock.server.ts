import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The platform's idea of "now". Tests that exercise time (idle expiry, code validity)
 * move it forward instead of waiting; moving it is only possible when TEST_CLOCK=1.
 * advanceClock moves it for the whole process; runWithClockOffset only for what runs
 * inside it (one request), on top of that.
 */
let offsetMs = 0;
const scopedOffsetMs = new AsyncLocalStorage<number>();

export function now(): Date {
  return new Date(Date.now() + offsetMs + (scopedOffsetMs.getStore() ?? 0));
}

export function nowIso(): string {
  return now().toISOString();
}

export function advanceClock(ms: number) {
  assertTestClock();
  offsetMs += ms;
}

export function runWithClockOffset<T>(ms: number, fn: () => T): T {
  assertTestClock();
  return scopedOffsetMs.run(ms, fn);
}

/** Runs `fn` on the process's own clock, whatever request started it (the background worker's ticks). */
export function runOnProcessClock<T>(fn: () => T): T {
  return scopedOffsetMs.exit(fn);
}

export function resetClock() {
  offsetMs = 0;
}

export function addMs(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}

function assertTestClock() {
  if (process.env.TEST_CLOCK !== "1") throw new Error("The clock can only be moved with TEST_CLOCK=1");
}
