import { DateTime } from "luxon";
import { engineOf, lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import type { OfferDiscountType } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import { OFFER_CODE_COLUMNS, type OfferCode, type OfferCodeScope } from "./offer-codes.server";

/*
 * A section's staff keep its offer codes (offer-codes.server.ts): list, create, change, delete. The
 * section names its codes, its texts and its money; the rules are the same for all.
 */

const KUWAIT = "Asia/Kuwait";

/** A refusal of one field: a translation key and what its message names. */
export type OfferCodeError = { code: string; params?: Record<string, string | number> };
export type OfferCodeErrors = Record<string, OfferCodeError[]>;

/** An amount in the section's money as minor units, or an error on `field`; undefined for an absent value. */
export type AmountReader = (
  value: string | null | undefined,
  field: string,
  errors: OfferCodeErrors,
) => number | undefined;

/** What a section's staff pages and API add to its OfferCodeScope. */
export type OfferCodeAdminScope = OfferCodeScope & {
  /** The start of its staff's refusal texts: `${adminTexts}code_taken`, … */
  adminTexts: string;
  /** Its audit entries' object type, and the start of their actions: `food_voucher` → `food_voucher_created`. */
  audit: string;
  /** How the merchant's amounts are read (its currency, the decimals its prices show), inside the write. */
  readAmounts: (trx: DB, merchantId: number) => Promise<AmountReader>;
  /** Whether any order used the code: such a code is only deactivated, never deleted. */
  usedByOrders: (trx: DB, offerCodeId: number) => Promise<boolean>;
};

/** A code as a form or the API sends it; every field optional for a change. */
export type OfferCodeInput = {
  code?: string;
  discount_type?: OfferDiscountType;
  amount?: string;
  valid_from?: string | null;
  valid_to?: string | null;
  min_total?: string | null;
  max_uses?: number | null;
  max_uses_per_customer?: number | null;
  is_active?: boolean;
};

export type OfferCodeChange = {
  merchantId: number;
  actor: { id: number; username: string };
  input: OfferCodeInput;
  id?: number;
  ip?: string | null;
};

export type OfferCodeSaved =
  { ok: true; value: OfferCode } | { ok: false; errors: OfferCodeErrors; notFound?: boolean };

function addError(errors: OfferCodeErrors, field: string, code: string, params?: OfferCodeError["params"]) {
  (errors[field] ??= []).push(params ? { code, params } : { code });
}

/** "10" → 1000 basis points; "12.5" → 1250. At most two decimals, above 0 and at most 100. */
export function percentToBasisPoints(value: string): number | null {
  const parsed = parseAmount(value, "USD");
  return parsed.ok && parsed.minor > 0 && parsed.minor <= 10_000 ? parsed.minor : null;
}

/** 1000 basis points → "10"; 1250 → "12.5". */
export function basisPointsToPercent(points: number): string {
  return toDecimalString(points, "USD").replace(/\.?0+$/, "");
}

/** A date or a moment as the stored ISO instant: a date alone is its first moment (`end`: its last) in Kuwait. */
export function momentOf(value: string, end: boolean): string | null {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value);
  let parsed = hasZone ? DateTime.fromISO(value, { setZone: true }) : DateTime.fromISO(value, { zone: KUWAIT });
  if (!parsed.isValid) return null;
  if (dateOnly && end) parsed = parsed.endOf("day");
  return parsed.toUTC().toISO({ suppressMilliseconds: false });
}

/** A code's amount as it is sent: "10" for 10%, else the decimal text of its minor units. */
export function offerAmountText(
  offer: Pick<OfferCode, "discount_type" | "amount">,
  decimal: (minor: number) => string,
) {
  return offer.discount_type === "percentage"
    ? basisPointsToPercent(Number(offer.amount))
    : decimal(Number(offer.amount));
}

