import type { IncomingMessage, ServerResponse } from "node:http";
import { SESSION_COOKIE } from "./session-cookie.server";

export type CustomerFirstOptions = {
  /** Signed-in requests handled at once while no customer waits. */
  staffAtOnce?: number;
  /** How long a signed-in request waits behind customers before it runs anyway, one at a time. */
  longestWaitMs?: number;
  /** How long a signed-in request holds its turn at most: one still running after that waits on something else (a download to a slow phone, the database), not on this process. */
  staffHoldMs?: number;
  /** Signed-in requests waiting at most; more are refused with 503 (a session cookie is not checked here, so a flood could carry any). */
  maxWaiting?: number;
  /** How long, at most, the connections waiting to be accepted are taken in before a signed-in request runs. */
  drainMaxMs?: number;
  /** How long after the last customer's request came or went staff may run freely again. */
  quietMs?: number;
  /** How long a customer's request counts at most: one still open after that waits on its network (a slow upload), not on this process. */
  customerHoldMs?: number;
  now?: () => number;
};

type Next = (error?: unknown) => void;

const SESSION_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=[^;\\s]`);

/** A signed-in person's request (the dashboard, the administration panel): it carries a session cookie. */
export const isSignedIn = (cookie: string | undefined) => cookie !== undefined && SESSION_COOKIE_PATTERN.test(cookie);

/**
 * Customers first (docs/decisions/0035): the pay page, a payment's steps, the gateways' returns and
 * every request without a session are handled as they come; signed-in requests (a staff list costs
 * tens of milliseconds of the process's own time on SQLite) run, a few at once, only while no
 * customer's request is in flight nor came or went in the last `quietMs`. One that has waited `longestWaitMs` behind customers runs anyway, one at
 * a time, so staff are slowed by a burst of customers, never stopped by a steady stream of them.
 * Long-lived requests (the live channel's Server-Sent Events) are neither: they hold no turn.
 * Node takes in one new connection per turn of its event loop, and a signed-in page's render is
 * one long turn: while staff pages render back to back, customers who just connected wait in the
 * kernel's queue, unseen (bench:mixed found hundreds waiting seconds). So before each signed-in
 * request runs, the loop turns without it until a turn brings no new connection nor customer
 * (`connected()` is told of each connection), at most `drainMaxMs`.
 * A customer's request stops counting once its answer is handed to the connection ('finish'), or
 * after `customerHoldMs` (a slow upload waits on its network, and must not hold staff back); a
 * signed-in one holds its turn until its answer is handed over or its connection closes, or
 * `staffHoldMs` at most, so that one long request never keeps the others in line.
 */
export function createCustomerFirst({
  staffAtOnce = 4,
  longestWaitMs = 2000,
  customerHoldMs = 2000,
  quietMs = 100,
  drainMaxMs = 200,
  staffHoldMs = 1000,
  maxWaiting = 1000,
  now = Date.now,
}: CustomerFirstOptions = {}) {
  let customers = 0;
  let staff = 0;
  /** When a customer's request last came or went: customers arriving one by one are busy too. */
  let lastCustomerAt = -Infinity;
  /** Connections taken in and customers' requests seen so far: what a turn of the loop brought. */
  let news = 0;
  let draining = false;
  type Entry = { run: () => void; since: number; gone: boolean; drained: boolean };
  const waiting: Entry[] = [];
  let wakeUp: ReturnType<typeof setTimeout> | undefined;

  const quiet = () => customers === 0 && now() - lastCustomerAt >= quietMs;

  /** Lets the event loop turn until a turn brings nothing new (or `drainMaxMs` passes), then `then`. */
  const drain = (then: () => void) => {
    draining = true;
    const started = now();
    let seen = news;
    const turn = () => {
      if (news !== seen && now() - started < drainMaxMs) {
        seen = news;
        setImmediate(turn);
        return;
      }
      draining = false;
      then();
    };
    setImmediate(turn);
  };

  const admit = () => {
    if (draining) return;
    while (waiting.length > 0 && waiting[0].gone) waiting.shift();
    if (wakeUp) clearTimeout(wakeUp);
    wakeUp = undefined;
    const head = waiting[0];
    if (!head) return;
    const mayRun = quiet() ? staff < staffAtOnce : staff === 0 && now() - head.since >= longestWaitMs;
    if (mayRun && !head.drained) {
      // First the customers who may be waiting to be taken in; then the question again.
      return drain(() => {
        head.drained = true;
        admit();
      });
    }
    if (mayRun) {
      waiting.shift();
      staff++;
      head.run();
      // The next one, if any, after its own turn of the loop.
      return admit();
    }
    // Woken when customers have been quiet long enough, or when the first in line has waited its longest.
    // (Quiet and every turn taken: the next release asks again.)
    const delay = Math.min(
      customers === 0 && !quiet() ? quietMs - (now() - lastCustomerAt) : Infinity,
      staff === 0 ? longestWaitMs - (now() - head.since) : Infinity,
    );
    if (Number.isFinite(delay)) {
      wakeUp = setTimeout(admit, Math.max(0, delay));
      wakeUp.unref?.();
    }
  };

  /** Calls `release` once, when the answer is handed over or the connection closes, whichever is first. */
  const whenDone = (res: ServerResponse, release: () => void, atMostMs?: number) => {
    let released = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      if (released) return;
      released = true;
      if (timer) clearTimeout(timer);
      release();
      admit();
    };
    res.once("finish", done);
    res.once("close", done);
    if (atMostMs !== undefined) {
      timer = setTimeout(done, atMostMs);
      timer.unref?.();
    }
  };

  const middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => {
    if (String(req.headers.accept ?? "").includes("text/event-stream")) return next();
    if (!isSignedIn(req.headers.cookie)) {
      customers++;
      news++;
      lastCustomerAt = now();
      whenDone(
        res,
        () => {
          customers--;
          lastCustomerAt = now();
        },
        customerHoldMs,
      );
      return next();
    }
    const entry: Entry = { since: now(), gone: false, drained: false, run: () => {} };
    entry.run = () => {
      whenDone(res, () => staff--, staffHoldMs);
      next();
    };
    // A line that long is not staff at work: the request is refused at once, rather than the line grow.
    if (waiting.length >= maxWaiting) {
      res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "2" });
      res.end("Busy: please try again in a moment. / مشغول: يرجى المحاولة بعد لحظة.");
      return;
    }
    // Gone before its turn (the tab closed): it never runs.
    if (req.destroyed) return;
    res.once("close", () => {
      entry.gone = true;
    });
    waiting.push(entry);
    admit();
  };
  return Object.assign(middleware, {
    /** To be called on each new connection (the HTTP server's 'connection' event). */
    connected: () => {
      news++;
    },
    state: () => ({ customers, staff, waiting: waiting.filter((entry) => !entry.gone).length }),
  });
}
