import { env } from "~/lib/env.server";
import { readCookie } from "~/web/session-cookie.server";

/* The food cart's cookie: the signed token of the visitor's cart (domain/cart.server.ts). */

const CART_COOKIE = "kp_food_cart";
const MAX_AGE_SECONDS = 14 * 24 * 60 * 60;

export function readCartCookie(request: Request) {
  return readCookie(request, CART_COOKIE);
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
