import { engineOf, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { retryAfterMs, type ThrottleRule } from "~/domain/identity/throttle.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { safeEqual, sha256 } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import type { RequestMakerInput, RequestMakerResult } from "../../contract";
import { codeLookup, codeState, SPENT_STATES, type CodeState } from "./codes.server";
import { displayCode, normalizeCode, normalizePair } from "./normalize";
import { merchantTakesCodes, type Site } from "./sites.server";
import { addressGroup } from "~/domain/identity/throttle.server";

export { addressGroup };

const WINDOW_MS = 15 * 60_000;

/**
 * Failed tries are counted three ways: per client address (one person guessing; IPv6 by /64), per
 * code of a merchant (many addresses guessing the paired value of one code), and per merchant, for
 * codes the merchant does not have (many addresses guessing codes). A full address or code bucket
 * stops every try it counts; a full merchant bucket stops only tries of codes the merchant does not
 * have, so that guessing cannot lock the merchant's customers out of their own codes.
 */
export function pairingRules(input: {
  ip: string | null;
  merchantId: number;
  lookup: string;
  codeFound: boolean;
}): ThrottleRule[] {
  return [
    { bucket: `cpr:ip:${addressGroup(input.ip)}`, limit: 10, windowMs: WINDOW_MS },
    { bucket: `cpr:code:${input.merchantId}:${input.lookup}`, limit: 5, windowMs: WINDOW_MS },
    ...(input.codeFound ? [] : [{ bucket: `cpr:merchant:${input.merchantId}`, limit: 300, windowMs: WINDOW_MS }]),
  ];
}

/**
 * Counts a try before it is answered: its hit is written first, then each bucket is counted with it,
 * so tries that come at once cannot all read a bucket that is not full yet. A try that finds a bucket
 * over its limit is refused and not kept (the wait it is told stays true); the answer is the time
 * until the fullest bucket lets one more through (0: the try goes on, counted).
 */
async function countTry(db: DB, rules: ThrottleRule[]): Promise<{ wait: number; hits: number[] }> {
  const hitAt = nowIso();
  const hits = (
    await db
      .insertInto("throttle_hits")
      .values(rules.map((rule) => ({ bucket: rule.bucket, hit_at: hitAt })))
      .returning("id")
      .execute()
  ).map((row) => row.id);
  // Keep the table small, as the core throttle does: hits older than a day are never read again.
  if (Math.random() < 0.01)
    await db.deleteFrom("throttle_hits").where("hit_at", "<", addMs(now(), -86_400_000).toISOString()).execute();
  const over: ThrottleRule[] = [];
  for (const rule of rules) {
    const { count } = await db
      .selectFrom("throttle_hits")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("bucket", "=", rule.bucket)
      .where("hit_at", ">", addMs(now(), -rule.windowMs).toISOString())
      .executeTakeFirstOrThrow();
    if (Number(count) > rule.limit) over.push(rule);
  }
  if (!over.length) return { wait: 0, hits };
  await takeBack(db, hits);
  return { wait: Math.max(60_000, await retryAfterMs(db, over)), hits: [] };
}

/** Takes back the hits of a counted try that turned out not to be a failure (the right pair): its own, by id. */
async function takeBack(db: DB, hits: number[]) {
  if (hits.length) await db.deleteFrom("throttle_hits").where("id", "in", hits).execute();
}

export type PairingOutcome =
  | { ok: true; transactionId: string }
  /** Field errors by the form's and the API's names (code, pair, non_field_errors), as translation keys. */
  | { ok: false; kind: "refused"; errors: FieldErrors }
  | { ok: false; kind: "throttled"; minutes: number }
  /** The merchant no longer takes codes (the section was turned off, the merchant is paused). */
  | { ok: false; kind: "closed" };

const NO_MATCH: FieldErrors = { code: ["cpr_public.errors.no_match"] };

const STATE_ERRORS: Record<Exclude<CodeState, "active">, string> = {
  used_up: "cpr_public.errors.used",
  expired: "cpr_public.errors.expired",
  inactive: "cpr_public.errors.inactive",
};

/**
 * How many uses of a code hold it: those whose payment was paid (also if later refunded or voided)
 * and those that can still be paid (payable, not deleted, not past their expiry). A use whose payment
 * ended unpaid (expired, canceled, failed, invalid, deleted, or past its expiry) is free again.
 */
export async function heldUses(db: DB, codeId: number): Promise<number> {
  const { count } = await db
    .selectFrom("code_pairing_uses")
    .innerJoin("transactions", "transactions.id", "code_pairing_uses.transaction_id")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("code_pairing_uses.code_id", "=", codeId)
    .where((eb) =>
      eb.or([
        eb("transactions.state", "in", SPENT_STATES),
        eb.and([
          eb("transactions.state", "in", PAYABLE_STATES),
          eb("transactions.deleted_at", "is", null),
          eb.or([eb("transactions.expiration_time", "is", null), eb("transactions.expiration_time", ">", nowIso())]),
        ]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The payment of the code's latest use when it can still be paid: the right pair leads back to it. */
export async function openPayment(db: DB, codeId: number): Promise<string | null> {
  const latest = await db
    .selectFrom("code_pairing_uses")
    .innerJoin("transactions", "transactions.id", "code_pairing_uses.transaction_id")
    .select(["transactions.id", "transactions.state", "transactions.deleted_at", "transactions.expiration_time"])
    .where("code_pairing_uses.code_id", "=", codeId)
    .orderBy("code_pairing_uses.id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!latest || latest.deleted_at || !(PAYABLE_STATES as readonly string[]).includes(latest.state)) return null;
  if (latest.expiration_time && new Date(latest.expiration_time) <= now()) return null;
  return latest.id;
}

/** Thrown inside the payment request's database transaction when the use cannot be taken: the request is rolled back. */
class UseNotTaken extends Error {
  constructor(readonly reason: Exclude<CodeState, "active"> | "open") {
    super(`code use not taken: ${reason}`);
  }
}

/**
 * A customer's code and paired value on a merchant's site. Both required. A code that is not the
 * merchant's and a paired value that is not the code's get the same answer, counted as a failed try
 * before it is answered; the code is found by its HMAC, the paired value compared in constant time.
 *
 * A right pair whose latest payment can still be paid is sent back to it (a double click, a
 * refresh, a customer back from a failed attempt). Otherwise a code that may be used makes a payment
 * request through the section that owns them (`makeRequest`: the contract's requestMaker), and the
 * use is taken and recorded inside that request's database transaction (`alongside`), under the
 * code's row lock: a request without its use, or a use without its request, cannot be left behind,
 * and two tries at once cannot both take the last use, on either engine.
 */
export type MakeRequest = (db: DB, input: RequestMakerInput) => Promise<RequestMakerResult>;

export async function pairCode(
  db: DB,
  input: { site: Site; code: string; pair: string; ip: string | null; lang: Language; makeRequest: MakeRequest },
): Promise<PairingOutcome> {
  const merchantId = input.site.merchantId;
  if (!(await merchantTakesCodes(db, merchantId))) return { ok: false, kind: "closed" };
  const errors: FieldErrors = {};
  const code = normalizeCode(input.code ?? "");
  const pair = normalizePair(input.pair ?? "");
  if (!code) errors.code = ["errors.required"];
  if (!pair) errors.pair = ["errors.required"];
  if (Object.keys(errors).length) return { ok: false, kind: "refused", errors };

  const lookup = await codeLookup(db, merchantId, code);
  const row = await db
    .selectFrom("code_pairing_codes")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("code_lookup", "=", lookup)
    .executeTakeFirst();
  const rules = pairingRules({ ip: input.ip, merchantId, lookup, codeFound: Boolean(row) });
  const { wait, hits } = await countTry(db, rules);
  if (wait > 0) return { ok: false, kind: "throttled", minutes: Math.ceil(wait / 60_000) };

  // Compared as digests of equal length, also when there is no code: the answer takes as long either way.
  const matches =
    safeEqual(sha256(`pair:${row?.pair_normalized ?? "\u0000no code"}`), sha256(`pair:${pair}`)) && Boolean(row);
  if (!row || !matches) return { ok: false, kind: "refused", errors: NO_MATCH };
  // The right pair is no failed try.
  await takeBack(db, hits);

  if (!Number(row.is_active)) return { ok: false, kind: "refused", errors: { code: [STATE_ERRORS.inactive] } };
  const stateNow = async (at: DB) => {
    const current = await at
      .selectFrom("code_pairing_codes")
      .select(["is_active", "max_uses", "expires_at"])
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    const held = await heldUses(at, row.id);
    return {
      held,
      state: codeState({
        is_active: Number(current.is_active),
        uses: held,
        max_uses: Number(current.max_uses),
        expires_at: current.expires_at,
      }),
    };
  };
  // The state is read before the open payment: a try at the same time that took the last use in
  // between is then seen by the second read, and its payment is this customer's too.
  const { state: before } = await stateNow(db);
  const open = await openPayment(db, row.id);
  if (open) return { ok: true, transactionId: open };
  if (before !== "active") return { ok: false, kind: "refused", errors: { code: [STATE_ERRORS[before]] } };

  const gateways = await listMerchantGateways(db, merchantId, { enabledOnly: true });
  const creator = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where("id", "=", row.created_by)
    .executeTakeFirst();
  let request: RequestMakerResult;
  try {
    request = await input.makeRequest(db, {
      merchantId,
      user: creator ?? { id: row.created_by, username: "" },
      // Neither the code nor the paired value goes on the payment: its pay page, receipt and exports
      // reach anyone with the link. Staff find the pairing on the codes page, by the payment.
      fields: {
        amount: toDecimalString(Number(row.amount), row.currency_code),
        currency_code: row.currency_code,
        description: row.description || undefined,
        pg_codes: gateways
          .filter((gateway) => supportsCurrency(gateway, row.currency_code))
          .map((gateway) => gateway.code),
      },
      lang: input.lang,
      source: "code_pairing",
      alongside: async (trx, made) => {
        if (engineOf(trx) === "postgres")
          await trx.selectFrom("code_pairing_codes").select("id").where("id", "=", row.id).forUpdate().execute();
        if (await openPayment(trx, row.id)) throw new UseNotTaken("open");
        const { state, held } = await stateNow(trx);
        if (state !== "active") throw new UseNotTaken(state);
        await trx
          .updateTable("code_pairing_codes")
          .set({ uses: held + 1, updated_at: nowIso() })
          .where("id", "=", row.id)
          .execute();
        await trx
          .insertInto("code_pairing_uses")
          .values({
            merchant_id: merchantId,
            code_id: row.id,
            transaction_id: made.transactionId,
            created_at: nowIso(),
          })
          .execute();
        await recordAudit(trx, {
          merchantId,
          actor: "customer",
          action: "cpr_code_used",
          params: { code: displayCode(row.code), site: input.site.host },
          objectType: "transaction",
          objectId: made.transactionId,
          ip: input.ip,
        });
      },
    });
  } catch (error) {
    if (!(error instanceof UseNotTaken)) throw error;
    // Another try took the use first (a double click): its payment is this customer's too.
    const taken = await openPayment(db, row.id);
    if (taken) return { ok: true, transactionId: taken };
    return {
      ok: false,
      kind: "refused",
      errors: { code: [STATE_ERRORS[error.reason === "open" ? "used_up" : error.reason]] },
    };
  }
  if (!request.ok)
    return { ok: false, kind: "refused", errors: { non_field_errors: ["cpr_public.errors.unavailable"] } };
  return { ok: true, transactionId: request.transactionId };
}
