import { BlockList, isIP } from "node:net";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { randomToken, sha256 } from "~/lib/crypto.server";
import { refuse, type Refusal } from "~/lib/outcome";
import { permissionsOf } from "./users.server";

/**
 * API keys for merchants' servers (`Authorization: Api-Key <key>`). A key acts as a user of kind
 * `api_key` made for it, so everything it does is scoped to its merchant, checked against
 * permissions and written in the audit log under its own name, as a person's actions are. The key
 * itself is shown once and stored as a SHA-256 hash (it is 256 random bits: no slow hash needed).
 */

/** What a scope's operation lets the key do, as permissions. */
export const SCOPE_OPERATIONS = {
  read: ["view_paymenttransaction", "search_paymenttransaction", "view_paymenttransaction_statistics"],
  write: ["add_paymenttransaction", "change_paymenttransaction", "delete_paymenttransaction"],
  refund: ["refund_paymenttransaction"],
  capture: ["capture_paymenttransaction"],
  void: ["void_paymenttransaction"],
} as const satisfies Record<string, readonly string[]>;

export type ScopeOperation = keyof typeof SCOPE_OPERATIONS;
const OPERATIONS = Object.keys(SCOPE_OPERATIONS) as ScopeOperation[];

/** Plugin → the permissions the key holds on it ("*": on every plugin). */
export type ApiKeyGrants = Record<string, string[]>;

const MAX_SCOPES = 50;
const MAX_ADDRESSES = 50;
const MAX_GRACE_SECONDS = 7 * 24 * 3600;
const LAST_USED_EVERY_MS = 30_000;
export const API_KEY_NAME_MAX = 100;

/**
 * Set-up scopes: what a key may do in a section's management API, as that section's own
 * permissions, declared by the section (`apiSetupScope`). `menu` is food ordering's menu, branches,
 * delivery areas and vouchers, `events` the events on sale; `catalogue` is also a section with
 * transactions, so its `read` and `write` cover both. The wildcards (`*`, `*:read`, `*:write`) cover them too.
 */
export type SetupAreaRule = { plugin: string; read: readonly string[]; write: readonly string[] };
let setupAreas: Readonly<Record<string, SetupAreaRule>> = {};

let keyPlugins: readonly string[] = [];

/** Connected at start from the registry: the sections an API key's scopes may name (those that list transactions). */
export function connectApiKeyPlugins(plugins: readonly string[]) {
  keyPlugins = plugins;
}

/** The sections an API key's scopes may name, as connected at start. */
export function apiKeyPlugins(): readonly string[] {
  return keyPlugins;
}

/** Connected at start from the sections' declarations (apiSetupScope). */
export function connectSetupAreas(areas: Readonly<Record<string, SetupAreaRule>>) {
  setupAreas = areas;
}

/** The set-up area's rule: which section it belongs to and what its operations grant. */
export function setupAreaRule(area: SetupArea): SetupAreaRule {
  const rule = setupAreas[area];
  if (!rule) throw new Error(`No section declares the API set-up area ${area}`);
  return rule;
}

export type SetupArea = string;
export const SETUP_OPERATIONS = ["read", "write"] as const;
type SetupOperation = (typeof SETUP_OPERATIONS)[number];

/** The set-up areas whose section is among `known` (a section not built has no management API). */
export function setupAreasOf(known: readonly string[]): SetupArea[] {
  return Object.keys(setupAreas).filter((area) => known.includes(setupAreas[area].plugin));
}

/**
 * Scopes as `plugin:operation` (`payment_request:refund`), `plugin` (every operation on it),
 * `*:operation` or `*`, `known` being the plugins a scope may name (the sections with transactions),
 * and set-up scopes `area:read`, `area:write` or `area` (connectSetupAreas). Returns the grants (a set-up
 * area's under its own name), or the scopes it does not know.
 */
