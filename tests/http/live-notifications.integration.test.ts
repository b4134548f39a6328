import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction } from "~/db/database.server";
import { createNotifications } from "~/domain/messaging/notifications.server";
import { publishLive } from "~/lib/live.server";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let server: TestHttpServer;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

type LiveEvent = { id: string; body: { id: number; merchant_id: number; type: string; data: Record<string, unknown> } };

/** A live channel read as a browser's EventSource reads it: events with their ids, and whether it ended. */
async function openChannel(headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/v1/notifications/live`, { headers, signal: controller.signal });
  const events: LiveEvent[] = [];
  let ended = false;
  let joined = false;
  const waiters: (() => void)[] = [];
  if (response.ok && response.body) {
    void (async () => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block === ": joined") joined = true;
            const id = /^id: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (id && data) events.push({ id, body: JSON.parse(data) });
            for (const wake of waiters.splice(0)) wake();
          }
        }
      } catch {
        // Aborted by the test.
      }
      ended = true;
      for (const wake of waiters.splice(0)) wake();
    })();
  }
  const changed = () => new Promise<void>((resolve) => waiters.push(resolve));
  return {
    response,
    events,
    get ended() {
      return ended;
    },
    /** Waits until the channel says it has joined: every message published from then on reaches it. */
    async joined(ms = 8_000) {
      const deadline = Date.now() + ms;
      while (!joined && !ended && Date.now() < deadline)
        await Promise.race([changed(), new Promise((resolve) => setTimeout(resolve, 200))]);
      if (!joined) throw new Error("The live channel did not join");
    },
    /**
     * The events that came before a marker message published now to `userId`, once the marker
     * itself has come: a channel hears its messages in the order they were published, so nothing
     * published before the marker can come after it.
     */
    async eventsBefore(marker: { merchantId: number; userId: number }) {
      const tag = `marker-${Math.random()}`;
      await publishLive(database.db, {
        merchantId: marker.merchantId,
        userId: marker.userId,
        type: "booking_checked_in",
        data: { marker: tag },
      });
      const deadline = Date.now() + 8_000;
      while (!events.some((event) => event.body.data.marker === tag) && !ended && Date.now() < deadline)
        await Promise.race([changed(), new Promise((resolve) => setTimeout(resolve, 200))]);
      const at = events.findIndex((event) => event.body.data.marker === tag);
      if (at < 0) throw new Error("The marker message did not come");
      return events.slice(0, at);
    },
    /** Waits until `count` events have come (or the channel ended), at most `ms`. */
    async waitFor(count: number, ms = 8_000) {
      const deadline = Date.now() + ms;
      while (events.length < count && !ended && Date.now() < deadline) {
        await Promise.race([changed(), new Promise((resolve) => setTimeout(resolve, 200))]);
      }
      return events;
    },
    async waitForEnd(ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!ended && Date.now() < deadline)
        await Promise.race([changed(), new Promise((resolve) => setTimeout(resolve, 200))]);
      return ended;
    },
    close: () => controller.abort(),
  };
}

async function tokenOf(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

async function cookieOf(username: string) {
  const response = await fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams({ intent: "login", username, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  const cookie = response.headers
    .getSetCookie()
    .map((header) => /^(kp_session=[^;]+)/.exec(header)?.[1])
    .find((value) => value && value !== "kp_session=");
  if (!cookie) throw new Error(`sign-in failed for ${username}`);
  return cookie;
}

describe("the live channel", () => {
  it("refuses anyone without a session or bearer token with 401, an API key included", async () => {
    const callers: Record<string, string>[] = [
      {},
      { Authorization: "Bearer nonsense" },
      { Authorization: "Api-Key abc.def" },
      { Cookie: "kp_session=forged" },
    ];
    for (const headers of callers) {
      const channel = await openChannel(headers);
      expect(channel.response.status).toBe(401);
    }
  });

  it("carries the user's own notices to a bearer client and to a signed-in page, each with merchant_id, type and data", async () => {
    const api = await openChannel({ Authorization: `Bearer ${await tokenOf(alpha.admin.username)}` });
    const page = await openChannel({ Cookie: await cookieOf(alpha.admin.username) });
    expect(api.response.status).toBe(200);
    expect(api.response.headers.get("content-type")).toContain("text/event-stream");
    await Promise.all([api.joined(), page.joined()]);
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.admin.id],
      kind: "report_exported",
      lang: "en",
      link: "/en/generated-reports?id=7",
    });
    for (const channel of [api, page]) {
      const [event] = await channel.waitFor(1);
      expect(event.body).toMatchObject({
        merchant_id: alpha.merchantId,
        type: "report_exported",
        data: { title: "Report exported", link: "/en/generated-reports?id=7" },
      });
      expect(typeof event.body.data.notification_id).toBe("number");
    }
    api.close();
    page.close();
  });

  it("shows each user only what is theirs: not another user's notice, not what their permissions hide, never another merchant's", async () => {
    const staff = await openChannel({ Authorization: `Bearer ${await tokenOf(alpha.staff.username)}` });
    const otp = await openChannel({ Cookie: await cookieOf(beta.admin.username) });
    await Promise.all([staff.joined(), otp.joined()]);
    await createNotifications(database.db, {
      merchantId: alpha.merchantId,
      userIds: [alpha.admin.id],
      kind: "permission_request",
      lang: "en",
      link: null,
    });
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      permission: "approve_operations",
      type: "requests_changed",
      data: { kind: "operation", id: 1 },
    });
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      permission: "view_paymenttransaction",
      type: "payment_completed",
      data: { transaction_id: "tx-1" },
    });
    const [seen] = await staff.waitFor(1);
    expect(seen.body).toMatchObject({ type: "payment_completed", data: { transaction_id: "tx-1" } });
    expect(
      (await staff.eventsBefore({ merchantId: alpha.merchantId, userId: alpha.staff.id })).map(
        (event) => event.body.type,
      ),
    ).toEqual(["payment_completed"]);
    // The other merchant's channel is open and live: its own message, published after alpha's, is
    // all it gets (a channel that never opened would fail here rather than pass).
    expect(otp.response.status).toBe(200);
    await publishLive(database.db, {
      merchantId: beta.merchantId,
      permission: "view_paymenttransaction",
      type: "payment_completed",
      data: { transaction_id: "beta-own" },
    });
    const [own] = await otp.waitFor(1);
    expect(own.body).toMatchObject({
      merchant_id: beta.merchantId,
      type: "payment_completed",
      data: { transaction_id: "beta-own" },
    });
    expect(otp.events.map((event) => event.body.data)).toEqual([{ transaction_id: "beta-own" }]);
    expect(otp.events.every((event) => event.body.merchant_id === beta.merchantId)).toBe(true);
    staff.close();
    otp.close();
  });

  it("resumes from Last-Event-ID with what it missed, none lost and none repeated", async () => {
    const token = await tokenOf(alpha.admin.username);
    const first = await openChannel({ Authorization: `Bearer ${token}` });
    await first.joined();
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      userId: alpha.admin.id,
      type: "booking_checked_in",
      data: { n: 1 },
    });
    const [one] = await first.waitFor(1);
    first.close();
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      userId: alpha.admin.id,
      type: "booking_checked_in",
      data: { n: 2 },
    });
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      userId: alpha.admin.id,
      type: "booking_checked_in",
      data: { n: 3 },
    });
    const again = await openChannel({ Authorization: `Bearer ${token}`, "Last-Event-ID": one.id });
    await again.joined();
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      userId: alpha.admin.id,
      type: "booking_checked_in",
      data: { n: 4 },
    });
    await again.waitFor(3);
    expect(
      (await again.eventsBefore({ merchantId: alpha.merchantId, userId: alpha.admin.id })).map(
        (event) => event.body.data.n,
      ),
    ).toEqual([2, 3, 4]);
    again.close();
  });

  it("does not lose a message whose transaction commits after a later one's", async () => {
    if (database.engine !== "postgres") return; // SQLite has one writer: ids commit in order there.
    const token = await tokenOf(alpha.admin.username);
    const channel = await openChannel({ Authorization: `Bearer ${token}` });
    await channel.joined();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const slow = writeTransaction(database.db, async (trx) => {
      await publishLive(trx, {
        merchantId: alpha.merchantId,
        userId: alpha.admin.id,
        type: "booking_checked_in",
        data: { n: "late" },
      });
      inserted();
      await held;
    });
    await insertedYet;
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      userId: alpha.admin.id,
      type: "booking_checked_in",
      data: { n: "early" },
    });
    const [early] = await channel.waitFor(1);
    expect(early.body.data.n).toBe("early");
    // The browser goes away holding the early one's id; the late one commits meanwhile.
    channel.close();
    release();
    await slow;
    const resumed = await openChannel({ Authorization: `Bearer ${token}`, "Last-Event-ID": early.id });
    await resumed.waitFor(1);
    expect(
      (await resumed.eventsBefore({ merchantId: alpha.merchantId, userId: alpha.admin.id })).map(
        (event) => event.body.data.n,
      ),
    ).toEqual(["late"]);
    resumed.close();
  });

  it("ends at once when the session ends", async () => {
    const token = await tokenOf(alpha.admin.username);
    const channel = await openChannel({ Authorization: `Bearer ${token}` });
    const other = await openChannel({ Authorization: `Bearer ${await tokenOf(alpha.admin.username)}` });
    await Promise.all([channel.joined(), other.joined()]);
    const logout = await fetch(`${server.url}/api/v1/user/logout/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBe(200);
    expect(await channel.waitForEnd(5_000)).toBe(true);
    // Another session of the same user stays open, and still hears what is meant for the user.
    expect(other.ended).toBe(false);
    await publishLive(database.db, {
      merchantId: alpha.merchantId,
      userId: alpha.admin.id,
      type: "booking_checked_in",
      data: { n: "after" },
    });
    const [after] = await other.waitFor(1);
    expect(after.body.data.n).toBe("after");
    other.close();
  });
});
