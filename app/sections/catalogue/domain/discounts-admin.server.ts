import type { Selectable } from "kysely";
import { DateTime } from "luxon";
import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import type { CatalogueDiscountTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import type { DiscountInput } from "./discount-schema";
import { addError, type Actor, type Change, type FieldErrors, type RemoveOutcome, type SaveOutcome } from "./fields";
import { loadShopMoney } from "./shop-money.server";
import { decimalOf, minorOf, type ShopMoney } from "./shop-money";

export type DiscountRow = Selectable<CatalogueDiscountTable>;

export const KUWAIT = "Asia/Kuwait";

const DISCOUNT_COLUMNS = [
  "id",
  "merchant_id",
  "code",
  "code_lc",
  "discount_type",
  "amount",
  "valid_from",
  "valid_to",
  "min_total",
  "max_uses",
  "used",
  "is_active",
  "created_at",
  "updated_at",
] as const;

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

export function listDiscounts(db: DB, merchantId: number) {
  return db
    .selectFrom("catalogue_discounts")
    .select(DISCOUNT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
}

export function getDiscount(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("catalogue_discounts")
    .select(DISCOUNT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** A discount as the API answers it: the amount as it is sent ("10" for 10%, "1.500" in the shop's currency). */
export function serializeDiscount(discount: DiscountRow, money: ShopMoney) {
  return {
    id: discount.id,
    code: discount.code,
    discount_type: discount.discount_type,
    amount:
      discount.discount_type === "percentage"
        ? basisPointsToPercent(Number(discount.amount))
        : decimalOf(discount.amount, money),
    valid_from: discount.valid_from,
    valid_to: discount.valid_to,
    min_total: decimalOf(discount.min_total, money),
    max_uses: discount.max_uses,
    used: discount.used,
    is_active: Boolean(discount.is_active),
  };
}

/**
 * Creates a discount (`id` absent) or changes the fields sent; its code is the merchant's alone,
 * whatever its case. `used` is never written here: a limit below the uses already made is refused,
 * and the update holds only while it stays so (an order may take a use meanwhile). Checked under the
 * merchant's lock in the transaction that writes, so the shop's decimals cannot change in between.
 */
export async function saveDiscount(
  db: DB,
  change: Change<DiscountInput> & { id?: number },
): Promise<SaveOutcome<DiscountRow>> {
  try {
    return await writeTransaction(db, async (trx) => {
      await lockMerchant(trx, change.merchantId);
      return saveDiscountLocked(trx, change);
    });
  } catch (error) {
    if (/unique|duplicate/i.test(String(error)))
      return { ok: false, errors: { code: [{ code: "catalogue_admin.errors.code_taken" }] } };
    throw error;
  }
}

async function saveDiscountLocked(
  trx: DB,
  change: Change<DiscountInput> & { id?: number },
): Promise<SaveOutcome<DiscountRow>> {
  const money = await loadShopMoney(trx, change.merchantId);
  const input = change.input;
  const errors: FieldErrors = {};
  const existing = change.id === undefined ? undefined : await getDiscount(trx, change.merchantId, change.id);
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
      if (amount === undefined) addError(errors, "amount", "catalogue_admin.errors.percentage");
    } else {
      amount = minorOf(input.amount, money, "amount", errors);
      if (amount === 0) addError(errors, "amount", "catalogue_admin.errors.amount_positive");
    }
  } else if (input.discount_type && existing && input.discount_type !== existing.discount_type && !errors.amount) {
    addError(errors, "amount", "errors.required");
  }
  const dateOf = (value: string | null | undefined, end: boolean) =>
    value === undefined ? undefined : value === null || value === "" ? null : momentOf(value, end);
  const validFrom = dateOf(input.valid_from, false);
  const validTo = dateOf(input.valid_to, true);
  if (input.valid_from && validFrom === null) addError(errors, "valid_from", "catalogue_admin.errors.date");
  if (input.valid_to && validTo === null) addError(errors, "valid_to", "catalogue_admin.errors.date");
  const from = validFrom === undefined ? existing?.valid_from : validFrom;
  const to = validTo === undefined ? existing?.valid_to : validTo;
  if (from && to && from >= to && !errors.valid_from && !errors.valid_to)
    addError(errors, "valid_to", "catalogue_admin.errors.valid_to_before");
  const minTotal = input.min_total === null ? 0 : minorOf(input.min_total, money, "min_total", errors);
  const maxUses = input.max_uses;
  if (existing && maxUses !== undefined && maxUses !== null && maxUses < existing.used)
    addError(errors, "max_uses", "catalogue_admin.errors.max_uses_below_used", { used: existing.used });
  if (input.code) {
    const taken = await trx
      .selectFrom("catalogue_discounts")
      .select("id")
      .where("merchant_id", "=", change.merchantId)
      .where("code_lc", "=", input.code.toLowerCase())
      .where("id", "!=", existing?.id ?? 0)
      .executeTakeFirst();
    if (taken) addError(errors, "code", "catalogue_admin.errors.code_taken");
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
    is_active: input.is_active === undefined ? undefined : Number(input.is_active),
    updated_at: at,
  };
  let saved: DiscountRow | undefined;
  if (existing) {
    let update = trx
      .updateTable("catalogue_discounts")
      .set(values)
      .where("id", "=", existing.id)
      .where("merchant_id", "=", change.merchantId);
    if (maxUses !== undefined && maxUses !== null) update = update.where("used", "<=", maxUses);
    saved = await update.returning(DISCOUNT_COLUMNS).executeTakeFirst();
    if (!saved) {
      const used = (await getDiscount(trx, change.merchantId, existing.id))?.used ?? 0;
      return {
        ok: false,
        errors: { max_uses: [{ code: "catalogue_admin.errors.max_uses_below_used", params: { used } }] },
      };
    }
  } else {
    saved = await trx
      .insertInto("catalogue_discounts")
      .values({
        ...values,
        merchant_id: change.merchantId,
        code: input.code!,
        code_lc: input.code!.toLowerCase(),
        discount_type: input.discount_type!,
        amount: amount!,
        is_active: Number(input.is_active ?? true),
        created_at: at,
      })
      .returning(DISCOUNT_COLUMNS)
      .executeTakeFirstOrThrow();
  }
  await recordAudit(trx, {
    merchantId: change.merchantId,
    actor: change.actor,
    action: existing ? "catalogue_discount_updated" : "catalogue_discount_created",
    params: { code: saved.code },
    objectType: "catalogue_discount",
    objectId: saved.id,
    ip: change.ip,
  });
  return { ok: true, value: saved };
}

/** A discount orders used is only deactivated; one never used is deleted. */
export async function deleteDiscount(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<RemoveOutcome> {
  return writeTransaction(db, async (trx): Promise<RemoveOutcome> => {
    // Checkouts take the merchant's lock too: one using the code has either committed its order
    // (seen here, so the code is only deactivated) or runs after and finds the code gone.
    await lockMerchant(trx, input.merchantId);
    const discount = await getDiscount(trx, input.merchantId, input.id);
    if (!discount) return { ok: false };
    const ordered = await trx
      .selectFrom("catalogue_orders")
      .select("id")
      .where("discount_id", "=", discount.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered)
      await trx
        .updateTable("catalogue_discounts")
        .set({ is_active: 0, updated_at: nowIso() })
        .where("id", "=", discount.id)
        .execute();
    else await trx.deleteFrom("catalogue_discounts").where("id", "=", discount.id).execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? "catalogue_discount_deactivated" : "catalogue_discount_deleted",
      params: { code: discount.code },
      objectType: "catalogue_discount",
      objectId: discount.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: Boolean(ordered) } as const;
  });
}
