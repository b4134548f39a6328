import { env } from "~/lib/env.server";

/** Headers every HTML and data response carries; the CSP only when a nonce is given (production). */
export function securityHeaders(request: Pick<Request, "url">, nonce: string | null): [string, string][] {
  const headers: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(self), geolocation=(self), microphone=()"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
  ];
  const url = new URL(request.url);
  const https = url.protocol === "https:" || Boolean(env().BASE_URL?.startsWith("https:"));
  // Pay Now posts and is redirected to the gateway's own page, which browsers check against form-action.
  const payPage = /^\/(en|ar)\/pay\//.test(url.pathname);
  // Pay Now posts and is redirected to the gateway's own page, which browsers check against form-action;
  // the delivery map fetches its style and tiles and runs its own worker.
  const formAction = payPage ? "form-action 'self' https:" : "form-action 'self'";
  const mapStyle = env().MAP_STYLE_URL;
  const connect = payPage
    ? `connect-src 'self' https:${mapStyle ? ` ${new URL(mapStyle).origin}` : ""}`
    : "connect-src 'self'";
  if (https) headers.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
  if (nonce) {
    headers.push([
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob: https:",
        "font-src 'self' data:",
        connect,
        "worker-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        formAction,
        "object-src 'none'",
      ].join("; "),
    ]);
  }
  return headers;
}
