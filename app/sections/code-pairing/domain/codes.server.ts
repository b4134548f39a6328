import { randomInt } from "node:crypto";
import { z } from "zod";
import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { parseExpiration } from "~/domain/payments/request-fields";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { now, nowIso } from "~/lib/clock.server";
import { hmacSha256 } from "~/lib/crypto.server";
import { isSupportedCurrency, parseAmount, toDecimalString } from "~/lib/money";
import { getAppSecret } from "~/lib/secret.server";
import {
  CODE_ALPHABET,
  CODE_MAX,
  displayCode,
  GENERATED_CODE_LENGTH,
  isValidCode,
  normalizeCode,
  normalizePair,
  PAIR_MAX,
} from "./normalize";

export const MAX_USES_LIMIT = 100_000;
export const DESCRIPTION_MAX = 500;

/** What the issue form (and the demo) sends; blank code: one is generated. */
export const IssueCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .max(CODE_MAX + 20, "errors.too_long")
    .default(""),
  pair: z.string().trim().max(PAIR_MAX, "errors.too_long").default(""),
  amount: z.string().trim().max(20, "money.too_large").default(""),
  currency_code: z.string().trim().max(3, "code_pairing.errors.currency").default(""),
  description: z.string().trim().max(DESCRIPTION_MAX, "errors.too_long").default(""),
  use: z.enum(["single", "multi"]).catch("single"),
  max_uses: z.string().trim().max(10, "code_pairing.errors.max_uses").default(""),
  expires_at: z.string().trim().max(40, "code_pairing.errors.expiry_format").default(""),
});
export type IssueCodeInput = z.input<typeof IssueCodeSchema>;

/** The lookup key of a code: an HMAC under the platform's secret, so the index says nothing about the codes. */
export async function codeLookup(db: DB, merchantId: number, code: string) {
  return hmacSha256(await getAppSecret(db), `code_pairing:${merchantId}:${code}`);
}

