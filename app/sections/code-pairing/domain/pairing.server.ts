import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { recordHits, retryAfterMs, type ThrottleRule } from "~/domain/identity/throttle.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { nowIso } from "~/lib/clock.server";
import { safeEqual, sha256 } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { toDecimalString } from "~/lib/money";
import type { RequestMakerInput, RequestMakerResult } from "../../contract";
import { codeLookup, codeState, type CodeState } from "./codes.server";
import { displayCode, normalizeCode, normalizePair } from "./normalize";
import { pairLabel, type Site } from "./sites.server";

const WINDOW_MS = 15 * 60_000;

/**
 * Failed tries are counted three ways, and any one full stops every try until it empties: per
 * client address (one person guessing), per code of a merchant (many addresses guessing the paired
 * value of one code), and per merchant (many addresses guessing codes). Only failures count:
 * customers who type their code right are never held back by others' mistakes but for the last rule.
 */
export function pairingRules(input: { ip: string | null; merchantId: number; lookup: string }): ThrottleRule[] {
  return [
    { bucket: `cpr:ip:${input.ip ?? "unknown"}`, limit: 10, windowMs: WINDOW_MS },
    { bucket: `cpr:code:${input.merchantId}:${input.lookup}`, limit: 5, windowMs: WINDOW_MS },
    { bucket: `cpr:merchant:${input.merchantId}`, limit: 300, windowMs: WINDOW_MS },
  ];
}

export type PairingOutcome =
  | { ok: true; transactionId: string; payUrl: string }
  /** Field errors by the form's and the API's names (code, pair, non_field_errors), as translation keys. */
  | { ok: false; kind: "refused"; errors: FieldErrors }
  | { ok: false; kind: "throttled"; minutes: number };

const NO_MATCH: FieldErrors = { code: ["cpr_public.errors.no_match"] };

const STATE_ERRORS: Record<Exclude<CodeState, "active">, string> = {
  used_up: "cpr_public.errors.used",
  expired: "cpr_public.errors.expired",
  inactive: "cpr_public.errors.inactive",
};

/** Text for a remarks row ("label: value" rows split by "~"): the separators cannot appear inside. */
const remark = (label: string, value: string) => `${label.replace(/[~:\r\n]+/g, " ").trim()}: ${value.replace(/[~\r\n]+/g, " ").trim()}`;

/**
 * A customer's code and paired value on a merchant's site. Both required. A code that is not the
 * merchant's and a paired value that is not the code's get the same answer, counted as a failed try;
 * the code is found by its HMAC, the paired value compared in constant time. A matching pair on a
 * code that can be used claims one use with a conditional update (two tries at once cannot both
 * take the last use, on either engine) and makes that use's payment request through the section
 * that owns them (`makeRequest`: the contract's requestMaker); should that fail, the use is given back.
 */
export type MakeRequest = (db: DB, input: RequestMakerInput) => Promise<RequestMakerResult>;

export async function pairCode(db: DB, input: { site: Site; code: string; pair: string; ip: string | null; lang: Language; makeRequest: MakeRequest }): Promise<PairingOutcome> {
  const errors: FieldErrors = {};
  const code = normalizeCode(input.code ?? "");
  const pair = normalizePair(input.pair ?? "");
  if (!code) errors.code = ["errors.required"];
  if (!pair) errors.pair = ["errors.required"];
  if (Object.keys(errors).length) return { ok: false, kind: "refused", errors };

  const merchantId = input.site.merchantId;
  const lookup = await codeLookup(db, merchantId, code);
  const rules = pairingRules({ ip: input.ip, merchantId, lookup });
  const wait = await retryAfterMs(db, rules);
  if (wait > 0) return { ok: false, kind: "throttled", minutes: Math.max(1, Math.ceil(wait / 60_000)) };

  const row = await db.selectFrom("code_pairing_codes").selectAll().where("merchant_id", "=", merchantId).where("code_lookup", "=", lookup).executeTakeFirst();
  // Compared as digests of equal length, also when there is no code: the answer takes as long either way.
  const matches = safeEqual(sha256(`pair:${row?.pair_normalized ?? "\u0000no code"}`), sha256(`pair:${pair}`)) && Boolean(row);
  if (!row || !matches) {
    await recordHits(db, rules);
    return { ok: false, kind: "refused", errors: NO_MATCH };
  }
  const state = codeState({ is_active: Number(row.is_active), uses: Number(row.uses), max_uses: Number(row.max_uses), expires_at: row.expires_at });
  if (state !== "active") return { ok: false, kind: "refused", errors: { code: [STATE_ERRORS[state]] } };

  const claimed = await db
    .updateTable("code_pairing_codes")
    .set((eb) => ({ uses: eb("uses", "+", 1), updated_at: nowIso() }))
    .where("id", "=", row.id)
    .where("merchant_id", "=", merchantId)
    .where("is_active", "=", 1)
    .where((eb) => eb("uses", "<", eb.ref("max_uses")))
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", nowIso())]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    const again = await db.selectFrom("code_pairing_codes").select(["is_active", "uses", "max_uses", "expires_at"]).where("id", "=", row.id).executeTakeFirstOrThrow();
    const now = codeState({ is_active: Number(again.is_active), uses: Number(again.uses), max_uses: Number(again.max_uses), expires_at: again.expires_at });
    return { ok: false, kind: "refused", errors: { code: [STATE_ERRORS[now === "active" ? "used_up" : now]] } };
  }

  const release = () =>
    db
      .updateTable("code_pairing_codes")
      .set((eb) => ({ uses: eb("uses", "-", 1), updated_at: nowIso() }))
      .where("id", "=", row.id)
      .where("uses", ">", 0)
      .execute();
  let made = false;
  try {
    const t = translator(input.lang);
    const label = (await pairLabel(db, input.site, input.lang)) ?? t("cpr_public.default_label");
    const gateways = await listMerchantGateways(db, merchantId, { enabledOnly: true });
    const creator = await db.selectFrom("users").select(["id", "username"]).where("id", "=", row.created_by).executeTakeFirst();
    const request = await input.makeRequest(db, {
      merchantId,
      user: creator ?? { id: row.created_by, username: "" },
      fields: {
        amount: toDecimalString(Number(row.amount), row.currency_code),
        currency_code: row.currency_code,
        description: row.description || undefined,
        remarks: [remark(t("cpr_public.remark_code"), displayCode(row.code)), remark(label, row.pair)].join("~"),
        pg_codes: gateways.filter((gateway) => supportsCurrency(gateway, row.currency_code)).map((gateway) => gateway.code),
      },
      lang: input.lang,
      source: "code_pairing",
    });
    if (!request.ok) {
      await release();
      return { ok: false, kind: "refused", errors: { non_field_errors: ["cpr_public.errors.unavailable"] } };
    }
    made = true;
    await db.insertInto("code_pairing_uses").values({ merchant_id: merchantId, code_id: row.id, transaction_id: request.transactionId, created_at: nowIso() }).execute();
    await recordAudit(db, { merchantId, actor: "customer", action: "cpr_code_used", params: { code: displayCode(row.code), site: input.site.host }, objectType: "transaction", objectId: request.transactionId, ip: input.ip });
    return { ok: true, transactionId: request.transactionId, payUrl: request.payUrl };
  } catch (error) {
    // A use whose payment request exists stays counted.
    if (!made) await release();
    throw error;
  }
}
