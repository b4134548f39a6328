import dns from "node:dns";
import { BlockList, isIP } from "node:net";
import { env, sandboxEnabled } from "~/lib/env.server";

/**
 * Where a merchant's outgoing address (a webhook, a gateway's endpoint, a shop's callback) may
 * point: a public address. Loopback, private, link-local (cloud metadata), carrier-grade NAT,
 * multicast and reserved ranges are refused unless the installation allows them
 * (WEBHOOK_ALLOW_PRIVATE: tests, a receiver on the same network), and so are IPv6 forms that carry
 * one of those IPv4 addresses inside (IPv4-mapped and -compatible, 6to4, NAT64). The address is
 * checked when it is saved (its name resolved) and again as each connection is made: the
 * connection goes to the very address the check resolved and passed (`guardedLookup`), so a name
 * that answers a public address at the check and an inward one afterwards reaches nothing.
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
  ["192.88.99.0", 24],
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
  // IPv4-compatible (deprecated; :: and ::1 among them).
  ["::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:2::", 48],
  ["2001:10::", 28],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  BLOCKED.addSubnet(address, bits, "ipv6");
}

/** The 16-bit groups of a valid IPv6 address, a dotted IPv4 tail and `::` spelled out. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail = text.slice(text.lastIndexOf(":") + 1);
  if (tail.includes(".")) {
    const [a, b, c, d] = tail.split(".").map(Number);
    text = `${text.slice(0, text.length - tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const [left, right] = text.split("::");
  if (right === undefined) return parse(left);
  const head = parse(left);
  const rest = parse(right);
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

function ipv4Of(high: number, low: number) {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The IPv4 address an IPv6 one carries and is delivered to: IPv4-mapped, SIIT, NAT64 (RFC 6052) or 6to4. */
function embeddedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return ipv4Of(groups[6], groups[7]);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return ipv4Of(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return ipv4Of(groups[6], groups[7]);
  if (groups[0] === 0x2002) return ipv4Of(groups[1], groups[2]);
  return null;
}

export function privateTargetsAllowed() {
  return env().WEBHOOK_ALLOW_PRIVATE;
}

/** Whether an IP address is one an outgoing call may not reach; anything that is not an IP address is refused. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, "");
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, "ipv4");
  // A zone (fe80::1%eth0) names an interface of this machine.
  if (family !== 6 || address.includes("%")) return true;
  const inner = embeddedIpv4(ipv6Groups(address));
  if (inner !== null) return BLOCKED.check(inner, "ipv4");
  return BLOCKED.check(address, "ipv6");
}

/**
 * A host as a connection reads it: what the WHATWG URL parser makes of it (2130706433, 0x7f.1 and
 * 0177.0.0.1 are all 127.0.0.1), lower case, without brackets or the trailing dot of a fully
 * qualified name (`localhost.` is localhost). Null when it is no host at all.
 */
export function canonicalHost(hostname: string): string | null {
  const text = hostname.trim();
  const bracketed = isIP(text) === 6 ? `[${text}]` : text;
  let host: string;
  try {
    host = new URL(`http://${bracketed}/`).hostname;
  } catch {
    return null;
  }
  host = host.replace(/^\[|\]$/g, "").replace(/\.+$/, "");
  return host || null;
}

const INTERNAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".lan", ".intranet"];

/**
 * A host that is this machine, an internal name, or a private address, without asking DNS: also a
 * name of one label (`http://intranet/`), which the resolver completes with the network's own domain.
 */
export function isPrivateHost(hostname: string) {
  const host = canonicalHost(hostname);
  if (host === null) return true;
  if (isIP(host)) return isPrivateAddress(host);
  if (host === "localhost" || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  return !host.includes(".");
}

/**
 * Whether a host may be called now: not private by its form, and none of the addresses its name
 * resolves to private. A name that does not resolve (yet) passes: each connection checks again.
 */
export async function isPublicHost(hostname: string): Promise<boolean> {
  if (isPrivateHost(hostname)) return false;
  const host = canonicalHost(hostname)!;
  if (isIP(host)) return true;
  try {
    const addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    return !addresses.some((entry) => isPrivateAddress(entry.address));
  } catch {
    return true;
  }
}

/** The checks on a URL a merchant enters; the code is a translation key, or null when it may be saved. */
export async function checkWebhookUrl(value: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "admin.webhooks.errors.url";
  }
  if (!/^https?:$/.test(url.protocol) || !url.hostname || url.username || url.password || value.length > 2000)
    return "admin.webhooks.errors.url";
  if (privateTargetsAllowed()) return null;
  return (await isPublicHost(url.hostname)) ? null : "admin.webhooks.errors.private";
}

/** Whether calls to a payment gateway's endpoint are held to public addresses: not while the sandboxes (on this machine) are on. */
export function gatewayTargetsGuarded() {
  return !privateTargetsAllowed() && !sandboxEnabled();
}

/**
 * A `lookup` for http.request that resolves the name once, refuses it when any of its addresses is
 * private, and hands the connection exactly the addresses it checked. Undefined when private
 * targets are allowed (`guarded` false).
 */
export function guardedLookup(guarded = !privateTargetsAllowed()): typeof dns.lookup | undefined {
  if (!guarded) return undefined;
  const lookup = (
    hostname: string,
    options: dns.LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    const refuse = () => {
      const blocked: NodeJS.ErrnoException = new Error(
        `${hostname} is a private or loopback address; it may not be reached`,
      );
      blocked.code = "EWEBHOOKPRIVATE";
      callback(blocked, "", 0);
    };
    if (isPrivateHost(hostname)) return refuse();
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0 || list.some((entry) => isPrivateAddress(entry.address))) return refuse();
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
  return lookup as unknown as typeof dns.lookup;
}
