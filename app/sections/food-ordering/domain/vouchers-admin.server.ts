import type { Selectable } from "kysely";
import { DateTime } from "luxon";
import { writeTransaction, type DB } from "~/db/database.server";
import type { FoodVoucherTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { nowIso } from "~/lib/clock.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import { KUWAIT } from "./hours";
import { minorOf } from "./menu-admin.server";
import { addError, type Actor, type SetupErrors, type SetupOutcome } from "./setup-fields";
import type { VoucherInput } from "./voucher-schema";

export type VoucherAdminRow = Selectable<FoodVoucherTable>;

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

export function listVouchers(db: DB, merchantId: number) {
  return db
    .selectFrom("food_vouchers")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
}

export function getVoucher(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("food_vouchers")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** A voucher as the API answers it: the amount as it is sent ("10" for 10%, "1.500" in the currency). */
export function serializeVoucher(voucher: VoucherAdminRow, currency: string) {
  return {
    id: voucher.id,
    code: voucher.code,
    discount_type: voucher.discount_type,
    amount:
      voucher.discount_type === "percentage"
        ? basisPointsToPercent(Number(voucher.amount))
        : toDecimalString(Number(voucher.amount), currency),
    valid_from: voucher.valid_from,
    valid_to: voucher.valid_to,
    min_total: toDecimalString(Number(voucher.min_total), currency),
    max_uses: voucher.max_uses,
    max_uses_per_customer: voucher.max_uses_per_customer,
    used: voucher.used,
    is_active: Boolean(voucher.is_active),
  };
}

/** Creates a voucher (`id` absent) or changes the fields sent; its code is the merchant's alone, whatever its case. */
export async function saveVoucher(
  db: DB,
  change: { merchantId: number; actor: Actor; input: VoucherInput; id?: number; ip?: string | null },
): Promise<SetupOutcome<VoucherAdminRow>> {
  const { currency } = await loadMerchantDefaults(db, change.merchantId);
  const input = change.input;
  const errors: SetupErrors = {};
  const existing = change.id === undefined ? undefined : await getVoucher(db, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing)
    for (const field of ["code", "discount_type", "amount"] as const)
      if (!input[field]) addError(errors, field, "errors.required");
  const type = input.discount_type ?? existing?.discount_type;
  let amount: number | undefined;
  if (input.amount !== undefined && input.amount !== "" && type) {
    if (type === "percentage") {
      amount = percentToBasisPoints(input.amount) ?? undefined;
      if (amount === undefined) addError(errors, "amount", "food_setup.errors.percentage");
    } else {
      amount = minorOf(input.amount, currency, "amount", errors);
      if (amount === 0) addError(errors, "amount", "food_setup.errors.amount_positive");
    }
  } else if (input.discount_type && existing && input.discount_type !== existing.discount_type) {
    addError(errors, "amount", "errors.required");
  }
  const validFrom =
    input.valid_from === undefined || input.valid_from === null || input.valid_from === ""
      ? input.valid_from === undefined
        ? undefined
        : null
      : momentOf(input.valid_from, false);
  const validTo =
    input.valid_to === undefined || input.valid_to === null || input.valid_to === ""
      ? input.valid_to === undefined
        ? undefined
        : null
      : momentOf(input.valid_to, true);
  if (input.valid_from && validFrom === null) addError(errors, "valid_from", "food_setup.errors.date");
  if (input.valid_to && validTo === null) addError(errors, "valid_to", "food_setup.errors.date");
  const from = validFrom === undefined ? existing?.valid_from : validFrom;
  const to = validTo === undefined ? existing?.valid_to : validTo;
  if (from && to && from >= to && !errors.valid_from && !errors.valid_to)
    addError(errors, "valid_to", "food_setup.errors.valid_to_before");
  const minTotal = input.min_total === null ? 0 : minorOf(input.min_total, currency, "min_total", errors);
  const maxUses = input.max_uses;
  if (existing && maxUses !== undefined && maxUses !== null && maxUses < existing.used)
    addError(errors, "max_uses", "food_setup.errors.max_uses_below_used", { used: existing.used });
  if (input.code) {
    const taken = await db
      .selectFrom("food_vouchers")
      .select("id")
      .where("merchant_id", "=", change.merchantId)
      .where("code_lc", "=", input.code.toLowerCase())
      .where("id", "!=", existing?.id ?? 0)
      .executeTakeFirst();
    if (taken) addError(errors, "code", "food_setup.errors.code_taken");
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
  try {
    const row = await writeTransaction(db, async (trx) => {
      const saved = existing
        ? await trx
            .updateTable("food_vouchers")
            .set(values)
            .where("id", "=", existing.id)
            .where("merchant_id", "=", change.merchantId)
            .returningAll()
            .executeTakeFirstOrThrow()
        : await trx
            .insertInto("food_vouchers")
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
            .returningAll()
            .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        merchantId: change.merchantId,
        actor: change.actor,
        action: existing ? "food_voucher_updated" : "food_voucher_created",
        params: { code: saved.code },
        objectType: "food_voucher",
        objectId: saved.id,
        ip: change.ip,
      });
      return saved;
    });
    return { ok: true, value: row };
  } catch (error) {
    if (/unique|duplicate/i.test(String(error)))
      return { ok: false, errors: { code: [{ code: "food_setup.errors.code_taken" }] } };
    throw error;
  }
}

/** A voucher used by orders is only deactivated; one never used is deleted. */
export async function deleteVoucher(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<{ ok: true; deactivated: boolean } | { ok: false }> {
  const voucher = await getVoucher(db, input.merchantId, input.id);
  if (!voucher) return { ok: false };
  return writeTransaction(db, async (trx) => {
    const ordered = await trx
      .selectFrom("food_orders")
      .select("id")
      .where("voucher_id", "=", voucher.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered)
      await trx
        .updateTable("food_vouchers")
        .set({ is_active: 0, updated_at: nowIso() })
        .where("id", "=", voucher.id)
        .execute();
    else await trx.deleteFrom("food_vouchers").where("id", "=", voucher.id).execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? "food_voucher_deactivated" : "food_voucher_deleted",
      params: { code: voucher.code },
      objectType: "food_voucher",
      objectId: voucher.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: Boolean(ordered) } as const;
  });
}
