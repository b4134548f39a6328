import type { RouterContextProvider } from "react-router";
import { authenticateAccessToken } from "~/domain/identity/api-tokens.server";
import { can, type Permission } from "~/domain/identity/permissions";
import { loadSessionUser, type SessionUser } from "~/domain/identity/users.server";
import { languageFromHeader, translator, type Language } from "~/lib/i18n.server";
import { authenticateApiKey, grantsOn } from "~/domain/identity/api-keys.server";
import { clientAddressContext, getDbFrom } from "./request-context.server";
import { TRANSACTION_SECTIONS } from "~/sections/registry";

/** The plugins an API key's scopes may name: the built sections that list transactions. */
export const API_KEY_PLUGINS: readonly string[] = TRANSACTION_SECTIONS.filter((section) => section.built).map((section) => section.key);
import { getAppSecret } from "~/lib/secret.server";

type Context = Readonly<RouterContextProvider>;

const MAX_BODY_BYTES = 64 * 1024;

export function apiLanguage(request: Request): Language {
  return languageFromHeader(request.headers.get("Accept-Language"));
}

export function apiJson(body: unknown, status = 200, headers?: HeadersInit) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** DRF's error shape: {"field": ["message"]}, with messages translated from their keys. */
export function apiErrors(request: Request, errors: Record<string, string[]>, status = 400) {
  const t = translator(apiLanguage(request));
  const body = Object.fromEntries(Object.entries(errors).map(([field, keys]) => [field, keys.map((k) => t(k))]));
  return apiJson(body, status);
}

export function apiDetail(request: Request, key: string, status: number, extra?: Record<string, unknown>) {
  return apiJson({ detail: translator(apiLanguage(request))(key), ...extra }, status);
}

/** A JSON (or form-encoded) body of at most 64 KB, as a plain object of its fields. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > MAX_BODY_BYTES) throw apiDetail(request, "errors.too_large", 413);
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw apiDetail(request, "errors.too_large", 413);
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  if (!text.trim()) return {};
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
  } catch {}
  throw apiDetail(request, "api.invalid_body", 400);
}

/**
 * The user behind a bearer access token; 401 in DRF's words otherwise. Endpoints a merchant's
 * server may call (`apiKey: true`) also take `Authorization: Api-Key <key>`: the key's own user,
 * with the key's grants; elsewhere a key is refused with 403.
 */
export async function requireApiUser(request: Request, context: Context, options: { apiKey?: boolean } = {}): Promise<{ user: SessionUser; sessionId: string }> {
  const header = request.headers.get("Authorization") ?? "";
  const keyMatch = /^Api-Key\s+(\S+)$/i.exec(header);
  if (keyMatch) return { user: await requireKeyUser(request, context, keyMatch[1], options.apiKey === true), sessionId: "" };
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw apiDetail(request, "api.not_authenticated", 401, undefined);
  const db = getDbFrom(context);
  const session = await authenticateAccessToken(db, match[1], await getAppSecret(db));
  const user = session ? await loadSessionUser(db, session.user_id) : undefined;
  if (!session || !user || user.merchantId !== session.merchant_id) {
    throw apiDetail(request, "api.token_invalid", 401, { code: "token_not_valid" });
  }
  return { user, sessionId: session.id };
}

async function requireKeyUser(request: Request, context: Context, key: string, allowed: boolean): Promise<SessionUser> {
  const db = getDbFrom(context);
  const found = await authenticateApiKey(db, key, context.get(clientAddressContext), API_KEY_PLUGINS);
  if (!found.ok) throw apiDetail(request, found.reason === "address" ? "api.key_address" : "api.key_invalid", found.reason === "address" ? 403 : 401);
  if (!allowed) throw apiDetail(request, "api.key_not_here", 403);
  const user = await loadSessionUser(db, found.userId);
  if (!user || user.merchantId !== found.merchantId) throw apiDetail(request, "api.key_invalid", 401);
  return { ...user, apiKey: { id: found.keyId, grants: found.grants } };
}

/**
 * The user as they may act on one plugin: a person as they are; an API key with only what its
 * scopes grant on that plugin, or null when they grant nothing there (answer as if it did not exist).
 */
export function userOnPlugin(user: SessionUser, plugin: string): SessionUser | null {
  if (!user.apiKey) return user;
  const permissions = grantsOn(user.apiKey.grants, plugin);
  return permissions.length ? { ...user, permissions } : null;
}

export function requireApiPermission(request: Request, user: SessionUser, permission: Permission) {
  if (!can(user, permission)) throw apiDetail(request, "api.permission_denied", 403);
}

export function methodNotAllowed(request: Request) {
  return apiDetail(request, "api.method_not_allowed", 405);
}

export function str(value: unknown, max = 500): string {
  return typeof value === "string" ? value.slice(0, max) : value === undefined || value === null ? "" : String(value).slice(0, max);
}
