import { env } from "~/lib/env.server";

/* The shop cart's cookie: the signed token of the visitor's cart (domain/cart.server.ts). */

const CART_COOKIE = "kp_catalogue_cart";
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The cookie's value from a Cookie header (the list page is also served without a Request). */
export function readCartCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const index = part.indexOf("=");
    if (index === -1 || part.slice(0, index).trim() !== CART_COOKIE) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

export function cartCookie(request: Request, signed: string) {
  const parts = [
    `${CART_COOKIE}=${encodeURIComponent(signed)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${MAX_AGE_SECONDS}`,
  ];
  if (new URL(request.url).protocol === "https:" || env().BASE_URL?.startsWith("https:")) parts.push("Secure");
  return parts.join("; ");
}
