import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

/**
 * The platform's log: one JSON line per event on stdout (docs/decisions/0043). Each line carries the
 * request it belongs to (its id, and the merchant once known), so one request's lines are found
 * together and an audit entry points at them. `LOG_LEVEL` sets the level (info by default, warn in
 * tests); `LOG_FORMAT=pretty`, or a terminal in development, prints it for people instead.
 *
 * What is never written: bodies, cookies, authorization headers, and any field named like a secret
 * or a person's data below, wherever it sits in what is logged ("[redacted]" stands in its place).
 */

export type RequestScope = { requestId: string; merchantId?: number; routeId?: string };

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `work` as part of one request (or job): every line logged inside it names that request. */
export function inRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** The request being served, when there is one. */
export function requestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/** The merchant a request turned out to act for (its session or its API key), for its log lines. */
export function noteMerchant(merchantId: number) {
  const scope = scopes.getStore();
  if (scope) scope.merchantId = merchantId;
}

const SECRET_FIELDS = [
  "password",
  "currentPassword",
  "newPassword",
  "pin",
  "cvv",
  "cvc",
  "card",
  "cardNumber",
  "card_number",
  "pan",
  "token",
  "accessToken",
  "refreshToken",
  "apiKey",
  "api_key",
  "secret",
  "authorization",
  "cookie",
  "civil_id",
  "civilId",
  "email",
  "customer_email",
  "trandata",
  "paymentToken",
  "apiPassword",
  "api_password",
  "notificationSecret",
  "notification_secret",
  "webhookSecret",
  "resourceKey",
  "resource_key",
  "tranportal_password",
  "phone",
  "mobile",
  "customer_phone",
];

export const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

function levelOf() {
  const level = process.env.LOG_LEVEL?.trim().toLowerCase();
  if (level && ["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(level)) return level;
  return process.env.NODE_ENV === "test" ? "warn" : "info";
}

function pretty() {
  if (process.env.LOG_FORMAT === "pretty") return true;
  if (process.env.LOG_FORMAT === "json") return false;
  return process.env.NODE_ENV === "development" && process.stdout.isTTY === true;
}

export const log = pino({
  level: levelOf(),
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  mixin() {
    const scope = scopes.getStore();
    return scope
      ? { request_id: scope.requestId, ...(scope.merchantId !== undefined && { merchant_id: scope.merchantId }) }
      : {};
  },
  ...(pretty() && {
    transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" } },
  }),
});

/** An error as a log field: its message (and, below warn, its stack), never the objects it carries. */
export function errorField(error: unknown) {
  if (error instanceof Error)
    return { message: error.message, ...(log.isLevelEnabled("debug") && { stack: error.stack }) };
  return { message: String(error) };
}
