import type { DB } from "~/db/database.server";
import {
  deleteOfferCode,
  getOfferCode,
  listOfferCodes,
  offerAmountText,
  saveOfferCode,
  type OfferCodeAdminScope,
} from "~/domain/commerce/offer-codes-admin.server";
import type { OfferCode } from "~/domain/commerce/offer-codes.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { toDecimalString } from "~/lib/money";
import { minorOf } from "./menu-admin.server";
import { VOUCHERS } from "./pricing.server";
import type { Actor, SetupOutcome } from "./setup-fields";
import type { VoucherInput } from "./voucher-schema";

export type VoucherAdminRow = OfferCode;

/** The vouchers as the set-up pages and the API keep them: amounts in the merchant's currency. */
const VOUCHER_ADMIN: OfferCodeAdminScope = {
  ...VOUCHERS,
  adminTexts: "food_setup.errors.",
  audit: "food_voucher",
  readAmounts: async (trx, merchantId) => {
    const { currency } = await loadMerchantDefaults(trx, merchantId);
    return (value, field, errors) => minorOf(value, currency, field, errors);
  },
  usedByOrders: async (trx, offerCodeId) =>
    (await trx
      .selectFrom("food_orders")
      .select("id")
      .where("offer_code_id", "=", offerCodeId)
      .limit(1)
      .executeTakeFirst()) !== undefined,
};

export function listVouchers(db: DB, merchantId: number) {
  return listOfferCodes(db, VOUCHERS, merchantId);
}

export function getVoucher(db: DB, merchantId: number, id: number) {
  return getOfferCode(db, VOUCHERS, merchantId, id);
}

/** A voucher as the API answers it: the amount as it is sent ("10" for 10%, "1.500" in the currency). */
export function serializeVoucher(voucher: VoucherAdminRow, currency: string) {
  return {
    id: voucher.id,
    code: voucher.code,
    discount_type: voucher.discount_type,
    amount: offerAmountText(voucher, (minor) => toDecimalString(minor, currency)),
    valid_from: voucher.valid_from,
    valid_to: voucher.valid_to,
    min_total: toDecimalString(Number(voucher.min_total), currency),
    max_uses: voucher.max_uses,
    max_uses_per_customer: voucher.max_uses_per_customer,
    used: voucher.used,
    is_active: Boolean(voucher.is_active),
  };
}

/** Creates a voucher (`id` absent) or changes the fields sent (saveOfferCode). */
export function saveVoucher(
  db: DB,
  change: { merchantId: number; actor: Actor; input: VoucherInput; id?: number; ip?: string | null },
): Promise<SetupOutcome<VoucherAdminRow>> {
  return saveOfferCode(db, VOUCHER_ADMIN, change);
}

/** A voucher used by orders is only deactivated; one never used is deleted. */
export function deleteVoucher(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<{ ok: true; deactivated: boolean } | { ok: false }> {
  return deleteOfferCode(db, VOUCHER_ADMIN, input);
}
