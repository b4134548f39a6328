import { env } from "~/lib/env.server";
import { readCookie } from "~/web/session-cookie.server";
import { PASS_MS } from "../../domain/waiting-zone.server";

/*
 * The waiting zone's two cookies, one pair per event: the customer's place in the queue (a random
 * token) and, once let in, the signed pass to the registration (waiting-zone.server.ts).
 */

const queueCookieName = (eventId: number) => `kp_event_queue_${eventId}`;
const passCookieName = (eventId: number) => `kp_event_pass_${eventId}`;

/** The header an API client may send the pass in, instead of the cookie. */
export const PASS_HEADER = "Event-Pass";

function cookie(request: Request, name: string, value: string, maxAgeSeconds: number) {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (new URL(request.url).protocol === "https:" || env().BASE_URL?.startsWith("https:")) parts.push("Secure");
  return parts.join("; ");
}

export function readQueueToken(request: Request, eventId: number) {
  return readCookie(request, queueCookieName(eventId));
}

/** The pass a customer's browser (or an API client) presents for an event. */
export function readPass(request: Request, eventId: number) {
  return readCookie(request, passCookieName(eventId)) ?? request.headers.get(PASS_HEADER);
}

export function queueCookie(request: Request, eventId: number, token: string) {
  return cookie(request, queueCookieName(eventId), token, 6 * 60 * 60);
}

export function passCookie(request: Request, eventId: number, pass: string, expiresAt: Date, at: Date) {
  return cookie(
    request,
    passCookieName(eventId),
    pass,
    Math.max(1, Math.min(PASS_MS / 1000, Math.ceil((expiresAt.getTime() - at.getTime()) / 1000))),
  );
}

export function clearPassCookie(request: Request, eventId: number) {
  return cookie(request, passCookieName(eventId), "", 0);
}
