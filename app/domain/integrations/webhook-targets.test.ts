import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mpgsAdapter } from "~/domain/payments/gateways/mpgs/mpgs.server";
import type { GatewayConfig } from "~/domain/payments/gateways/gateway";
import { resetEnvCache } from "~/lib/env.server";
import {
  checkWebhookUrl,
  guardedLookup,
  isPrivateAddress,
  isPrivateHost,
  isPublicHost,
} from "./webhook-targets.server";
import { postToReceiver } from "./webhooks.server";

const INWARD = [
  "localhost",
  "localhost.",
  "LocalHost..",
  "api.localhost",
  "metadata.google.internal",
  "printer.local",
  "intranet",
  "127.0.0.1",
  "127.1",
  "2130706433",
  "0x7f.1",
  "0x7f000001",
  "0177.0.0.1",
  "017700000001",
  "0.0.0.0",
  "0",
  "10.1.2.3",
  "172.16.0.9",
  "192.168.1.10",
  "100.64.0.1",
  "169.254.169.254",
  "169.254.170.2",
  "224.0.0.1",
  "255.255.255.255",
  "[::1]",
  "::1",
  "[::]",
  "[::7f00:1]",
  "[::127.0.0.1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "::ffff:a9fe:a9fe",
  "[::ffff:0:7f00:1]",
  "[2002:7f00:1::]",
  "[2002:a9fe:a9fe::1]",
  "[2002:c0a8:0101::]",
  "[64:ff9b::7f00:1]",
  "[64:ff9b::a9fe:a9fe]",
  "[64:ff9b:1::1]",
  "[2001:0:4136:e378::1]",
  "[fc00::1]",
  "[fd12:3456::1]",
  "[fe80::1]",
  "[ff02::1]",
  "[2001:db8::1]",
];

const PUBLIC = [
  "example.com",
  "hooks.example.com.",
  "93.184.216.34",
  "8.8.8.8",
  "[2606:4700:4700::1111]",
  "[::ffff:93.184.216.34]",
  "[::ffff:5db8:d822]",
  "[2002:5db8:d822::1]",
  "[64:ff9b::808:808]",
];

describe("which hosts an outgoing call may reach", () => {
  it.each(INWARD)("refuses %s", (host) => {
    expect(isPrivateHost(host)).toBe(true);
  });

  it.each(PUBLIC)("takes %s", (host) => {
    expect(isPrivateHost(host)).toBe(false);
  });

  it("reads addresses as the resolver hands them, IPv4 inside IPv6 included", () => {
    expect(isPrivateAddress("::ffff:7f00:1")).toBe(true);
    expect(isPrivateAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isPrivateAddress("2002:7f00:1::")).toBe(true);
    expect(isPrivateAddress("64:ff9b::7f00:1")).toBe(true);
    expect(isPrivateAddress("fe80::1%eth0")).toBe(true);
    expect(isPrivateAddress("not an address")).toBe(true);
    expect(isPrivateAddress("93.184.216.34")).toBe(false);
    expect(isPrivateAddress("2606:4700:4700::1111")).toBe(false);
  });
});

/**
 * A resolver that answers a public address the first time a name is asked and loopback every time
 * after: the check passes, and only a connection made to the address the check passed is safe.
 */
function rebindingResolver() {
  let asked = 0;
  const answer = () => (asked++ === 0 ? { address: "93.184.216.34", family: 4 } : { address: "127.0.0.1", family: 4 });
  vi.spyOn(dns.promises, "lookup").mockImplementation((async () => [
    answer(),
  ]) as unknown as typeof dns.promises.lookup);
  vi.spyOn(dns, "lookup").mockImplementation(((
    _host: string,
    options: dns.LookupOptions | ((...args: unknown[]) => void),
    callback?: (...args: unknown[]) => void,
  ) => {
    const done = (typeof options === "function" ? options : callback)!;
    const entry = answer();
    process.nextTick(() =>
      typeof options === "object" && options.all ? done(null, [entry]) : done(null, entry.address, entry.family),
    );
  }) as unknown as typeof dns.lookup);
  return { times: () => asked };
}

