import type { DB } from "~/db/database.server";
import { addMs, now } from "~/lib/clock.server";
import { sha256 } from "~/lib/crypto.server";
import { apiErrors, apiJson } from "~/web/api.server";

export type StoredResponse = { status: number; body: unknown };

export type IdempotentOutcome =
  | { kind: "fresh"; response: StoredResponse }
  | { kind: "replayed"; response: StoredResponse }
  | { kind: "conflict" }
  | { kind: "in_progress" }
  | { kind: "invalid_key" };

/** The longest Idempotency-Key we keep; a longer one is refused, never cut (two keys would become one). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * How long a request holds its key before a retry may take it over (decision 0015). A request that
 * died (a crash, a deploy) leaves its key without a response; after the lease the key is free again.
 * Well past what a request we serve takes: a gateway call gives up after 10 s.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** JSON with every object's keys in order, at any depth: the same request whatever order its fields came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

export function requestHashOf(scope: string, request: unknown): string {
  return sha256(`${scope}\n${canonicalJson(request)}`);
}

/**
 * Who sent a key (decision 0015, addendum): a merchant's user, one of its API keys, or someone on a
 * public page or API. Each has its own keys; a key of one never answers, or blocks, another's.
 */
export type KeyCaller = { kind: "user"; userId: number } | { kind: "api_key"; apiKeyId: number } | { kind: "public" };

export const PUBLIC_CALLER: KeyCaller = { kind: "public" };

/** The caller a signed-in user or an API key is. */
export function callerOf(user: { id: number; apiKey?: { id: number } }): KeyCaller {
  return user.apiKey ? { kind: "api_key", apiKeyId: user.apiKey.id } : { kind: "user", userId: user.id };
}

/**
 * The key as stored. A public caller cannot be told from another public caller, so its key is kept
 * with the request it came with: the same key and body answer once, as for everyone, but a
 * customer who sends another customer's key with another body makes a request of its own instead
 * of spoiling theirs (there is no 422 for public callers).
 */
export function storedKeyOf(caller: KeyCaller, key: string, requestHash: string): string {
  switch (caller.kind) {
    case "user":
      return `user:${caller.userId}:${key}`;
    case "api_key":
      return `api_key:${caller.apiKeyId}:${key}`;
    case "public":
      return `public:${sha256(`${requestHash}\n${key}`)}`;
  }
}

/**
 * Runs `work` once per (merchant, caller, Idempotency-Key). The same key with the same request answers the
 * first response again and does nothing new; the same key with another request is a conflict. The
 * key is held for a lease while `work` runs: a retry meanwhile is told the request is in progress,
 * and a retry after a lease that ran out (its request died) takes the key over and runs `work`.
 */
