import { errorField, log } from "~/lib/log.server";
import pg from "pg";
import { connectionStringOf, engineOf, type DB } from "~/db/database.server";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { resumeSessionById } from "~/domain/identity/sessions.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import { addMs, now } from "~/lib/clock.server";
import { LIVE_CHANNEL, LIVE_KEEP_MS, SESSION_ENDED, localWakers, type LiveRow as Row } from "~/lib/live.server";

/** Who holds a channel open. */
export type LiveReader = { merchantId: number; userId: number; sessionId: string; user: PermissionHolder };

type Subscriber = LiveReader & { deliver(row: Row): void; end(): void };

function visibleTo(row: Row, reader: LiveReader) {
  return (
    row.merchant_id === reader.merchantId &&
    (row.user_id === null || row.user_id === reader.userId) &&
    (row.permission === null || can(reader.user, row.permission))
  );
}

function endsSession(row: Row, subscriber: Subscriber) {
  if (row.type !== SESSION_ENDED || row.user_id !== subscriber.userId || row.merchant_id !== subscriber.merchantId)
    return false;
  const data = JSON.parse(row.data) as { session_id: string | null; except: string | null };
  return data.session_id ? data.session_id === subscriber.sessionId : subscriber.sessionId !== data.except;
}

const hubOf = new WeakMap<DB, LiveHub>();

/** An id not seen this long after a larger one committed is taken for a rolled-back write's. */
const GAP_MS = 30_000;

/**
 * One per process and database: reads the messages committed since it last looked and hands each to
 * the channels open here that may see it. Woken by NOTIFY on Postgres (and every two seconds, should
 * a notification be lost with its connection), by the writer on SQLite. Runs only while a channel is
 * open.
 *
 * On Postgres an id can commit after a larger one. The hub keeps a floor (every id up to it is read,
 * or was never committed) and the ids read above it, and asks again for the missing ones until they
 * come or GAP_MS passes. A channel's event ids carry that floor and the ids sent above it, so a
 * browser that reconnects is sent exactly what it has not had.
 */
class LiveHub {
  private subscribers = new Set<Subscriber>();
  private floor: number | null = null;
  private newest = 0;
  private above = new Set<number>();
  private missingSince = new Map<number, number>();
  private reading: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;
  private readonly soonBound = () => this.soon();

  constructor(private readonly db: DB) {}

  /** Adds a channel; answers the newest id read so far (what came before is the channel's to replay). */
  async add(subscriber: Subscriber) {
    if (this.floor === null) {
      const newest = await this.db
        .selectFrom("live_messages")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst();
      if (this.floor === null) {
        this.floor = Number(newest?.id ?? 0);
        this.newest = this.floor;
      }
    }
    this.subscribers.add(subscriber);
    if (!this.timer) this.start();
    return this.newest;
  }

  /** Every id up to this one has been handed out, or never will be. */
  get safeFloor() {
    return this.floor ?? 0;
  }

