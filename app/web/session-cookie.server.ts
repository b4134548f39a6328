import { SESSION_IDLE_MS } from "~/domain/identity/sessions.server";
import { env } from "~/lib/env.server";

export const SESSION_COOKIE = "kp_session";

function isSecure(request: Request) {
  return new URL(request.url).protocol === "https:" || Boolean(env().BASE_URL?.startsWith("https:"));
}

/** Only a random id travels in the cookie; everything else stays in the database. */
export function sessionCookie(request: Request, token: string) {
  const parts = [
    `${SESSION_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${SESSION_IDLE_MS / 1000}`,
  ];
  if (isSecure(request)) parts.push("Secure");
  return parts.join("; ");
}

export const DEVICE_COOKIE = "kp_device";
const DEVICE_COOKIE_MAX_AGE_S = 365 * 86_400;

/** The browser's device token (decision 0003): it outlives sessions, and only our server reads it. */
export function deviceCookie(request: Request, token: string) {
  const parts = [
    `${DEVICE_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_S}`,
  ];
  if (isSecure(request)) parts.push("Secure");
  return parts.join("; ");
}

export function clearSessionCookie(request: Request) {
  const parts = [`${SESSION_COOKIE}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (isSecure(request)) parts.push("Secure");
  return parts.join("; ");
}

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index === -1) continue;
    if (part.slice(0, index).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}