/** A new code from the unambiguous alphabet, about 46 random bits. */
export function generateCode() {
  let code = "";
  for (let index = 0; index < GENERATED_CODE_LENGTH; index++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

type Actor = { id: number; username: string };

export type IssuedCode = { id: number; code: string };

/**
 * Issues a code: typed by the merchant (letters and digits, 4 to 32) or generated, unique among the
 * merchant's codes; its paired value; the amount, currency and description of the payment request
 * each use makes (the currency one the merchant's gateways take); single use or up to `max_uses`;
 * an optional expiry in the future. Audited.
 */
export async function issueCode(
  db: DB,
  input: { merchantId: number; actor: Actor; values: z.output<typeof IssueCodeSchema>; ip?: string | null },
): Promise<{ ok: true; code: IssuedCode } | { ok: false; errors: FieldErrors }> {
  const { values } = input;
  const errors: FieldErrors = {};
  const typed = normalizeCode(values.code);
  if (values.code && !isValidCode(typed)) errors.code = ["code_pairing.errors.code_format"];
  const pair = normalizePair(values.pair);
  if (!values.pair) errors.pair = ["errors.required"];
  else if (!pair) errors.pair = ["code_pairing.errors.pair_format"];

  const defaults = await loadMerchantDefaults(db, input.merchantId);
  const currency = (values.currency_code || defaults.currency).toUpperCase();
  let amount: number | null = null;
  if (!isSupportedCurrency(currency)) errors.currency_code = ["code_pairing.errors.currency"];
  else {
    const gateways = await listMerchantGateways(db, input.merchantId, { enabledOnly: true });
    if (!gateways.some((gateway) => supportsCurrency(gateway, currency)))
      errors.currency_code = ["code_pairing.errors.currency"];
    if (!values.amount) errors.amount = ["errors.required"];
    else {
      const parsed = parseAmount(values.amount, currency);
      if (!parsed.ok) errors.amount = [parsed.error];
      else if (parsed.minor <= 0) errors.amount = ["money.invalid"];
      else amount = parsed.minor;
    }
  }

  let maxUses = 1;
  if (values.use === "multi") {
    const count = /^\d{1,7}$/.test(values.max_uses) ? Number(values.max_uses) : NaN;
    if (!values.max_uses) errors.max_uses = ["errors.required"];
    else if (!(count >= 2 && count <= MAX_USES_LIMIT)) errors.max_uses = ["code_pairing.errors.max_uses"];
    else maxUses = count;
  }

  let expiresAt: string | null = null;
  if (values.expires_at) {
    const parsed = parseExpiration(values.expires_at);
    if (!parsed) errors.expires_at = ["code_pairing.errors.expiry_format"];
    else if (parsed <= now()) errors.expires_at = ["code_pairing.errors.expiry_past"];
    else expiresAt = parsed.toISOString();
  }
  if (Object.keys(errors).length || amount === null) return { ok: false, errors };

  // A generated code that happens to be taken is drawn again; a typed one is the merchant's to change.
  for (let draw = 0; draw < 5; draw++) {
    const code = typed || generateCode();
    const lookup = await codeLookup(db, input.merchantId, code);
    const taken = await db
      .selectFrom("code_pairing_codes")
      .select("id")
      .where("merchant_id", "=", input.merchantId)
      .where("code_lookup", "=", lookup)
      .executeTakeFirst();
    if (taken) {
      if (typed) return { ok: false, errors: { code: ["code_pairing.errors.code_taken"] } };
      continue;
    }
    const stamp = nowIso();
    let id: number;
    try {
      const row = await db
        .insertInto("code_pairing_codes")
        .values({
          merchant_id: input.merchantId,
          code,
          code_lookup: lookup,
          pair: values.pair,
          pair_normalized: pair,
          amount,
          currency_code: currency,
          description: values.description,
          max_uses: maxUses,
          expires_at: expiresAt,
          is_active: 1,
          created_by: input.actor.id,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      id = row.id;
    } catch {
      // The same code issued at the same moment by someone else: the unique lookup refused this one.
      if (typed) return { ok: false, errors: { code: ["code_pairing.errors.code_taken"] } };
      continue;
    }
    await recordAudit(db, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "cpr_code_issued",
      params: { code: displayCode(code), amount: `${toDecimalString(amount, currency)} ${currency}`, uses: maxUses },
      objectType: "code_pairing_code",
      objectId: id,
      ip: input.ip,
    });
    return { ok: true, code: { id, code } };
  }
  return { ok: false, errors: { code: ["code_pairing.errors.code_taken"] } };
}

/** Stops a code of the merchant's from being used again; the payments it already made are left as they are. */
export async function deactivateCode(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
) {
  const changed = await db
    .updateTable("code_pairing_codes")
    .set({ is_active: 0, updated_at: nowIso() })
    .where("id", "=", input.id)
    .where("merchant_id", "=", input.merchantId)
    .where("is_active", "=", 1)
    .returning("code")
    .executeTakeFirst();
  if (!changed) return false;
  await recordAudit(db, {
    merchantId: input.merchantId,
    actor: input.actor,
    action: "cpr_code_deactivated",
    params: { code: displayCode(changed.code) },
    objectType: "code_pairing_code",
    objectId: input.id,
    ip: input.ip,
  });
  return true;
}

/**
 * One code's paired value in full, for staff who may see it (the caller checks reveal_pairingcode):
 * each reveal is audited, naming the code. Undefined when the merchant has no such code.
 */
export async function revealPair(db: DB, input: { merchantId: number; actor: Actor; id: number; ip?: string | null }) {
  const row = await db
    .selectFrom("code_pairing_codes")
    .select(["id", "code", "pair"])
    .where("id", "=", input.id)
    .where("merchant_id", "=", input.merchantId)
    .executeTakeFirst();
  if (!row) return undefined;
  await recordAudit(db, {
    merchantId: input.merchantId,
    actor: input.actor,
    action: "cpr_pair_revealed",
    params: { code: displayCode(row.code) },
    objectType: "code_pairing_code",
    objectId: row.id,
    ip: input.ip,
  });
  return { id: row.id, pair: row.pair };
}

/** The paired values of a whole list given in full (an export or the API asked with reveal): one audit entry, with how many and where. */
export function recordPairsRevealed(
  db: DB,
  input: { merchantId: number; actor: Actor; count: number; channel: "api" | "export"; ip?: string | null },
) {
  return recordAudit(db, {
    merchantId: input.merchantId,
    actor: input.actor,
    action: "cpr_pairs_revealed",
    params: { count: input.count, channel: input.channel },
    objectType: "code_pairing_code",
    ip: input.ip,
  });
}

export type CodeState = "active" | "used_up" | "expired" | "inactive";

export function codeState(
  row: { is_active: number; uses: number; max_uses: number; expires_at: string | null },
  at = now(),
): CodeState {
  if (!row.is_active) return "inactive";
  if (row.uses >= row.max_uses) return "used_up";
  if (row.expires_at && new Date(row.expires_at) <= at) return "expired";
  return "active";
}

const PAID_STATES = ["paid", "authorized", "cod"] as const;
/**
 * A use holds its code while its payment can be paid or was paid (also if later refunded or voided);
 * a use whose payment ended unpaid (expired, canceled, failed, invalid, deleted, past its expiry) is
 * free again. pairing.server.ts `heldUses` counts by the same rule in SQL.
 */
export const SPENT_STATES = ["authorized", "paid", "cod", "refunded", "voided"] as const;
const OPEN_STATES: readonly string[] = PAYABLE_STATES;
function holdsCode(payment: { state: string; deleted_at: string | null; expiration_time: string | null }, at: Date) {
  if ((SPENT_STATES as readonly string[]).includes(payment.state)) return true;
  return (
    OPEN_STATES.includes(payment.state) &&
    !payment.deleted_at &&
    !(payment.expiration_time && new Date(payment.expiration_time) <= at)
  );
}

/** The merchant's codes, newest first, each with its uses and what became of the payments they made. */
export async function listCodes(db: DB, merchantId: number, options: { limit?: number } = {}) {
  const rows = await db
    .selectFrom("code_pairing_codes")
    .select([
      "id",
      "code",
      "pair",
      "amount",
      "currency_code",
      "description",
      "max_uses",
      "uses",
      "expires_at",
      "is_active",
      "created_at",
    ])
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(options.limit ?? 200)
    .execute();
  const ids = rows.map((row) => row.id);
  const payments = ids.length
    ? await db
        .selectFrom("code_pairing_uses")
        .innerJoin("transactions", "transactions.id", "code_pairing_uses.transaction_id")
        .select([
          "code_pairing_uses.code_id",
          "transactions.id",
          "transactions.order_no",
          "transactions.state",
          "transactions.deleted_at",
          "transactions.expiration_time",
        ])
        .where("code_pairing_uses.merchant_id", "=", merchantId)
        .where("code_pairing_uses.code_id", "in", ids)
        .orderBy("code_pairing_uses.id", "desc")
        .execute()
    : [];
  const at = now();
  return rows.map((row) => {
    const own = payments.filter((payment) => payment.code_id === row.id);
    // Uses whose payments ended unpaid are free again: they are not counted.
    const uses = own.filter((payment) => holdsCode(payment, at)).length;
    return {
      ...row,
      amount: Number(row.amount),
      uses,
      max_uses: Number(row.max_uses),
      state: codeState(
        { is_active: Number(row.is_active), uses, max_uses: Number(row.max_uses), expires_at: row.expires_at },
        at,
      ),
      paid: own.filter((payment) => (PAID_STATES as readonly string[]).includes(payment.state)).length,
      payments: own.map((payment) => ({ id: payment.id, orderNo: Number(payment.order_no), state: payment.state })),
    };
  });
}