  remove(subscriber: Subscriber) {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) this.stop();
  }

  get size() {
    return this.subscribers.size;
  }

  /** Reads now; a read under way reads once more when it ends. */
  wake() {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.read()
      .catch((error) => log.error({ error: errorField(error) }, "live channel"))
      .finally(() => {
        this.reading = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** After a write on SQLite: its transaction may still be open, so a look now and one a moment later. */
  soon() {
    if (this.subscribers.size === 0) return;
    setTimeout(() => this.wake(), 5);
    setTimeout(() => this.wake(), 60);
  }

  private async read() {
    if (this.floor === null || this.subscribers.size === 0) return;
    const missing = [...this.missingSince.keys()].slice(0, 200);
    if (missing.length > 0) {
      const late = await this.db
        .selectFrom("live_messages")
        .selectAll()
        .where("id", "in", missing)
        .orderBy("id")
        .execute();
      for (const row of late) this.hand(row);
    }
    for (;;) {
      const rows = await this.db
        .selectFrom("live_messages")
        .selectAll()
        .where("id", ">", this.newest)
        .orderBy("id")
        .limit(500)
        .execute();
      for (const row of rows) {
        for (let id = this.newest + 1; id < row.id; id++)
          if (!this.above.has(id)) this.missingSince.set(id, Date.now());
        this.newest = Math.max(this.newest, row.id);
        this.hand(row);
      }
      if (rows.length < 500) break;
    }
    this.raiseFloor();
  }

  private hand(row: Row) {
    if (this.floor === null || row.id <= this.floor || this.above.has(row.id)) return;
    this.above.add(row.id);
    this.missingSince.delete(row.id);
    for (const subscriber of [...this.subscribers]) {
      if (endsSession(row, subscriber)) subscriber.end();
      else if (row.type !== SESSION_ENDED && visibleTo(row, subscriber)) subscriber.deliver(row);
    }
  }

  private raiseFloor() {
    if (this.floor === null) return;
    const current = Date.now();
    let floor: number = this.floor;
    while (floor < this.newest) {
      const next: number = floor + 1;
      if (!this.above.delete(next)) {
        const since = this.missingSince.get(next);
        if (since !== undefined && current - since < GAP_MS) break;
        this.missingSince.delete(next);
      }
      floor = next;
    }
    this.floor = floor;
  }

  private start() {
    localWakers.add(this.soonBound);
    const postgres = engineOf(this.db) === "postgres";
    this.timer = setInterval(() => this.wake(), postgres ? 2_000 : 1_000);
    this.timer.unref();
    if (postgres) void this.listen();
  }

  private stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Nobody listens here any more: the next channel starts from the newest message again.
    this.floor = null;
    this.newest = 0;
    this.above.clear();
    this.missingSince.clear();
    localWakers.delete(this.soonBound);
    const listener = this.listener;
    this.listener = null;
    void listener?.end().catch(() => {});
  }

  private async listen() {
    const connectionString = connectionStringOf(this.db);
    if (!connectionString || this.listener) return;
    const client = new pg.Client({ connectionString });
    this.listener = client;
    const retry = () => {
      if (this.listener === client) this.listener = null;
      void client.end().catch(() => {});
      setTimeout(() => this.timer && void this.listen(), 1_000).unref();
    };
    client.on("notification", () => this.wake());
    // The connection is gone (a restart, a failover): the timer keeps reading meanwhile.
    client.on("error", retry);
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      if (this.listener !== client) await client.end();
    } catch {
      retry();
    }
  }
}

function hubFor(db: DB) {
  let hub = hubOf.get(db);
  if (!hub) hubOf.set(db, (hub = new LiveHub(db)));
  return hub;
}

/** Channels open in this process. */
export function openLiveChannels(db: DB) {
  return hubOf.get(db)?.size ?? 0;
}

/** Where a channel resumes: every id up to `floor` was handled, and of those above it, `sent` were sent. */
export type LivePosition = { floor: number; sent: number[] };

/** The event id a browser sends back as Last-Event-ID: "<floor>" or "<floor>~<id>.<id>". */
export function parseLastEventId(value: string | null): LivePosition | null {
  const match = value ? /^(\d{1,15})(?:~(\d{1,15}(?:\.\d{1,15}){0,199}))?$/.exec(value.trim()) : null;
  if (!match) return null;
  return { floor: Number(match[1]), sent: match[2] ? match[2].split(".").map(Number) : [] };
}

function eventId(floor: number, sent: Set<number>) {
  const above = [...sent].filter((id) => id > floor).sort((a, b) => a - b);
  return above.length ? `${floor}~${above.join(".")}` : String(floor);
}

const HEARTBEAT_MS = 20_000;
const SESSION_CHECK_MS = 10_000;
const encoder = new TextEncoder();

