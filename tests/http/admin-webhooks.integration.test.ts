import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkWebhookUrl } from "~/domain/integrations/webhook-targets.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { resetEnvCache } from "~/lib/env.server";
import { runReadyJobs } from "~/lib/jobs.server";
import { payByCard } from "../support/card-payment";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Merchant webhooks against a real receiver on loopback (allowed here by WEBHOOK_ALLOW_PRIVATE):
 * signed deliveries of real payments and refunds, retries after errors, the delivery log, and the
 * refusal of private targets when they are not allowed.
 */
type Received = { headers: http.IncomingHttpHeaders; body: string };

let database: TestDatabase;
let server: TestHttpServer;
let receiver: http.Server;
let receiverUrl: string;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
const received: Received[] = [];
const answers: number[] = [];
let alphaToken = "";
let betaToken = "";

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      const status = answers.shift() ?? 200;
      res.writeHead(status, { "Content-Type": "text/plain" }).end(status === 200 ? "ok" : "x".repeat(3000));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0", WEBHOOK_ALLOW_PRIVATE: "1" });
  alphaToken = await tokenOf(alpha.admin.username);
  betaToken = await tokenOf(beta.admin.username);
});

afterAll(async () => {
  resetClock();
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.destroy();
});

async function tokenOf(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

const call = (method: string, path: string, token: string, json?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

function verify(delivery: Received, secret: string) {
  const header = String(delivery.headers.signature);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(match).not.toBeNull();
  const expected = createHmac("sha256", secret).update(`${match![1]}.${delivery.body}`).digest("hex");
  expect(match![2]).toBe(expected);
  const body = JSON.parse(delivery.body);
  expect(delivery.headers["idempotency-key"]).toBe(body.id);
  expect(delivery.headers["content-type"]).toBe("application/json");
  return body;
}

const drain = async () => {
  while ((await runReadyJobs(database.db)) > 0);
};

let endpoint: { id: number; secret: string };
let paidId = "";

describe("merchant webhooks", () => {
  it("a real payment reaches the receiver, signed, and the log shows the try", async () => {
    const created = await call("POST", "/api/v1/admin/webhooks", alphaToken, {
      url: receiverUrl,
      events: ["payment.succeeded", "refund.succeeded"],
    });
    expect(created.status).toBe(201);
    endpoint = await created.json();
    expect(endpoint.secret).toMatch(/^whsec_/);
    const stored = await database.db
      .selectFrom("webhook_endpoints")
      .select("secret")
      .where("id", "=", endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(endpoint.secret);
    const read = await (await call("GET", `/api/v1/admin/webhooks/${endpoint.id}`, alphaToken)).text();
    expect(read).not.toContain(endpoint.secret);

    const paid = await payByCard(database.db, server.url, {
      merchantId: alpha.merchantId,
      user: { id: alpha.admin.id, username: alpha.admin.username },
      amount: "7.500",
    });
    paidId = paid.id;
    // Nothing is sent during the payment itself: the delivery is a job.
    expect(received).toHaveLength(0);
    await drain();
    expect(received).toHaveLength(1);
    const body = verify(received[0], endpoint.secret);
    expect(body).toMatchObject({
      type: "payment.succeeded",
      data: {
        transaction: { id: paid.id, state: "paid", amount: "7.500", currency_code: "KWD", plugin: "payment_request" },
      },
    });
    expect(typeof body.created).toBe("number");

    const log = await (await call("GET", `/api/v1/admin/webhooks/${endpoint.id}/deliveries`, alphaToken)).json();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event: "payment.succeeded", status: "succeeded", response_code: 200, attempt: 1 });
    expect(log[0].created).toBeTruthy();
  });

  it("a receiver answering 500 twice gets the event a third time, and the log shows all three tries", async () => {
    received.length = 0;
    answers.push(500, 500);
    const refund = await call(
      "POST",
      `/api/v1/plugins/payment_request/transaction/actions/${paidId}/refund/`,
      alphaToken,
      { amount: "2.000" },
    );
    expect(refund.status).toBe(200);
    await drain();
    expect(received).toHaveLength(1);
    // Tried again a minute later, then five minutes after that: not before.
    advanceClock(30_000);
    await drain();
    expect(received).toHaveLength(1);
    advanceClock(31_000);
    await drain();
    expect(received).toHaveLength(2);
    advanceClock(5 * 60_000 + 1_000);
    await drain();
    expect(received).toHaveLength(3);
    const ids = received.map((delivery) => verify(delivery, endpoint.secret).id);
    expect(new Set(ids).size).toBe(1);
    expect(JSON.parse(received[2].body)).toMatchObject({
      type: "refund.succeeded",
      data: { operation: { kind: "refund", amount: "2.000" } },
    });

    const log = (await (await call("GET", `/api/v1/admin/webhooks/${endpoint.id}/deliveries`, alphaToken)).json()) as {
      event: string;
      status: string;
      response_code: number;
      attempt: number;
      response_body: string;
      id: number;
    }[];
    const refunds = log.filter((entry) => entry.event === "refund.succeeded");
    expect(refunds.map((entry) => [entry.attempt, entry.status, entry.response_code])).toEqual([
      [3, "succeeded", 200],
      [2, "failed", 500],
      [1, "failed", 500],
    ]);
    expect(refunds[1].response_body).toHaveLength(1024);

    // Redeliver: the event once more, as a fourth try.
    const again = await call(
      "POST",
      `/api/v1/admin/webhooks/${endpoint.id}/deliveries/${refunds[0].id}/redeliver`,
      alphaToken,
    );
    expect(again.status).toBe(202);
    await drain();
    expect(received).toHaveLength(4);
    expect(JSON.parse(received[3].body).id).toBe(ids[0]);
    const redelivered = await database.db
      .selectFrom("audit_log")
      .select(["actor_name", "description"])
      .where("action", "=", "webhook_redelivered")
      .executeTakeFirstOrThrow();
    expect(redelivered).toEqual({
      actor_name: alpha.admin.username,
      description: `Sent the event refund.succeeded again to the webhook endpoint ${receiverUrl}`,
    });
  });

  it("ends an event's pending retries at an endpoint once a Redeliver has reached it", async () => {
    received.length = 0;
    answers.push(500);
    const refund = await call(
      "POST",
      `/api/v1/plugins/payment_request/transaction/actions/${paidId}/refund/`,
      alphaToken,
      { amount: "1.000" },
    );
    expect(refund.status).toBe(200);
    await drain();
    expect(received).toHaveLength(1);
    const eventId = JSON.parse(received[0].body).id;
    const failed = (
      (await (await call("GET", `/api/v1/admin/webhooks/${endpoint.id}/deliveries`, alphaToken)).json()) as {
        id: number;
        event_id: string;
        status: string;
      }[]
    ).find((entry) => entry.event_id === eventId)!;
    expect(failed.status).toBe("failed");
    // The merchant fixes the receiver and presses Redeliver before the automatic retry is due.
    expect(
      (await call("POST", `/api/v1/admin/webhooks/${endpoint.id}/deliveries/${failed.id}/redeliver`, alphaToken))
        .status,
    ).toBe(202);
    await drain();
    expect(received).toHaveLength(2);
    // The retry queued after the failure is due now, and later ones would be too: none is sent.
    for (const step of [61_000, 5 * 60_000 + 1_000, 30 * 60_000]) {
      advanceClock(step);
      await drain();
    }
    expect(received).toHaveLength(2);
    const log = (await (await call("GET", `/api/v1/admin/webhooks/${endpoint.id}/deliveries`, alphaToken)).json()) as {
      event_id: string;
      attempt: number;
      status: string;
    }[];
    expect(log.filter((entry) => entry.event_id === eventId).map((entry) => [entry.attempt, entry.status])).toEqual([
      [2, "succeeded"],
      [1, "failed"],
    ]);
  });

  it("sends a test event on request, and nothing to an endpoint turned off", async () => {
    received.length = 0;
    const test = await call("POST", `/api/v1/admin/webhooks/${endpoint.id}/test`, alphaToken);
    expect(test.status).toBe(202);
    await drain();
    expect(received).toHaveLength(1);
    expect(verify(received[0], endpoint.secret).type).toBe("webhook.test");
    expect(
      (
        await database.db
          .selectFrom("audit_log")
          .select("description")
          .where("action", "=", "webhook_test_sent")
          .executeTakeFirstOrThrow()
      ).description,
    ).toBe(`Sent a test event to the webhook endpoint ${receiverUrl}`);

    const off = await call("PATCH", `/api/v1/admin/webhooks/${endpoint.id}`, alphaToken, { enabled: false });
    expect(await off.json()).toMatchObject({ enabled: false });
    expect((await call("POST", `/api/v1/admin/webhooks/${endpoint.id}/test`, alphaToken)).status).toBe(409);
    await payByCard(database.db, server.url, {
      merchantId: alpha.merchantId,
      user: { id: alpha.admin.id, username: alpha.admin.username },
      amount: "1.000",
    });
    await drain();
    expect(received).toHaveLength(1);
    await call("PATCH", `/api/v1/admin/webhooks/${endpoint.id}`, alphaToken, { enabled: true });
  });

  it("another merchant sees and changes nothing of it", async () => {
    expect(await (await call("GET", "/api/v1/admin/webhooks", betaToken)).json()).toEqual([]);
    expect((await call("GET", `/api/v1/admin/webhooks/${endpoint.id}`, betaToken)).status).toBe(404);
    expect((await call("GET", `/api/v1/admin/webhooks/${endpoint.id}/deliveries`, betaToken)).status).toBe(404);
    expect((await call("PATCH", `/api/v1/admin/webhooks/${endpoint.id}`, betaToken, { enabled: false })).status).toBe(
      404,
    );
    expect((await call("POST", `/api/v1/admin/webhooks/${endpoint.id}/test`, betaToken)).status).toBe(404);
    expect((await call("DELETE", `/api/v1/admin/webhooks/${endpoint.id}`, betaToken)).status).toBe(404);
    // A payment of Beta's is not told to Alpha's endpoint.
    received.length = 0;
    await payByCard(database.db, server.url, {
      merchantId: beta.merchantId,
      user: { id: beta.admin.id, username: beta.admin.username },
      amount: "1.000",
    });
    await drain();
    expect(received).toHaveLength(0);
  });

  it("refuses bad input in the caller's language", async () => {
    const bad = await fetch(`${server.url}/api/v1/admin/webhooks`, {
      method: "POST",
      headers: { Authorization: `Bearer ${alphaToken}`, "Content-Type": "application/json", "Accept-Language": "ar" },
      body: JSON.stringify({ url: "ftp://example.com", events: ["payment.exploded"] }),
    });
    expect(bad.status).toBe(400);
    const errors = await bad.json();
    expect(Object.keys(errors).sort()).toEqual(["events", "url"]);
    expect(errors.url[0]).toContain("http://");
  });

  it("refuses loopback and private targets unless the installation allows them", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = "0";
    resetEnvCache();
    try {
      for (const url of [
        "http://127.0.0.1:8080/x",
        "http://localhost/x",
        "http://[::1]/x",
        "http://10.1.2.3/x",
        "http://169.254.169.254/latest",
        "http://192.168.1.10/",
        "http://[::ffff:127.0.0.1]/",
      ]) {
        expect(await checkWebhookUrl(url), url).toBe("admin.webhooks.errors.private");
      }
      expect(await checkWebhookUrl("https://93.184.216.34/hooks")).toBeNull();
      // An endpoint saved while it was allowed is not reached once it is not: the try is logged as failed.
      received.length = 0;
      await call("POST", `/api/v1/admin/webhooks/${endpoint.id}/test`, alphaToken);
      await drain();
      expect(received).toHaveLength(0);
      const log = (await (
        await call("GET", `/api/v1/admin/webhooks/${endpoint.id}/deliveries`, alphaToken)
      ).json()) as { event: string; status: string; error: string | null }[];
      expect(log[0]).toMatchObject({ event: "webhook.test", status: "failed" });
      expect(log[0].error).toContain("private");
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "1";
      resetEnvCache();
    }
  });
});

describe("a receiver that answers slowly", () => {
  it("is cut off after 10 seconds in all, and its try logged as failed", async () => {
    const slow = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      const drip = setInterval(() => res.write("."), 500);
      res.on("close", () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const created = await call("POST", "/api/v1/admin/webhooks", alphaToken, {
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/drip`,
        events: ["payment.succeeded"],
      });
      const { id } = await created.json();
      await call("POST", `/api/v1/admin/webhooks/${id}/test`, alphaToken);
      const started = Date.now();
      await drain();
      expect(Date.now() - started).toBeLessThan(20_000);
      const log = (await (await call("GET", `/api/v1/admin/webhooks/${id}/deliveries`, alphaToken)).json()) as {
        status: string;
        error: string;
      }[];
      expect(log[0]).toMatchObject({ status: "failed" });
      expect(log[0].error).toContain("10 seconds");
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  }, 30_000);
});