describe("with private targets not allowed", () => {
  let receiver: http.Server;
  let port = 0;
  const reached: string[] = [];

  const sandbox = process.env.SANDBOX;

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = "0";
    process.env.SANDBOX = "0";
    resetEnvCache();
    receiver = http.createServer((request, response) => {
      reached.push(`${request.method} ${request.url}`);
      response.writeHead(404, { "Content-Type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    port = (receiver.address() as AddressInfo).port;
  });

  afterEach(() => {
    vi.restoreAllMocks();
    reached.length = 0;
  });

  afterAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    process.env.SANDBOX = sandbox;
    resetEnvCache();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("refuses every inward form of a webhook address when it is saved", async () => {
    for (const url of [
      `http://localhost.:${port}/x`,
      "http://[::7f00:1]/",
      "http://[2002:7f00:1::]/",
      "http://[64:ff9b::7f00:1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0177.0.0.1/",
      "http://0.0.0.0/",
      "http://169.254.169.254/latest/meta-data/",
      "http://intranet/hooks",
    ]) {
      expect(await checkWebhookUrl(url), url).toBe("admin.webhooks.errors.private");
    }
    expect(await checkWebhookUrl("https://93.184.216.34/hooks")).toBeNull();
  });

  it("refuses a name that resolves to loopback when it is saved", async () => {
    vi.spyOn(dns.promises, "lookup").mockImplementation((async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "::ffff:7f00:1", family: 6 },
    ]) as unknown as typeof dns.promises.lookup);
    expect(await checkWebhookUrl("https://inward.example.com/hooks")).toBe("admin.webhooks.errors.private");
  });

  it("delivers a webhook only to the address the check passed, never to one the name answers later", async () => {
    const resolver = rebindingResolver();
    const url = `http://rebind.example.com:${port}/hooks`;
    expect(await checkWebhookUrl(url)).toBeNull();
    const answer = await postToReceiver(url, "{}", { "Content-Type": "application/json" });
    expect(resolver.times()).toBe(2);
    expect(answer.status).toBeNull();
    expect(answer.error).toContain("private");
    expect(reached).toEqual([]);
  });

  it("calls a gateway only at a public address, whatever the name answers at the call", async () => {
    const config = (server: string): GatewayConfig =>
      ({
        code: "mpgs-x",
        kind: "mpgs",
        credentials: { merchantId: "TEST1", apiPassword: "x", notificationSecret: "y" },
        captureMode: "auto",
        endpoints: { browser: server, server },
      }) as GatewayConfig;
    // Saved while it was allowed (or a form the old check missed): not reached now.
    await expect(mpgsAdapter.testConnection!(config(`http://[::ffff:7f00:1]:${port}/acquirer`))).rejects.toThrow(
      /private/,
    );
    await expect(mpgsAdapter.testConnection!(config(`http://localhost.:${port}/acquirer`))).rejects.toThrow(/private/);
    rebindingResolver();
    expect(await isPublicHost("rebind.example.com")).toBe(true);
    await expect(mpgsAdapter.testConnection!(config(`http://rebind.example.com:${port}/acquirer`))).rejects.toThrow(
      /private/,
    );
    expect(reached).toEqual([]);
  });

  it("hands the connection exactly the addresses it checked", async () => {
    vi.spyOn(dns, "lookup").mockImplementation(((
      _host: string,
      _options: dns.LookupOptions,
      done: (...args: unknown[]) => void,
    ) =>
      process.nextTick(() => done(null, [{ address: "93.184.216.34", family: 4 }]))) as unknown as typeof dns.lookup);
    const lookup = guardedLookup(true)!;
    const answered = await new Promise((resolve) =>
      (lookup as unknown as (host: string, options: dns.LookupOptions, done: (...args: unknown[]) => void) => void)(
        "pay.example.com",
        { all: true },
        (...args) => resolve(args),
      ),
    );
    expect(answered).toEqual([null, [{ address: "93.184.216.34", family: 4 }]]);
    expect(dns.lookup).toHaveBeenCalledTimes(1);
  });
});