/**
 * A user's live channel as Server-Sent Events. With the position the browser last had
 * (Last-Event-ID), the messages since are sent first, then the new ones, none twice. It closes when
 * the session ends (signed out anywhere, idle, over age): at once when an instance says so, and by a
 * check every ten seconds in any case. Reading it never keeps a session alive.
 */
export function openLiveStream(
  db: DB,
  reader: LiveReader,
  options: { resume: LivePosition | null; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  const hub = hubFor(db);
  let closed = false;
  let timers: NodeJS.Timeout[] = [];
  let subscriber: Subscriber | undefined;
  const stopTimers = () => {
    for (const timer of timers) clearInterval(timer);
    timers = [];
  };
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const resume = options.resume;
      const sent = new Set<number>(resume?.sent ?? []);
      const floorOf = () => Math.max(hub.safeFloor, resume?.floor ?? 0);
      let replaying = true;
      const waiting: Row[] = [];
      // While the missed messages are replayed in id order, the position goes no further than the one sent.
      const send = (row: Row, upTo = Infinity) => {
        if (closed || sent.has(row.id) || (resume && row.id <= resume.floor)) return;
        sent.add(row.id);
        const floor = Math.min(floorOf(), upTo);
        for (const id of sent) if (id <= floor) sent.delete(id);
        const body = {
          id: row.id,
          merchant_id: row.merchant_id,
          type: row.type,
          data: JSON.parse(row.data) as unknown,
          created_at: row.created_at,
        };
        controller.enqueue(encoder.encode(`id: ${eventId(floor, sent)}\ndata: ${JSON.stringify(body)}\n\n`));
      };
      const end = () => {
        if (closed) return;
        closed = true;
        stopTimers();
        if (subscriber) hub.remove(subscriber);
        try {
          controller.close();
        } catch {
          // Already closed by the reader going away.
        }
      };
      options.signal.addEventListener("abort", end, { once: true });
      // The browser waits three seconds before it reconnects.
      controller.enqueue(encoder.encode("retry: 3000\n\n"));
      subscriber = { ...reader, deliver: (row) => (replaying ? waiting.push(row) : send(row)), end };
      const newest = await hub.add(subscriber);
      if (resume && resume.floor < newest) {
        const missed = await db
          .selectFrom("live_messages")
          .selectAll()
          .where("merchant_id", "=", reader.merchantId)
          .where((eb) => eb.or([eb("user_id", "=", reader.userId), eb("user_id", "is", null)]))
          .where("id", ">", resume.floor)
          .where("id", "<=", newest)
          .where("created_at", ">=", addMs(now(), -LIVE_KEEP_MS).toISOString())
          .where("type", "!=", SESSION_ENDED)
          .orderBy("id")
          .limit(1000)
          .execute();
        for (const row of missed) if (visibleTo(row, subscriber)) send(row, row.id);
      }
      replaying = false;
      for (const row of waiting.splice(0)) send(row);
      if (closed) return;
      // A comment (EventSource skips it): from here on, every message published reaches this channel.
      controller.enqueue(encoder.encode(": joined\n\n"));
      timers.push(
        setInterval(() => !closed && controller.enqueue(encoder.encode(": keep-alive\n\n")), HEARTBEAT_MS),
        setInterval(() => void checkSession(), SESSION_CHECK_MS),
      );
      async function checkSession() {
        try {
          const resumed = await resumeSessionById(db, reader.sessionId, { touch: false });
          const user = resumed ? await loadSessionUser(db, resumed.session.user_id) : undefined;
          if (!resumed || !user || user.merchantId !== reader.merchantId) return end();
          // Permissions granted or taken away since the channel opened count from now.
          if (subscriber) subscriber.user = user;
        } catch {
          // The database is unreachable for a moment: the next check decides.
        }
      }
    },
    cancel() {
      closed = true;
      stopTimers();
      if (subscriber) hub.remove(subscriber);
    },
  });
}