export async function once(
  db: DB,
  input: {
    merchantId: number;
    caller: KeyCaller;
    key: string | null;
    scope: string;
    request: unknown;
    keyPrefix?: string;
  },
  work: () => Promise<StoredResponse>,
): Promise<IdempotentOutcome> {
  if (!input.key) return { kind: "fresh", response: await work() };
  if (input.key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return { kind: "invalid_key" };
  const requestHash = requestHashOf(input.scope, input.request);
  // `keyPrefix` keeps one kind of request's keys apart within a caller's (a counter's forms, a collector's payments).
  const key = {
    merchantId: input.merchantId,
    key: storedKeyOf(input.caller, `${input.keyPrefix ?? ""}${input.key}`, requestHash),
  };
  const takenAt = now();
  const lease = addMs(takenAt, IDEMPOTENCY_LEASE_MS).toISOString();
  const inserted = await db
    .insertInto("idempotency_keys")
    .values({
      merchant_id: input.merchantId,
      key: key.key,
      scope: input.scope,
      request_hash: requestHash,
      response_status: null,
      response_body: null,
      created_at: takenAt.toISOString(),
      locked_until: lease,
    })
    .onConflict((conflict) => conflict.columns(["merchant_id", "key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const existing = await db
      .selectFrom("idempotency_keys")
      .select(["request_hash", "response_status", "response_body", "created_at", "locked_until"])
      .where("merchant_id", "=", input.merchantId)
      .where("key", "=", key.key)
      .executeTakeFirst();
    // Given back by a request that failed between our insert and this read: the caller may retry.
    if (!existing) return { kind: "in_progress" };
    if (existing.request_hash !== requestHash) return { kind: "conflict" };
    if (existing.response_status !== null)
      return {
        kind: "replayed",
        response: { status: existing.response_status, body: JSON.parse(existing.response_body ?? "null") },
      };
    // A row from before leases has none: its lease is counted from when it was taken.
    const leaseEnd = existing.locked_until ?? addMs(new Date(existing.created_at), IDEMPOTENCY_LEASE_MS).toISOString();
    if (new Date(leaseEnd) > takenAt) return { kind: "in_progress" };
    // Compare-and-set on the lease we saw: of several retries, one takes the key over.
    let takeOver = db
      .updateTable("idempotency_keys")
      .set({ locked_until: lease })
      .where("merchant_id", "=", input.merchantId)
      .where("key", "=", key.key)
      .where("response_status", "is", null);
    takeOver =
      existing.locked_until === null
        ? takeOver.where("locked_until", "is", null).where("created_at", "=", existing.created_at)
        : takeOver.where("locked_until", "=", existing.locked_until);
    const taken = await takeOver.executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return { kind: "in_progress" };
  }
  let response: StoredResponse;
  try {
    response = await work();
  } catch (error) {
    await heldKey(db.deleteFrom("idempotency_keys"), key, lease).execute();
    throw error;
  }
  // Kept only while the key is still ours; past the lease, a retry that took it over answers for it.
  await heldKey(
    db
      .updateTable("idempotency_keys")
      .set({ response_status: response.status, response_body: JSON.stringify(response.body), locked_until: null }),
    key,
    lease,
  ).execute();
  return { kind: "fresh", response };
}

/** The key's row, while the lease `lease` holds it. */
function heldKey<Q extends { where: (...args: any[]) => Q }>(
  query: Q,
  key: { merchantId: number; key: string },
  lease: string,
): Q {
  return query
    .where("merchant_id", "=", key.merchantId)
    .where("key", "=", key.key)
    .where("locked_until", "=", lease)
    .where("response_status", "is", null);
}

/** A header that carries an idempotency key, with the translation keys of its refusals. */
export type KeyHeader = { name: string; tooLong: string; conflict: string; inProgress: string };

export const IDEMPOTENCY_KEY_HEADER: KeyHeader = {
  name: "Idempotency-Key",
  tooLong: "api.idempotency_key_too_long",
  conflict: "api.idempotency_conflict",
  inProgress: "api.idempotency_in_progress",
};

/**
 * The API's answer to a mutation run once per Idempotency-Key: the same key and body answer the
 * first response again (with Idempotent-Replayed), another body with the same key is refused
 * (422), a key still being worked on answers 409 and a key over 255 characters 400. Keys are the
 * caller's own (`callerOf(user)`, or `PUBLIC_CALLER` on an anonymous API); `keyPrefix` keeps a kind
 * of request's keys apart within them; `keyHeader` names another header that carries the key (the
 * operations API's Tracking-Key).
 */
export async function respondOnce(
  request: Request,
  input: {
    db: DB;
    merchantId: number;
    caller: KeyCaller;
    scope: string;
    body: unknown;
    keyPrefix?: string;
    keyHeader?: KeyHeader;
  },
  work: () => Promise<StoredResponse>,
): Promise<Response> {
  const header = input.keyHeader ?? IDEMPOTENCY_KEY_HEADER;
  const outcome = await once(
    input.db,
    {
      merchantId: input.merchantId,
      caller: input.caller,
      key: request.headers.get(header.name),
      scope: input.scope,
      request: input.body,
      keyPrefix: input.keyPrefix,
    },
    work,
  );
  switch (outcome.kind) {
    case "invalid_key":
      return apiErrors(request, { non_field_errors: [header.tooLong] }, 400);
    case "conflict":
      return apiErrors(request, { non_field_errors: [header.conflict] }, 422);
    case "in_progress":
      return apiErrors(request, { non_field_errors: [header.inProgress] }, 409);
    default:
      return apiJson(
        outcome.response.body,
        outcome.response.status,
        outcome.kind === "replayed" ? { "Idempotent-Replayed": "true" } : undefined,
      );
  }
}

/**
 * The gateway reference of the refund, capture or void a request with this Idempotency-Key makes:
 * the same for every retry of that request, so a retry after a crash finds the operation the first
 * attempt started instead of making another (money would leave twice). 18 digits, like a track id.
 * Another caller's request with the same key is not a retry of this one, so it gets another reference.
 */
export function operationReferenceOf(
  request: Request,
  merchantId: number,
  caller: KeyCaller,
  scope: string,
  header = IDEMPOTENCY_KEY_HEADER.name,
): string | null {
  const key = request.headers.get(header);
  if (!key || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return null;
  const digits =
    BigInt(`0x${sha256(`operation\n${merchantId}\n${storedKeyOf(caller, key, "")}\n${scope}`)}`) % 10n ** 17n;
  return `9${digits.toString().padStart(17, "0")}`;
}