export function listOfferCodes(db: DB, scope: OfferCodeScope, merchantId: number) {
  return db
    .selectFrom("offer_codes")
    .select(OFFER_CODE_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("section", "=", scope.section)
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
}

export function getOfferCode(
  db: DB,
  scope: OfferCodeScope,
  merchantId: number,
  id: number,
  options: { lock?: boolean } = {},
) {
  let query = db
    .selectFrom("offer_codes")
    .select(OFFER_CODE_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("section", "=", scope.section)
    .where("id", "=", id);
  if (options.lock && engineOf(db) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Creates a code (`id` absent) or changes the fields sent; its code is the merchant's alone in the
 * section, whatever its case. `used` is never written here: a limit below the uses already made is
 * refused, and the update holds only while it stays so (an order may take a use meanwhile). Checked
 * under the merchant's lock in the transaction that writes, so the merchant's money cannot change in
 * between.
 */
export async function saveOfferCode(
  db: DB,
  scope: OfferCodeAdminScope,
  change: OfferCodeChange,
): Promise<OfferCodeSaved> {
  try {
    return await writeTransaction(db, async (trx) => {
      await lockMerchant(trx, change.merchantId);
      return saveLocked(trx, scope, change);
    });
  } catch (error) {
    if (/unique|duplicate/i.test(String(error)))
      return { ok: false, errors: { code: [{ code: `${scope.adminTexts}code_taken` }] } };
    throw error;
  }
}

async function saveLocked(trx: DB, scope: OfferCodeAdminScope, change: OfferCodeChange): Promise<OfferCodeSaved> {
  const texts = scope.adminTexts;
  const minorOf = await scope.readAmounts(trx, change.merchantId);
  const input = change.input;
  const errors: OfferCodeErrors = {};
  const existing = change.id === undefined ? undefined : await getOfferCode(trx, scope, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing)
    for (const field of ["code", "discount_type", "amount"] as const)
      if (!input[field]) addError(errors, field, "errors.required");
  // An amount sent empty is refused, never read as "leave it as it is".
  if (existing && input.amount === "") addError(errors, "amount", "errors.required");
  const type = input.discount_type ?? existing?.discount_type;
  let amount: number | undefined;
  if (input.amount !== undefined && input.amount !== "" && type) {
    if (type === "percentage") {
      amount = percentToBasisPoints(input.amount) ?? undefined;
      if (amount === undefined) addError(errors, "amount", `${texts}percentage`);
    } else {
      amount = minorOf(input.amount, "amount", errors);
      if (amount === 0) addError(errors, "amount", `${texts}amount_positive`);
    }
  } else if (input.discount_type && existing && input.discount_type !== existing.discount_type && !errors.amount) {
    addError(errors, "amount", "errors.required");
  }
  const dateOf = (value: string | null | undefined, end: boolean) =>
    value === undefined ? undefined : value === null || value === "" ? null : momentOf(value, end);
  const validFrom = dateOf(input.valid_from, false);
  const validTo = dateOf(input.valid_to, true);
  if (input.valid_from && validFrom === null) addError(errors, "valid_from", `${texts}date`);
  if (input.valid_to && validTo === null) addError(errors, "valid_to", `${texts}date`);
  const from = validFrom === undefined ? existing?.valid_from : validFrom;
  const to = validTo === undefined ? existing?.valid_to : validTo;
  if (from && to && from >= to && !errors.valid_from && !errors.valid_to)
    addError(errors, "valid_to", `${texts}valid_to_before`);
  const minTotal = input.min_total === null ? 0 : minorOf(input.min_total, "min_total", errors);
  const maxUses = input.max_uses;
  if (existing && maxUses !== undefined && maxUses !== null && maxUses < existing.used)
    addError(errors, "max_uses", `${texts}max_uses_below_used`, { used: existing.used });
  if (input.code) {
    const taken = await trx
      .selectFrom("offer_codes")
      .select("id")
      .where("merchant_id", "=", change.merchantId)
      .where("section", "=", scope.section)
      .where("code_lc", "=", input.code.toLowerCase())
      .where("id", "!=", existing?.id ?? 0)
      .executeTakeFirst();
    if (taken) addError(errors, "code", `${texts}code_taken`);
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const at = nowIso();
  const values = {
    code: input.code,
    code_lc: input.code?.toLowerCase(),
    discount_type: input.discount_type,
    amount,
    valid_from: validFrom,
    valid_to: validTo,
    min_total: minTotal,
    max_uses: maxUses,
    max_uses_per_customer: input.max_uses_per_customer,
    is_active: input.is_active === undefined ? undefined : Number(input.is_active),
    updated_at: at,
  };
  let saved: OfferCode | undefined;
  if (existing) {
    let update = trx
      .updateTable("offer_codes")
      .set(values)
      .where("id", "=", existing.id)
      .where("merchant_id", "=", change.merchantId);
    if (maxUses !== undefined && maxUses !== null) update = update.where("used", "<=", maxUses);
    saved = await update.returning(OFFER_CODE_COLUMNS).executeTakeFirst();
    if (!saved) {
      const used = (await getOfferCode(trx, scope, change.merchantId, existing.id))?.used ?? 0;
      return { ok: false, errors: { max_uses: [{ code: `${texts}max_uses_below_used`, params: { used } }] } };
    }
  } else {
    saved = await trx
      .insertInto("offer_codes")
      .values({
        ...values,
        merchant_id: change.merchantId,
        section: scope.section,
        code: input.code!,
        code_lc: input.code!.toLowerCase(),
        discount_type: input.discount_type!,
        amount: amount!,
        is_active: Number(input.is_active ?? true),
        created_at: at,
      })
      .returning(OFFER_CODE_COLUMNS)
      .executeTakeFirstOrThrow();
  }
  await recordAudit(trx, {
    merchantId: change.merchantId,
    actor: change.actor,
    action: existing ? `${scope.audit}_updated` : `${scope.audit}_created`,
    params: { code: saved.code },
    objectType: scope.audit,
    objectId: saved.id,
    ip: change.ip,
  });
  return { ok: true, value: saved };
}

/**
 * A code orders used is only deactivated; one never used is deleted. Its row is locked as a checkout's
 * claim locks it: a checkout using the code has either committed its order (seen here, so the code is
 * only deactivated) or runs after and finds the code gone.
 */
export async function deleteOfferCode(
  db: DB,
  scope: OfferCodeAdminScope,
  input: { merchantId: number; actor: { id: number; username: string }; id: number; ip?: string | null },
): Promise<{ ok: true; deactivated: boolean } | { ok: false }> {
  return writeTransaction(db, async (trx): Promise<{ ok: true; deactivated: boolean } | { ok: false }> => {
    await lockMerchant(trx, input.merchantId);
    const offer = await getOfferCode(trx, scope, input.merchantId, input.id, { lock: true });
    if (!offer) return { ok: false };
    const ordered = await scope.usedByOrders(trx, offer.id);
    if (ordered)
      await trx
        .updateTable("offer_codes")
        .set({ is_active: 0, updated_at: nowIso() })
        .where("id", "=", offer.id)
        .execute();
    else await trx.deleteFrom("offer_codes").where("id", "=", offer.id).execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? `${scope.audit}_deactivated` : `${scope.audit}_deleted`,
      params: { code: offer.code },
      objectType: scope.audit,
      objectId: offer.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: ordered };
  });
}
