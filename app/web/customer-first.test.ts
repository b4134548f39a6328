import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCustomerFirst, isSignedIn } from "./customer-first.server";

const STAFF = "theme=dark; kp_session=abc123";

/** A few turns of the event loop (the fake clock runs an immediate a millisecond on): the gate lets the loop turn once before each signed-in request runs. */
const turn = () => {
  for (let i = 0; i < 5; i++) vi.advanceTimersByTime(1);
};

/** A request through the gate: whether it is being handled, and its answer handed over (or its connection closed). */
function send(gate: ReturnType<typeof createCustomerFirst>, headers: Record<string, string> = {}) {
  const res = new EventEmitter();
  const request = { running: false, answer: () => res.emit("finish"), hangUp: () => res.emit("close") };
  gate({ headers } as unknown as IncomingMessage, res as unknown as ServerResponse, () => {
    request.running = true;
  });
  return request;
}

describe("customers first", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tells a signed-in request by its session cookie", () => {
    expect(isSignedIn(STAFF)).toBe(true);
    expect(isSignedIn("kp_session=")).toBe(false);
    expect(isSignedIn("not_kp_session=abc")).toBe(false);
    expect(isSignedIn(undefined)).toBe(false);
  });

  it("handles customers at once and holds staff while a customer's request is in flight", () => {
    const gate = createCustomerFirst({ staffAtOnce: 2, longestWaitMs: 1000, now: () => Date.now() });
    const customer = send(gate);
    expect(customer.running).toBe(true);
    const lists = [send(gate, { cookie: STAFF }), send(gate, { cookie: STAFF }), send(gate, { cookie: STAFF })];
    expect(lists.map((list) => list.running)).toEqual([false, false, false]);
    // Another customer comes first, though the staff were there before.
    expect(send(gate).running).toBe(true);
    expect(gate.state()).toEqual({ customers: 2, staff: 0, waiting: 3 });
  });

  it("lets staff in, a few at once, once customers have been quiet a moment; the next as one finishes", () => {
    const gate = createCustomerFirst({ staffAtOnce: 2, longestWaitMs: 1000, quietMs: 100, now: () => Date.now() });
    const customer = send(gate);
    const lists = [send(gate, { cookie: STAFF }), send(gate, { cookie: STAFF }), send(gate, { cookie: STAFF })];
    customer.answer();
    vi.advanceTimersByTime(100);
    turn();
    expect(lists.map((list) => list.running)).toEqual([true, true, false]);
    lists[0].answer();
    turn();
    expect(lists[2].running).toBe(true);
    expect(gate.state()).toEqual({ customers: 0, staff: 2, waiting: 0 });
  });

  it("runs a signed-in request that waited long enough behind customers, one at a time", () => {
    const gate = createCustomerFirst({
      staffAtOnce: 4,
      longestWaitMs: 1000,
      customerHoldMs: 60_000,
      now: () => Date.now(),
    });
    send(gate); // a customer whose page takes long
    const lists = [send(gate, { cookie: STAFF }), send(gate, { cookie: STAFF })];
    vi.advanceTimersByTime(999);
    expect(lists[0].running).toBe(false);
    vi.advanceTimersByTime(1);
    turn();
    expect(lists.map((list) => list.running)).toEqual([true, false]);
    // The second has waited its second too: it runs as the first finishes, not beside it.
    lists[0].answer();
    turn();
    expect(lists[1].running).toBe(true);
  });

  it("counts a customer's open request for a while only: a slow upload does not hold staff back", () => {
    const gate = createCustomerFirst({
      staffAtOnce: 4,
      longestWaitMs: 5000,
      customerHoldMs: 2000,
      now: () => Date.now(),
    });
    send(gate);
    const list = send(gate, { cookie: STAFF });
    vi.advanceTimersByTime(2100);
    turn();
    expect(list.running).toBe(true);
    expect(gate.state()).toEqual({ customers: 0, staff: 1, waiting: 0 });
  });

  it("takes in the connections waiting before a signed-in request runs: a customer among them goes first", () => {
    const gate = createCustomerFirst({
      staffAtOnce: 4,
      longestWaitMs: 1000,
      quietMs: 100,
      drainMaxMs: 200,
      now: () => Date.now(),
    });
    const list = send(gate, { cookie: STAFF });
    // Staff alone: the list runs after one turn of the loop that brought nothing new.
    turn();
    expect(list.running).toBe(true);
    list.answer();

    vi.advanceTimersByTime(1000);
    const next = send(gate, { cookie: STAFF });
    // The loop's next turn takes in a connection: the gate turns again before the list runs...
    gate.connected();
    vi.runOnlyPendingTimers();
    expect(next.running).toBe(false);
    // ...and in that turn the customer's request is read: it runs first, and the list waits for quiet.
    const customer = send(gate);
    expect(customer.running).toBe(true);
    turn();
    expect(next.running).toBe(false);
    customer.answer();
    vi.advanceTimersByTime(100);
    turn();
    expect(next.running).toBe(true);
  });

  it("lets the next signed-in request run when one has held its turn for long: a slow download keeps nobody in line", () => {
    const gate = createCustomerFirst({ staffAtOnce: 1, longestWaitMs: 1000, staffHoldMs: 1000, now: () => Date.now() });
    const download = send(gate, { cookie: STAFF });
    turn();
    expect(download.running).toBe(true);
    const list = send(gate, { cookie: STAFF });
    turn();
    expect(list.running).toBe(false);
    vi.advanceTimersByTime(1000);
    turn();
    expect(list.running).toBe(true);
  });

  it("refuses signed-in requests beyond the line's length with 503, at once", () => {
    const gate = createCustomerFirst({ staffAtOnce: 1, maxWaiting: 2, now: () => Date.now() });
    send(gate);
    const waitingLists = [send(gate, { cookie: STAFF }), send(gate, { cookie: STAFF })];
    const res = Object.assign(new EventEmitter(), { writeHead: vi.fn(), end: vi.fn() });
    let ran = false;
    gate({ headers: { cookie: STAFF } } as unknown as IncomingMessage, res as unknown as ServerResponse, () => {
      ran = true;
    });
    expect(ran).toBe(false);
    expect(res.writeHead).toHaveBeenCalledWith(503, expect.objectContaining({ "Retry-After": "2" }));
    expect(waitingLists.map((list) => list.running)).toEqual([false, false]);
    expect(gate.state().waiting).toBe(2);
  });

  it("arms no timer while customers are quiet and every turn is taken: the next release asks again", () => {
    const gate = createCustomerFirst({
      staffAtOnce: 1,
      staffHoldMs: 60_000,
      customerHoldMs: 60_000,
      now: () => Date.now(),
    });
    // A customer came and went a while ago.
    send(gate).answer();
    vi.advanceTimersByTime(500);
    const running = send(gate, { cookie: STAFF });
    turn();
    expect(running.running).toBe(true);
    const next = send(gate, { cookie: STAFF });
    vi.advanceTimersByTime(50);
    // Only the running request's hold is armed.
    expect(vi.getTimerCount()).toBe(1);
    running.answer();
    turn();
    expect(next.running).toBe(true);
  });

  it("lets a live channel through without a turn, and forgets a request whose tab closed before its turn", () => {
    const gate = createCustomerFirst({ staffAtOnce: 1, longestWaitMs: 1000, now: () => Date.now() });
    const customer = send(gate);
    expect(send(gate, { cookie: STAFF, accept: "text/event-stream" }).running).toBe(true);
    const closed = send(gate, { cookie: STAFF });
    const next = send(gate, { cookie: STAFF });
    closed.hangUp();
    customer.answer();
    vi.advanceTimersByTime(100);
    turn();
    expect(closed.running).toBe(false);
    expect(next.running).toBe(true);
    // A request answered and then closed gives back one turn, not two.
    next.answer();
    next.hangUp();
    expect(gate.state()).toEqual({ customers: 0, staff: 0, waiting: 0 });
  });
});
