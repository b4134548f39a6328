import http from "node:http";
import type { AddressInfo } from "node:net";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The production server behind one real proxy that, like nginx's $proxy_add_x_forwarded_for, fly.io's
 * edge and Caddy, appends the address it was called from to whatever X-Forwarded-For the client sent.
 * With TRUST_PROXY=1 the client's own entries are never its address (docs/decisions/0036).
 */
let database: TestDatabase;
let server: ServerProcess;
let proxy: http.Server;
let proxyUrl: string;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Proxied");
  server = await startServerProcess({ ...database.env, TRUST_PROXY: "1", SANDBOX: "1" });
  const backend = new URL(server.url);
  proxy = http.createServer((req, res) => {
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = http.request(
      {
        host: backend.hostname,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": forwarded },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  server?.child.kill("SIGKILL");
  await database?.destroy();
});

async function newKey(allowedIps: string[]) {
  const token = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: shop.admin.username, password: DEMO_PASSWORD }),
  }).then((response) => response.json() as Promise<{ access: string }>);
  const created = await fetch(`${server.url}/api/v1/admin/api-keys`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token.access}` },
    body: JSON.stringify({
      name: `Office ${allowedIps.join(" ")}`,
      scopes: ["payment_request"],
      allowed_ips: allowedIps,
    }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: number; key: string };
}

const listThroughProxy = (key: string, forwardedFor?: string) =>
  fetch(`${proxyUrl}/api/v1/plugins/payment_request/transaction`, {
    headers: { Authorization: `Api-Key ${key}`, ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}) },
  });

describe("TRUST_PROXY=1 behind one proxy", () => {
  it("takes the address the proxy appended, not the one the client wrote", async () => {
    const office = await newKey(["203.0.113.7"]);
    const forged = await listThroughProxy(office.key, "203.0.113.7");
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ detail: "This API key may not be used from this address." });
    const forgedTwice = await listThroughProxy(office.key, "203.0.113.7, 203.0.113.7");
    expect(forgedTwice.status).toBe(403);

    // The address the proxy saw (loopback here) is the client's, whatever the client wrote before it.
    const loopback = await newKey(["127.0.0.1"]);
    expect((await listThroughProxy(loopback.key, "203.0.113.7")).status).toBe(200);
    const used = await database.db
      .selectFrom("api_keys")
      .select("last_used_ip")
      .where("id", "=", loopback.id)
      .executeTakeFirstOrThrow();
    expect(used.last_used_ip).toBe("127.0.0.1");
  });
});

describe("TRUST_PROXY values", () => {
  for (const value of ["true", "yes", "1.2.3.4/40", "10.0.0.0/8, not-an-address"]) {
    it(`refuses ${JSON.stringify(value)} at start with the reason`, () => {
      const started = spawnSync(process.execPath, ["server.js"], {
        env: {
          ...process.env,
          ...database.env,
          NODE_ENV: "production",
          WORKER: "off",
          SEED_DEMO: "0",
          PORT: "0",
          TRUST_PROXY: value,
        },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(started.status).toBe(1);
      expect(started.stderr).toContain("TRUST_PROXY: must be 0, the number of proxies in front");
    });
  }
});
