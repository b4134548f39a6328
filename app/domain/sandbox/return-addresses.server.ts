import { env } from "~/lib/env.server";

/** The platform's own gateway routes, the only places a sandbox sends a browser or a notification. */
export type PlatformGatewayRoute = "mpgs/notify" | "mpgs/response" | "knet/response" | "knet/error";

/**
 * The origins this installation is known by, from its configuration alone: BASE_URL,
 * INTERNAL_BASE_URL and its loopback addresses. Never a request's Host header, which whoever
 * sends the request chooses.
 */
function configuredOrigins(): Set<string> {
  const config = env();
  const origins = new Set([
    `http://127.0.0.1:${config.PORT}`,
    `http://localhost:${config.PORT}`,
    `http://[::1]:${config.PORT}`,
  ]);
  for (const address of [config.BASE_URL, config.INTERNAL_BASE_URL]) if (address) origins.add(new URL(address).origin);
  return origins;
}

function parse(value: unknown): URL | undefined {
  if (typeof value !== "string" || value.length > 2000) return undefined;
  try {
    const url = new URL(value);
    if (!["http:", "https:"].includes(url.protocol) || url.username || url.password || url.search || url.hash)
      return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/** Whether `value` is one of this platform's gateway routes (any origin yet; see the two checks below). */
export function isGatewayRoutePath(value: unknown, route: PlatformGatewayRoute): value is string {
  const url = parse(value);
  return url !== undefined && new RegExp(`^/gateway/${route}/[A-Za-z0-9_-]{1,64}$`).test(url.pathname);
}

/**
 * Where the sandbox may call the merchant server-to-server: only this installation's own
 * notification route, at an origin of its configuration, so the sandbox can never be turned into
 * a request to another host (checked when the payment is opened and again at each delivery).
 */
export function isPlatformNotifyAddress(value: unknown): value is string {
  return isGatewayRoutePath(value, "mpgs/notify") && configuredOrigins().has(new URL(value).origin);
}

/**
 * Where the KNET sandbox's server posts a result to responseURL: the address itself when it is at
 * an origin of this installation's configuration, else the same route on this server's own
 * internal address (a demo reached at an address it was not configured with). Never another host.
 */
export function platformServerAddress(value: unknown, route: PlatformGatewayRoute): string | undefined {
  if (!isGatewayRoutePath(value, route)) return undefined;
  const url = new URL(value);
  if (configuredOrigins().has(url.origin)) return url.toString();
  const config = env();
  return `${(config.INTERNAL_BASE_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, "")}${url.pathname}`;
}

/**
 * Where the sandbox may send a customer's browser back: the platform's return route, at an origin
 * of its configuration or the very origin the browser is on now (a redirect within one site is no
 * open redirect, whatever address the demo is reached at).
 */
export function isPlatformReturnAddress(
  value: unknown,
  route: PlatformGatewayRoute,
  browserOrigin: string,
): value is string {
  if (!isGatewayRoutePath(value, route)) return false;
  const origin = new URL(value).origin;
  return origin === browserOrigin || configuredOrigins().has(origin);
}
