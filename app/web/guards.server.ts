import { data, redirect, type RouterContextProvider } from "react-router";
import { can, type Permission } from "~/domain/identity/permissions";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { languageOfPath } from "~/lib/i18n";
import { authContext, getDbFrom, type Auth } from "./request-context.server";

type Context = Readonly<RouterContextProvider>;

/** The signed-in user, or a redirect to the login page that comes back here afterwards. */
export function requireUser(context: Context, request: Request): Auth {
  const auth = context.get(authContext);
  if (auth) return auth;
  const url = new URL(request.url);
  const lang = languageOfPath(url.pathname);
  const back = `${url.pathname}${url.search}`.replace(/\.data$/, "");
  throw redirect(`/${lang}/login?redirectTo=${encodeURIComponent(back)}`);
}

/** Login and its siblings: a signed-in user is sent to the dashboard root. */
export function requireAnonymous(context: Context, request: Request) {
  if (context.get(authContext)) throw redirect(`/${languageOfPath(new URL(request.url).pathname)}`);
}

export function requirePermission(auth: Auth, permission: Permission) {
  if (!can(auth.user, permission)) throw data({ reason: "forbidden" }, { status: 403 });
}

export function requireSuperuser(auth: Auth) {
  if (!auth.user.is_superuser) throw data({ reason: "forbidden" }, { status: 403 });
}

export function notFound(): never {
  throw data({ reason: "not_found" }, { status: 404 });
}

/** A section (or one of its features) the merchant does not have answers 404, as if it did not exist. */
export async function requireSection(context: Context, auth: Auth, section: string, feature?: string) {
  const available = await loadAvailableSections(getDbFrom(context), auth.user.merchantId);
  if (!hasFeature(available, section, feature)) notFound();
  return available;
}

/** A path on this site, or the fallback: never another host, however the value is dressed up. */
export function safeRedirectPath(value: unknown, fallback: string): string {
  return isLocalPath(value) ? value : fallback;
}

/** The `next` a page's address asks for, and whether it is a path on this site. */
export function askedNext(request: Request) {
  const asked = new URL(request.url).searchParams.get("next");
  return { asked, local: isLocalPath(asked) };
}

export function isLocalPath(value: unknown): value is string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return false;
  // Browsers drop tabs and newlines and read "\" as "/": "/\t/evil.example" would leave the site.
  // eslint-disable-next-line no-control-regex -- control characters are what is being refused
  if (/[\u0000-\u0020\\%]/.test(value.slice(0, 3)) || /[\u0000-\u001f\\]/.test(value)) return false;
  try {
    return new URL(value, "http://local.invalid").origin === "http://local.invalid";
  } catch {
    return false;
  }
}
