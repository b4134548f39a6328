import { noteMerchant } from "~/lib/log.server";
import type { RouterContextProvider } from "react-router";
import { authenticateAccessToken } from "~/domain/identity/api-tokens.server";
import { can, type Permission } from "~/domain/identity/permissions";
import { loadSessionUser, type SessionUser } from "~/domain/identity/users.server";
import { languageFromHeader, translator, type Language } from "~/lib/i18n.server";
import {
  apiKeyPlugins,
  authenticateApiKey,
  grantsOn,
  setupAreaRule,
  setupGrantsOn,
  type ApiKeyGrants,
  type SetupArea,
} from "~/domain/identity/api-keys.server";
import { clientAddressContext, getDbFrom } from "./request-context.server";

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
export async function requireApiUser(
  request: Request,
  context: Context,
  options: { apiKey?: boolean } = {},
): Promise<{ user: SessionUser; sessionId: string }> {
  const header = request.headers.get("Authorization") ?? "";
  const keyMatch = /^Api-Key\s+(\S+)$/i.exec(header);
  if (keyMatch) {
    const user = await requireKeyUser(request, context, keyMatch[1], options.apiKey === true);
    noteMerchant(user.merchantId);
    return { user, sessionId: "" };
  }
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw apiDetail(request, "api.not_authenticated", 401, undefined);
  const db = getDbFrom(context);
  const session = await authenticateAccessToken(db, match[1], await getAppSecret(db));
  const user = session ? await loadSessionUser(db, session.user_id) : undefined;
  if (!session || !user || user.merchantId !== session.merchant_id) {
    throw apiDetail(request, "api.token_invalid", 401, { code: "token_not_valid" });
  }
  noteMerchant(user.merchantId);
  return { user, sessionId: session.id };
}

async function requireKeyUser(request: Request, context: Context, key: string, allowed: boolean): Promise<SessionUser> {
  const db = getDbFrom(context);
  const found = await authenticateApiKey(db, key, context.get(clientAddressContext), apiKeyPlugins());
  if (!found.ok) {
    if (found.reason === "creator")
      throw apiDetail(request, "api.key_creator_inactive", 403, { code: "api_key_creator_inactive" });
    throw apiDetail(
      request,
      found.reason === "address" ? "api.key_address" : "api.key_invalid",
      found.reason === "address" ? 403 : 401,
    );
  }
  if (!allowed) throw apiDetail(request, "api.key_not_here", 403);
  const user = await loadSessionUser(db, found.userId);
  if (!user || user.merchantId !== found.merchantId) throw apiDetail(request, "api.key_invalid", 401);
  const holds = found.creatorHolds;
  const permissions =
    holds === "all" ? user.permissions : user.permissions.filter((permission) => holds.includes(permission));
  return { ...user, permissions, apiKey: { id: found.keyId, grants: found.grants, withdrawn: found.withdrawn } };
}

/** A key's user with the permissions of one plugin's or area's grants, or null when its scopes name nothing there. */
function narrowKeyUser(user: SessionUser, granted: (grants: ApiKeyGrants) => string[]): SessionUser | null {
  if (!user.apiKey) return user;
  const permissions = granted(user.apiKey.grants);
  const withdrawn = granted(user.apiKey.withdrawn);
  if (!permissions.length && !withdrawn.length) return null;
  return { ...user, permissions, apiKey: { ...user.apiKey, withdrawn: { here: withdrawn } } };
}

/**
 * The user as they may act on one plugin: a person as they are; an API key with only what its
 * scopes grant on that plugin, or null when they grant nothing there (answer as if it did not exist).
 */
export function userOnPlugin(user: SessionUser, plugin: string): SessionUser | null {
  return narrowKeyUser(user, (grants) => grantsOn(grants, plugin));
}

/**
 * The user as they may act in a section's management API (products, the food menu, events): an
 * API key with what its set-up scopes grant there (`menu:write`…), or null when its scopes name
 * neither the area nor its section.
 */
export function userInSetup(user: SessionUser, area: SetupArea): SessionUser | null {
  if (!user.apiKey) return user;
  const inArea = narrowKeyUser(user, (grants) => setupGrantsOn(grants, area));
  return (
    inArea ??
    (userOnPlugin(user, setupAreaRule(area).plugin)
      ? { ...user, permissions: [], apiKey: { ...user.apiKey, withdrawn: {} } }
      : null)
  );
}

/**
 * 403 unless the user may. A key refused only because its creator no longer holds the permission
 * says so (`api_key_creator_lacks_permission`), so the merchant knows why a key that worked stopped.
 */
export function requireApiPermission(request: Request, user: SessionUser, permission: Permission) {
  if (can(user, permission)) return;
  if (user.apiKey && Object.values(user.apiKey.withdrawn).some((withdrawn) => withdrawn.includes(permission))) {
    throw apiDetail(request, "api.key_creator_lacks_permission", 403, { code: "api_key_creator_lacks_permission" });
  }
  throw apiDetail(request, "api.permission_denied", 403);
}

export function methodNotAllowed(request: Request) {
  return apiDetail(request, "api.method_not_allowed", 405);
}

export function str(value: unknown, max = 500): string {
  return typeof value === "string"
    ? value.slice(0, max)
    : value === undefined || value === null
      ? ""
      : String(value).slice(0, max);
}
