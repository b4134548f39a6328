import type { DB } from "~/db/database.server";
import {
  checkOfferCode,
  findOfferCode,
  offerDiscount,
  type OfferCode,
  type OfferCodeScope,
} from "~/domain/commerce/offer-codes.server";
import { money, type TextParams } from "~/lib/outcome";
import { productsBySlug, unitPriceOf, type ProductRow } from "./shop.server";

/*
 * Prices are the server's (decision 0025): a cart or a checkout names products by slug and a
 * quantity, never a price. Each line is priced from the product as it is now (its discounted price
 * when it has one) and the discount code is applied to the subtotal, in integer minor units.
 */

export type Problem = { code: string; params?: TextParams };
/** Problems by field, one each: `items.1.quantity`, `discount_code`, `customer_email`. */
export type Problems = Record<string, Problem>;

export type ItemInput = { slug: string; quantity: number };

export type PricedLine = { index: number; product: ProductRow; quantity: number; unitPrice: number; lineTotal: number };

/** The shop's offer codes: its discount codes, without a limit per customer. */
export const DISCOUNTS: OfferCodeScope = { section: "catalogue", texts: "catalogue_public.errors.discount_" };

/** The merchant's discount of this code, whatever its case. */
export function findDiscount(db: DB, merchantId: number, code: string) {
  return findOfferCode(db, DISCOUNTS, merchantId, code);
}

/** Whether a discount applies to this subtotal now (checkOfferCode); a refusal is the code's problem, its minimum in the shop's currency. */
export async function checkDiscount(
  db: DB,
  discount: OfferCode | undefined,
  subtotal: number,
  currency: string,
): Promise<{ ok: true } | { ok: false; problem: Problem }> {
  const checked = await checkOfferCode(db, DISCOUNTS, discount, { subtotal, customerKey: null });
  if (checked.ok) return checked;
  const minimum = checked.params?.minimum;
  return {
    ok: false,
    problem:
      typeof minimum === "number"
        ? { code: checked.code, params: { minimum: money(minimum, currency) } }
        : { code: checked.code },
  };
}

export type Quote = {
  lines: PricedLine[];
  subtotal: number;
  discount: number;
  total: number;
  discountRow: OfferCode | null;
};

/** Units a visitor's own unpaid order holds, by product id: theirs to check out again (heldUnitsOf). */
export type Held = ReadonlyMap<number, number>;

/**
 * Items priced from the merchant's products now. A line naming no active product, or more units than
 * are left, is a problem of that line (`items.2.quantity`: "Only 3 left"); units asked for in several
 * lines of one product count together. The discount code, when given, must apply. Units the visitor's
 * own unpaid order holds (`held`) count as left for them: the products come back with that inventory.
 */
export async function priceItems(
  db: DB,
  shop: { merchantId: number; currency: string },
  items: readonly ItemInput[],
  discountCode: string | null,
  held?: Held,
): Promise<{ quote: Quote; problems: Problems }> {
  const problems: Problems = {};
  const products = withHeld(
    await productsBySlug(
      db,
      shop.merchantId,
      items.map((item) => item.slug),
    ),
    held,
  );
  const lines: PricedLine[] = [];
  const asked = new Map<number, number>();
  items.forEach((item, index) => {
    const product = products.get(item.slug);
    if (!product) {
      problems[`items.${index}.slug`] = { code: "catalogue_public.errors.unknown_product" };
      return;
    }
    const unitPrice = unitPriceOf(product);
    lines.push({ index, product, quantity: item.quantity, unitPrice, lineTotal: unitPrice * item.quantity });
    asked.set(product.id, (asked.get(product.id) ?? 0) + item.quantity);
  });
  for (const line of lines) {
    const { inventory } = line.product;
    if (inventory !== null && (asked.get(line.product.id) ?? 0) > inventory)
      problems[`items.${line.index}.quantity`] = shortProblem(inventory);
  }
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  let discount = 0;
  let discountRow: OfferCode | null = null;
  if (discountCode) {
    const found = await findDiscount(db, shop.merchantId, discountCode);
    const checked = await checkDiscount(db, found, subtotal, shop.currency);
    if (!checked.ok) problems.discount_code = checked.problem;
    else {
      discountRow = found!;
      discount = offerDiscount(found!, subtotal);
    }
  }
  return { quote: { lines, subtotal, discount, total: subtotal - discount, discountRow }, problems };
}

/** A line asking for more than is left: how many are, or sold out. */
export function shortProblem(left: number): Problem {
  return left > 0
    ? { code: "catalogue_public.errors.only_left", params: { left } }
    : { code: "catalogue_public.errors.sold_out" };
}

/** Products as one visitor may buy them: what is left plus what their own unpaid order holds. */
export function withHeld(products: Map<string, ProductRow>, held: Held | undefined): Map<string, ProductRow> {
  if (!held?.size) return products;
  for (const [slug, product] of products) {
    const own = held.get(product.id);
    if (own && product.inventory !== null) products.set(slug, { ...product, inventory: product.inventory + own });
  }
  return products;
}

/**
 * An order must cost something: a total of 0 or less (a discount as large as the subtotal, a product
 * priced 0) cannot go to the pay page. The problem is the discount code's when one was applied, else
 * the lines'.
 */
export function zeroTotalProblem(quote: Pick<Quote, "total" | "discount" | "lines">): Problems {
  if (quote.lines.length === 0 || quote.total > 0) return {};
  return quote.discount > 0
    ? { discount_code: { code: "catalogue_public.errors.discount_whole_total" } }
    : { items: { code: "catalogue_public.errors.zero_total" } };
}