export function parseScopes(
  scopes: readonly string[],
  known: readonly string[],
): { ok: true; grants: ApiKeyGrants } | { ok: false; unknown: string[] } {
  const plugins = new Set(known);
  const areas = setupAreasOf(known);
  const grants: Record<string, Set<string>> = {};
  const unknown: string[] = [];
  const grant = (name: string, permissions: readonly string[]) => {
    grants[name] ??= new Set();
    for (const permission of permissions) grants[name].add(permission);
  };
  for (const scope of scopes) {
    const [name, operation, extra] = scope.split(":");
    const onTransactions = name === "*" || plugins.has(name);
    const scopeAreas = name === "*" ? areas : areas.filter((area) => area === name);
    const operations =
      operation === undefined
        ? OPERATIONS
        : OPERATIONS.includes(operation as ScopeOperation)
          ? [operation as ScopeOperation]
          : [];
    const setupOperations = operations.filter((op): op is SetupOperation =>
      (SETUP_OPERATIONS as readonly string[]).includes(op),
    );
    const recognised = onTransactions ? operations.length > 0 : scopeAreas.length > 0 && setupOperations.length > 0;
    if (extra !== undefined || !recognised) {
      unknown.push(scope);
      continue;
    }
    if (onTransactions) for (const op of operations) grant(name, SCOPE_OPERATIONS[op]);
    for (const area of scopeAreas) for (const op of setupOperations) grant(area, setupAreaRule(area)[op]);
  }
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, grants: Object.fromEntries(Object.entries(grants).map(([name, set]) => [name, [...set].sort()])) };
}

/** The permissions a key holds on one plugin; empty when it may not touch it. */
export function grantsOn(grants: ApiKeyGrants, plugin: string): string[] {
  return [...new Set([...(grants["*"] ?? []), ...(grants[plugin] ?? [])])];
}

/** The permissions a key holds in a set-up area's management API; empty when its scopes name none there. */
export function setupGrantsOn(grants: ApiKeyGrants, area: SetupArea): string[] {
  const own: readonly string[] = [...setupAreaRule(area).read, ...setupAreaRule(area).write];
  return (grants[area] ?? []).filter((permission) => own.includes(permission));
}

