import type { DB } from "~/db/database.server";
import type { CatalogueDiscountType } from "~/db/schema";
import { nowIso } from "~/lib/clock.server";
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

export type DiscountRow = {
  id: number;
  code: string;
  discount_type: CatalogueDiscountType;
  amount: number;
  valid_from: string | null;
  valid_to: string | null;
  min_total: number;
  max_uses: number | null;
  used: number;
  is_active: number;
};

/** The merchant's discount of this code, whatever its case. */
export function findDiscount(db: DB, merchantId: number, code: string): Promise<DiscountRow | undefined> {
  const lower = code.trim().toLowerCase();
  if (!lower || lower.length > 40) return Promise.resolve(undefined);
  return db
    .selectFrom("catalogue_discounts")
    .select([
      "id",
      "code",
      "discount_type",
      "amount",
      "valid_from",
      "valid_to",
      "min_total",
      "max_uses",
      "used",
      "is_active",
    ])
    .where("merchant_id", "=", merchantId)
    .where("code_lc", "=", lower)
    .executeTakeFirst() as Promise<DiscountRow | undefined>;
}

/** Whether a discount applies to this subtotal now: active, within its dates, above its minimum, with uses left. */
export function checkDiscount(
  discount: DiscountRow | undefined,
  subtotal: number,
  currency: string,
): { ok: true } | { ok: false; problem: Problem } {
  if (!discount || !discount.is_active)
    return { ok: false, problem: { code: "catalogue_public.errors.discount_unknown" } };
  const at = nowIso();
  if (discount.valid_from && at < new Date(discount.valid_from).toISOString())
    return { ok: false, problem: { code: "catalogue_public.errors.discount_not_yet" } };
  if (discount.valid_to && at > new Date(discount.valid_to).toISOString())
    return { ok: false, problem: { code: "catalogue_public.errors.discount_expired" } };
  if (subtotal < discount.min_total)
    return {
      ok: false,
      problem: {
        code: "catalogue_public.errors.discount_minimum",
        params: { minimum: money(discount.min_total, currency) },
      },
    };
  if (discount.max_uses !== null && discount.used >= discount.max_uses)
    return { ok: false, problem: { code: "catalogue_public.errors.discount_used_up" } };
  return { ok: true };
}

/** What a discount takes off a subtotal: a percentage (basis points) rounded half up, or a fixed amount; never more than the subtotal. */
export function discountOff(discount: Pick<DiscountRow, "discount_type" | "amount">, subtotal: number) {
  const off =
    discount.discount_type === "percentage" ? Math.floor((subtotal * discount.amount + 5000) / 10000) : discount.amount;
  return Math.max(0, Math.min(subtotal, off));
}

export type Quote = {
  lines: PricedLine[];
  subtotal: number;
  discount: number;
  total: number;
  discountRow: DiscountRow | null;
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
  let discountRow: DiscountRow | null = null;
  if (discountCode) {
    const found = await findDiscount(db, shop.merchantId, discountCode);
    const checked = checkDiscount(found, subtotal, shop.currency);
    if (!checked.ok) problems.discount_code = checked.problem;
    else {
      discountRow = found!;
      discount = discountOff(found!, subtotal);
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
