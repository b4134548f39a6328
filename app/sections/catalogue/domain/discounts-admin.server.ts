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
import type { DiscountInput } from "./discount-schema";
import type { Actor, Change, RemoveOutcome, SaveOutcome } from "./fields";
import { DISCOUNTS } from "./pricing.server";
import { loadShopMoney } from "./shop-money.server";
import { decimalOf, minorOf, type ShopMoney } from "./shop-money";

export type DiscountRow = OfferCode;

export const KUWAIT = "Asia/Kuwait";

/** The discount codes as the admin pages and the API keep them: amounts in the shop's money, its decimals only. */
const DISCOUNT_ADMIN: OfferCodeAdminScope = {
  ...DISCOUNTS,
  adminTexts: "catalogue_admin.errors.",
  audit: "catalogue_discount",
  readAmounts: async (trx, merchantId) => {
    const money = await loadShopMoney(trx, merchantId);
    return (value, field, errors) => minorOf(value, money, field, errors);
  },
  usedByOrders: async (trx, offerCodeId) =>
    (await trx
      .selectFrom("catalogue_orders")
      .select("id")
      .where("offer_code_id", "=", offerCodeId)
      .limit(1)
      .executeTakeFirst()) !== undefined,
};

export function listDiscounts(db: DB, merchantId: number) {
  return listOfferCodes(db, DISCOUNTS, merchantId);
}

export function getDiscount(db: DB, merchantId: number, id: number) {
  return getOfferCode(db, DISCOUNTS, merchantId, id);
}

/** A discount as the API answers it: the amount as it is sent ("10" for 10%, "1.500" in the shop's currency). */
export function serializeDiscount(discount: DiscountRow, money: ShopMoney) {
  return {
    id: discount.id,
    code: discount.code,
    discount_type: discount.discount_type,
    amount: offerAmountText(discount, (minor) => decimalOf(minor, money)),
    valid_from: discount.valid_from,
    valid_to: discount.valid_to,
    min_total: decimalOf(discount.min_total, money),
    max_uses: discount.max_uses,
    used: discount.used,
    is_active: Boolean(discount.is_active),
  };
}

/** Creates a discount (`id` absent) or changes the fields sent (saveOfferCode). */
export function saveDiscount(
  db: DB,
  change: Change<DiscountInput> & { id?: number },
): Promise<SaveOutcome<DiscountRow>> {
  return saveOfferCode(db, DISCOUNT_ADMIN, change);
}

/** A discount orders used is only deactivated; one never used is deleted. */
export function deleteDiscount(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<RemoveOutcome> {
  return deleteOfferCode(db, DISCOUNT_ADMIN, input);
}