function allowList(addresses: readonly string[]) {
  const list = new BlockList();
  for (const entry of addresses) {
    const [address, bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** An address (`203.0.113.7`) or a CIDR range (`203.0.113.0/24`, `2001:db8::/32`). */
export function isAddressEntry(entry: string) {
  const [address, bits, extra] = entry.split("/");
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function normalAddress(ip: string) {
  return ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

function newKey() {
  const prefix = `kp_${randomToken(6)}`;
  return { prefix, key: `${prefix}_${randomToken(32)}` };
}

export type ApiKeyView = {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  allowed_ips: string[];
  expires_at: string | null;
  created: string;
  created_by: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  rotated_at: string | null;
  previous_valid_until: string | null;
  revoked_at: string | null;
  is_active: boolean;
};

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

const keysOf = (db: DB, merchantId: number) =>
  db
    .selectFrom("api_keys")
    .leftJoin("users as creator", "creator.id", "api_keys.created_by")
    .select([
      "api_keys.id",
      "api_keys.name",
      "api_keys.prefix",
      "api_keys.scopes",
      "api_keys.allowed_ips",
      "api_keys.expires_at",
      "api_keys.created_at",
      "api_keys.last_used_at",
      "api_keys.last_used_ip",
      "api_keys.rotated_at",
      "api_keys.previous_valid_until",
      "api_keys.revoked_at",
      "creator.username as creator",
    ])
    .where("api_keys.merchant_id", "=", merchantId);

type KeyRow = Awaited<ReturnType<ReturnType<typeof keysOf>["executeTakeFirstOrThrow"]>>;

function view(row: KeyRow): ApiKeyView {
  const expires = iso(row.expires_at);
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes),
    allowed_ips: JSON.parse(row.allowed_ips),
    expires_at: expires,
    created: iso(row.created_at)!,
    created_by: row.creator ?? null,
    last_used_at: iso(row.last_used_at),
    last_used_ip: row.last_used_ip,
    rotated_at: iso(row.rotated_at),
    previous_valid_until: iso(row.previous_valid_until),
    revoked_at: iso(row.revoked_at),
    is_active: !row.revoked_at && (!expires || new Date(expires) > now()),
  };
}

export async function listApiKeys(db: DB, merchantId: number): Promise<ApiKeyView[]> {
  return (await keysOf(db, merchantId).orderBy("api_keys.id", "desc").execute()).map(view);
}

export async function findApiKey(db: DB, merchantId: number, id: number): Promise<ApiKeyView | undefined> {
  const row = await keysOf(db, merchantId).where("api_keys.id", "=", id).executeTakeFirst();
  return row && view(row);
}

export type ApiKeyInput = {
  name: string;
  scopes: string[];
  grants: ApiKeyGrants;
  allowedIps: string[];
  expiresAt: Date | null;
};
type Manager = {
  id: number;
  username: string;
  merchantId: number;
  is_superuser?: number | boolean;
  permissions?: readonly string[];
};

/** Checks a key's fields; the codes are translation keys under admin.api_keys.errors. */
export function checkApiKeyInput(
  input: { name: unknown; scopes: unknown; allowed_ips?: unknown; expires_at?: unknown },
  plugins: readonly string[],
): { ok: true; value: ApiKeyInput } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name) errors.name = ["admin.api_keys.errors.name"];
  else if (name.length > API_KEY_NAME_MAX) errors.name = ["admin.api_keys.errors.name_long"];
  const scopes =
    Array.isArray(input.scopes) && input.scopes.every((scope) => typeof scope === "string")
      ? [...new Set(input.scopes as string[])]
      : null;
  if (!scopes || scopes.length === 0 || scopes.length > MAX_SCOPES) errors.scopes = ["admin.api_keys.errors.scopes"];
  else if (!parseScopes(scopes, plugins).ok) errors.scopes = ["admin.api_keys.errors.scope_unknown"];
  const rawIps = input.allowed_ips ?? [];
  const allowedIps =
    Array.isArray(rawIps) && rawIps.every((entry) => typeof entry === "string")
      ? [...new Set((rawIps as string[]).map((entry) => entry.trim()).filter(Boolean))]
      : null;
  if (!allowedIps || allowedIps.length > MAX_ADDRESSES || !allowedIps.every(isAddressEntry))
    errors.allowed_ips = ["admin.api_keys.errors.allowed_ips"];
  let expiresAt: Date | null = null;
  if (input.expires_at !== undefined && input.expires_at !== null && input.expires_at !== "") {
    const parsed =
      typeof input.expires_at === "string" && /^\d{4}-\d{2}-\d{2}/.test(input.expires_at)
        ? new Date(input.expires_at)
        : null;
    if (!parsed || Number.isNaN(parsed.getTime())) errors.expires_at = ["admin.api_keys.errors.expires_at"];
    else if (parsed <= now()) errors.expires_at = ["admin.api_keys.errors.expires_past"];
    else expiresAt = parsed;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const parsed = parseScopes(scopes!, plugins);
  return {
    ok: true,
    value: { name, scopes: scopes!, grants: parsed.ok ? parsed.grants : {}, allowedIps: allowedIps!, expiresAt },
  };
}

/** The permissions of every plugin a key is granted, as its user holds them. */
function unionOf(grants: ApiKeyGrants) {
  return [...new Set(Object.values(grants).flat())];
}

/** Whether a manager may give a key these grants: a superuser any; anyone else only permissions they hold. */
function mayGrantKey(manager: Manager, grants: ApiKeyGrants) {
  if (manager.is_superuser) return true;
  const held = new Set(manager.permissions ?? []);
  return unionOf(grants).every((permission) => held.has(permission));
}

/** A new key, returned once with its secret; refused when it would do more than its creator may. */
export async function createApiKey(
  db: DB,
  input: { manager: Manager; key: ApiKeyInput; ip?: string | null },
): Promise<{ ok: true; id: number; key: string; prefix: string } | Refusal> {
  if (!mayGrantKey(input.manager, input.key.grants))
    return refuse("admin.api_keys.errors.scopes_held", { field: "scopes" });
  const { prefix, key } = newKey();
  const created = nowIso();
  return writeTransaction(db, async (trx) => {
    const user = await trx
      .insertInto("users")
      .values({
        merchant_id: input.manager.merchantId,
        // `:` is outside the username rule, so no person can ever be named like a key.
        username: `api-key:${prefix}`,
        email: "",
        first_name: input.key.name.slice(0, 150),
        last_name: "",
        password_hash: "!",
        kind: "api_key",
        created_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const permissions = unionOf(input.key.grants);
    if (permissions.length)
      await trx
        .insertInto("user_permissions")
        .values(permissions.map((permission) => ({ user_id: user.id, permission })))
        .execute();
    const row = await trx
      .insertInto("api_keys")
      .values({
        merchant_id: input.manager.merchantId,
        user_id: user.id,
        name: input.key.name,
        prefix,
        key_hash: sha256(key),
        scopes: JSON.stringify(input.key.scopes),
        allowed_ips: JSON.stringify(input.key.allowedIps),
        expires_at: input.key.expiresAt?.toISOString() ?? null,
        created_by: input.manager.id,
        created_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await audit(trx, input.manager, "api_key_created", row.id, { name: input.key.name, prefix }, input.ip);
    return { ok: true as const, id: row.id, key, prefix };
  });
}

function audit(
  db: DB,
  manager: Manager,
  action: string,
  id: number,
  params: { name: string; prefix: string },
  ip?: string | null,
) {
  return recordAudit(db, {
    merchantId: manager.merchantId,
    actor: { id: manager.id, username: manager.username },
    action,
    params,
    objectType: "api_key",
    objectId: id,
    ip: ip ?? null,
  });
}

/**
 * A new secret for a key; the old one keeps working for `graceSeconds` (0: refused at once), so a
 * merchant's servers can change over without an outage. A key rotated again during a grace period
 * ends that period: only the key just replaced is still accepted.
 */
export async function rotateApiKey(
  db: DB,
  input: { manager: Manager; id: number; graceSeconds: number; ip?: string | null },
): Promise<{ ok: true; id: number; key: string; prefix: string; previous_valid_until: string | null } | Refusal> {
  const grace = Math.max(0, Math.min(MAX_GRACE_SECONDS, Math.floor(input.graceSeconds)));
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("api_keys")
      .select(["id", "name", "prefix", "key_hash", "revoked_at", "expires_at"])
      .where("id", "=", input.id)
      .where("merchant_id", "=", input.manager.merchantId)
      .$if(engineOf(trx) === "postgres", (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) return refuse("admin.api_keys.errors.not_found");
    if (row.revoked_at) return refuse("admin.api_keys.errors.revoked");
    const key = `${row.prefix}_${randomToken(32)}`;
    const until = grace > 0 ? addMs(now(), grace * 1000).toISOString() : null;
    await trx
      .updateTable("api_keys")
      .set({
        key_hash: sha256(key),
        previous_key_hash: grace > 0 ? row.key_hash : null,
        previous_valid_until: until,
        rotated_at: nowIso(),
      })
      .where("id", "=", row.id)
      .execute();
    await audit(trx, input.manager, "api_key_rotated", row.id, { name: row.name, prefix: row.prefix }, input.ip);
    return { ok: true as const, id: row.id, key, prefix: row.prefix, previous_valid_until: until };
  });
}

/** Revokes a key: refused from the next request on, old and new secret alike. */
export async function revokeApiKey(
  db: DB,
  input: { manager: Manager; id: number; ip?: string | null },
): Promise<{ ok: true } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("api_keys")
      .select(["id", "name", "prefix", "user_id", "revoked_at"])
      .where("id", "=", input.id)
      .where("merchant_id", "=", input.manager.merchantId)
      .$if(engineOf(trx) === "postgres", (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) return refuse("admin.api_keys.errors.not_found");
    if (row.revoked_at) return { ok: true as const };
    await trx
      .updateTable("api_keys")
      .set({ revoked_at: nowIso(), previous_key_hash: null, previous_valid_until: null })
      .where("id", "=", row.id)
      .execute();
    await trx.updateTable("users").set({ is_active: 0 }).where("id", "=", row.user_id).execute();
    await audit(trx, input.manager, "api_key_revoked", row.id, { name: row.name, prefix: row.prefix }, input.ip);
    return { ok: true as const };
  });
}

export type KeyAuthentication =
  | {
      ok: true;
      userId: number;
      merchantId: number;
      keyId: number;
      /** What the key's scopes grant that its creator still holds. */
      grants: ApiKeyGrants;
      /** What its scopes grant that its creator no longer holds: refused, and said so. */
      withdrawn: ApiKeyGrants;
      /** Every permission its creator holds now ("all" for a superuser). */
      creatorHolds: string[] | "all";
    }
  | { ok: false; reason: "invalid" | "address" | "creator" };

/** Grants split by whether `held` (null: everything) has each permission. */
function splitGrants(grants: ApiKeyGrants, held: Set<string> | null) {
  const kept: ApiKeyGrants = {};
  const withdrawn: ApiKeyGrants = {};
  for (const [name, permissions] of Object.entries(grants)) {
    kept[name] = permissions.filter((permission) => !held || held.has(permission));
    withdrawn[name] = permissions.filter((permission) => held && !held.has(permission));
  }
  return { kept, withdrawn };
}

/**
 * The key behind an `Api-Key` header: live (not revoked, not expired; its previous secret only
 * within its grace period) and used from an allowed address. Notes when and from where it was
 * last used (at most every 30 seconds, so a busy server does not write on every call).
 *
 * A key never does more than the person who made it may do now: its creator's permissions are
 * read on every call, so a permission taken from them is taken from their keys at once, and a key
 * whose creator was deactivated (or deleted) is refused.
 */
export async function authenticateApiKey(
  db: DB,
  key: string,
  ip: string | null,
  plugins: readonly string[],
): Promise<KeyAuthentication> {
  if (!/^kp_[\w-]{8}_[\w-]{43}$/.test(key)) return { ok: false, reason: "invalid" };
  const hash = sha256(key);
  const current = now();
  const row = await db
    .selectFrom("api_keys")
    .select([
      "id",
      "merchant_id",
      "user_id",
      "created_by",
      "key_hash",
      "previous_valid_until",
      "scopes",
      "allowed_ips",
      "expires_at",
      "revoked_at",
      "last_used_at",
      "last_used_ip",
    ])
    .where((eb) => eb.or([eb("key_hash", "=", hash), eb("previous_key_hash", "=", hash)]))
    .executeTakeFirst();
  if (!row || row.revoked_at) return { ok: false, reason: "invalid" };
  if (row.expires_at && new Date(row.expires_at as string) <= current) return { ok: false, reason: "invalid" };
  if (row.key_hash !== hash && !(row.previous_valid_until && new Date(row.previous_valid_until as string) > current))
    return { ok: false, reason: "invalid" };
  const allowed: string[] = JSON.parse(row.allowed_ips);
  const address = ip ? normalAddress(ip) : null;
  if (
    allowed.length &&
    (!address || !isIP(address) || !allowList(allowed).check(address, isIP(address) === 6 ? "ipv6" : "ipv4"))
  ) {
    return { ok: false, reason: "address" };
  }
  const creator =
    row.created_by === null
      ? undefined
      : await db
          .selectFrom("users")
          .select(["id", "merchant_id", "is_active", "is_superuser"])
          .where("id", "=", row.created_by)
          .executeTakeFirst();
  if (!creator || !creator.is_active || creator.merchant_id !== row.merchant_id)
    return { ok: false, reason: "creator" };
  // Scopes naming a section no longer there grant nothing; the others still work.
  const areas: readonly string[] = setupAreasOf(plugins);
  const parsed = parseScopes(
    (JSON.parse(row.scopes) as string[]).filter(
      (scope) => scope.startsWith("*") || plugins.includes(scope.split(":")[0]) || areas.includes(scope.split(":")[0]),
    ),
    plugins,
  );
  if (!parsed.ok) return { ok: false, reason: "invalid" };
  const held = creator.is_superuser ? null : new Set(await permissionsOf(db, creator.id));
  const { kept, withdrawn } = splitGrants(parsed.grants, held);
  const lastUsed = row.last_used_at ? new Date(row.last_used_at as string).getTime() : 0;
  if (current.getTime() - lastUsed > LAST_USED_EVERY_MS || row.last_used_ip !== address) {
    await db
      .updateTable("api_keys")
      .set({ last_used_at: current.toISOString(), last_used_ip: address })
      .where("id", "=", row.id)
      .execute();
  }
  return {
    ok: true,
    userId: row.user_id,
    merchantId: row.merchant_id,
    keyId: row.id,
    grants: kept,
    withdrawn,
    creatorHolds: held ? [...held] : "all",
  };
}
