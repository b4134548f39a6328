import { redirect, type RouterContextProvider } from "react-router";
import { openSession } from "~/domain/identity/sessions.server";
import { env } from "~/lib/env.server";
import { clientAddressContext, getDbFrom } from "./request-context.server";
import { deviceCookie, sessionCookie } from "./session-cookie.server";

type Context = Readonly<RouterContextProvider>;

/**
 * A fresh session id for the browser at every sign-in, then on to where the user was going. A sign-in
 * with a password also gives the browser a fresh device token, which lets it sign in as this user
 * while others' wrong guesses hold the username back.
 */
export async function startWebSession(
  context: Context,
  request: Request,
  user: { id: number; merchant_id: number },
  redirectTo: string,
  deviceToken?: string,
) {
  const { token } = await openSession(getDbFrom(context), {
    userId: user.id,
    merchantId: user.merchant_id,
    kind: "web",
    ip: context.get(clientAddressContext),
    userAgent: request.headers.get("User-Agent"),
  });
  const headers = new Headers({ "Set-Cookie": sessionCookie(request, token) });
  if (deviceToken) headers.append("Set-Cookie", deviceCookie(request, deviceToken));
  return redirect(redirectTo, { headers });
}

/** The address a browser used for this request (BASE_URL when set): for redirects back to this browser. */
export function publicBaseUrl(request: Request): string {
  return (env().BASE_URL ?? new URL(request.url).origin).replace(/\/$/, "");
}

/**
 * Where links sent to people (mail, SMS, pay links) point: BASE_URL, or this machine's own address.
 * Never the request's Host header, which a caller can set to any site.
 */
export function linkBaseUrl(): string {
  const config = env();
  return (config.BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, "");
}
