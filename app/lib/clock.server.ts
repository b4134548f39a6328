/**
 * The platform's idea of "now". Tests that exercise time (idle expiry, code validity)
 * move it forward instead of waiting; moving it is only possible when TEST_CLOCK=1.
 */
let offsetMs = 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

export function nowIso(): string {
  return now().toISOString();
}

export function advanceClock(ms: number) {
  if (process.env.TEST_CLOCK !== "1") throw new Error("The clock can only be moved with TEST_CLOCK=1");
  offsetMs += ms;
}

export function resetClock() {
  offsetMs = 0;
}

export function addMs(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}
