import { randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { inRequestScope, log, type RequestScope } from "~/lib/log.server";
import { httpDuration, metricsExposition } from "~/lib/metrics.server";

/**
 * What the HTTP server tells its operator (docs/decisions/0043): every request gets an id of ours
 * (sent back as `X-Request-Id`, written on its log lines and audit entries), one log line when it
 * ends (route id, status, duration; never its address bar, which can carry a pay link or a reset
 * token), and its duration in the metrics; `/metrics` answers the Prometheus scraper.
 */

type Next = (error?: unknown) => void;

/** The route a path is served by, named by its id (a bounded set, fit for a metric label). */
function routeNamer(build: ServerBuild) {
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    list.push({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
    } as RouteObject);
    children.set(route.parentId, list);
  }
  const attach = (route: RouteObject): RouteObject => {
    const below = children.get(route.id);
    return below && !route.index ? { ...route, children: below.map(attach) } : route;
  };
  const tree = (children.get(undefined) ?? []).map(attach);
  return (pathname: string) => {
    if (pathname.startsWith("/assets/")) return "assets";
    const matches = matchRoutes(tree, pathname);
    return matches?.[matches.length - 1]?.route.id ?? "unmatched";
  };
}

export function createRequestObserver(build: ServerBuild) {
  const routeOf = routeNamer(build);
  return (req: IncomingMessage & { path?: string }, res: ServerResponse, next: Next) => {
    const scope: RequestScope = { requestId: randomUUID() };
    const started = performance.now();
    res.setHeader("X-Request-Id", scope.requestId);
    res.once("close", () => {
      const route = routeOf(req.path ?? new URL(req.url ?? "/", "http://localhost").pathname);
      const status = res.writableFinished ? res.statusCode : 499;
      const seconds = (performance.now() - started) / 1000;
      httpDuration.observe({ route, method: req.method ?? "GET", status: String(status) }, seconds);
      const line = {
        request_id: scope.requestId,
        ...(scope.merchantId !== undefined && { merchant_id: scope.merchantId }),
        method: req.method,
        route,
        status,
        duration_ms: Math.round(seconds * 1000),
      };
      if (status >= 500) log.error(line, "request");
      else log.info(line, "request");
    });
    inRequestScope(scope, next);
  };
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

function sameSecret(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `/metrics`: with METRICS_TOKEN set, only `Authorization: Bearer <token>`; without it, only a
 * scraper on this host: a loopback connection that came through no proxy (a proxy on the same host
 * would make every visitor look local, so any forwarding header is refused).
 */
export function metricsAllowed(req: IncomingMessage, token: string | undefined) {
  if (token) {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    return match !== null && sameSecret(match[1], token);
  }
  const forwarded =
    req.headers["x-forwarded-for"] !== undefined ||
    req.headers.forwarded !== undefined ||
    req.headers["x-real-ip"] !== undefined;
  return !forwarded && LOOPBACK.has(req.socket.remoteAddress ?? "");
}

export function createMetricsHandler() {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const token = process.env.METRICS_TOKEN?.trim() || undefined;
    if (!metricsAllowed(req, token)) {
      res.statusCode = token ? 401 : 403;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      if (token) res.setHeader("WWW-Authenticate", "Bearer");
      res.end(token ? "Unauthorized" : "Forbidden");
      return;
    }
    const { contentType, body } = await metricsExposition();
    res.setHeader("Content-Type", contentType);
    res.setHeader("Cache-Control", "no-store");
    res.end(body);
  };
}
