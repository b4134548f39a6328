import dns from "node:dns";
import { BlockList, isIP } from "node:net";
import { env } from "~/lib/env.server";

/**
 * Where a merchant's webhook may point: a public address. Loopback, private, link-local (cloud
 * metadata), carrier-grade NAT, multicast and reserved ranges are refused unless the installation
 * allows them (WEBHOOK_ALLOW_PRIVATE: tests, a receiver on the same network). The address is
 * checked when the endpoint is saved and again as each delivery connects, on the address it
 * actually connects to, so a name that later resolves inward is refused too.
 */
const BLOCKED = new BlockList();
for (const [address, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  BLOCKED.addSubnet(address, bits, "ipv4");
}
for (const [address, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["64:ff9b::", 96],
] as const) {
  BLOCKED.addSubnet(address, bits, "ipv6");
}

export function privateTargetsAllowed() {
  return env().WEBHOOK_ALLOW_PRIVATE;
}

/** Whether an IP address is one a webhook may not reach (IPv4-mapped IPv6 is read as IPv4). */
export function isPrivateAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1] : ip;
  const family = isIP(address);
  if (!family) return true;
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A host name that is this machine, an internal name, or a private address (no DNS asked). */
export function isPrivateHost(hostname: string) {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  return isIP(host) ? isPrivateAddress(host) : false;
}

/** The checks on a URL a merchant enters; the code is a translation key, or null when it may be saved. */
export async function checkWebhookUrl(value: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "admin.webhooks.errors.url";
  }
  if (!/^https?:$/.test(url.protocol) || !url.hostname || url.username || url.password || value.length > 2000) return "admin.webhooks.errors.url";
  if (privateTargetsAllowed()) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return "admin.webhooks.errors.private";
  if (isIP(host)) return isPrivateAddress(host) ? "admin.webhooks.errors.private" : null;
  try {
    const addresses = await dns.promises.lookup(host, { all: true });
    return addresses.some((entry) => isPrivateAddress(entry.address)) ? "admin.webhooks.errors.private" : null;
  } catch {
    // A name that does not resolve yet may be saved; each delivery checks again.
    return null;
  }
}

/** A `lookup` for http.request that refuses private addresses as the connection is made. */
export function guardedLookup(): typeof dns.lookup | undefined {
  if (privateTargetsAllowed()) return undefined;
  const lookup = (hostname: string, options: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((entry) => isPrivateAddress(entry.address));
      if (refused || list.length === 0) {
        const blocked: NodeJS.ErrnoException = new Error(`${hostname} resolves to an address webhooks may not reach`);
        blocked.code = "EWEBHOOKPRIVATE";
        return callback(blocked, "", 0);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
  return lookup as unknown as typeof dns.lookup;
}
