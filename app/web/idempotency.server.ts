import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { sha256 } from "~/lib/crypto.server";

export type StoredResponse = { status: number; body: unknown };

export type IdempotentOutcome =
  | { kind: "fresh"; response: StoredResponse }
  | { kind: "replayed"; response: StoredResponse }
  | { kind: "conflict" }
  | { kind: "in_progress" };

/**
 * Runs `work` once per (merchant, Idempotency-Key). The same key with the same request answers the
 * first response again and does nothing new; the same key with another request is a conflict.
 */
export async function once(
  db: DB,
  input: { merchantId: number; key: string | null; scope: string; request: unknown },
  work: () => Promise<StoredResponse>,
): Promise<IdempotentOutcome> {
  if (!input.key) return { kind: "fresh", response: await work() };
  const key = input.key.slice(0, 255);
  const requestHash = sha256(`${input.scope}\n${JSON.stringify(input.request)}`);
  const inserted = await db
    .insertInto("idempotency_keys")
    .values({ merchant_id: input.merchantId, key, scope: input.scope, request_hash: requestHash, response_status: null, response_body: null, created_at: nowIso() })
    .onConflict((conflict) => conflict.columns(["merchant_id", "key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const existing = await db
      .selectFrom("idempotency_keys")
      .select(["scope", "request_hash", "response_status", "response_body"])
      .where("merchant_id", "=", input.merchantId)
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    if (existing.request_hash !== requestHash) return { kind: "conflict" };
    if (existing.response_status === null) return { kind: "in_progress" };
    return { kind: "replayed", response: { status: existing.response_status, body: JSON.parse(existing.response_body ?? "null") } };
  }
  let response: StoredResponse;
  try {
    response = await work();
  } catch (error) {
    await db.deleteFrom("idempotency_keys").where("merchant_id", "=", input.merchantId).where("key", "=", key).execute();
    throw error;
  }
  await db
    .updateTable("idempotency_keys")
    .set({ response_status: response.status, response_body: JSON.stringify(response.body) })
    .where("merchant_id", "=", input.merchantId)
    .where("key", "=", key)
    .execute();
  return { kind: "fresh", response };
}
