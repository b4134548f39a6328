import { z } from "zod";
import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { newSignedToken, verifySignedToken } from "~/lib/signed-token.server";
import { MAX_LINE_QUANTITY } from "./limits";
import { priceItems, shortProblem, withHeld, type Held, type Problem, type Quote } from "./pricing.server";
import { productsBySlug, type ProductRow } from "./shop.server";

/*
 * A visitor's cart (public spec §3 catalogue cart item: slug, quantity), held on the server in
 * catalogue_carts under a random token the browser keeps in a signed cookie. It holds slugs and
 * quantities, never a price, and the number of the order it was last checked out as: that order's
 * payment empties it.
 */

/** What a stored cart's line may hold (carts kept before lines were capped at MAX_LINE_QUANTITY still read). */
export const MAX_QUANTITY = 999;

export const CartSchema = z.object({
  merchant_id: z.number().int().positive(),
  lines: z
    .array(z.object({ slug: z.string().min(1).max(200), quantity: z.number().int().min(1).max(MAX_QUANTITY) }))
    .max(100),
  discount_code: z.string().max(40).nullable(),
  order: z.string().max(40).nullable(),
});

export type Cart = z.infer<typeof CartSchema>;

export const emptyCart = (merchantId: number): Cart => ({
  merchant_id: merchantId,
  lines: [],
  discount_code: null,
  order: null,
});

/** A new cart token and its signed form (what the cookie holds). */
export const newCartToken = (db: DB) => newSignedToken(db, "catalogue-cart");

/** The token a signed value names, if the signature is ours. */
export const verifyCartToken = (db: DB, signed: string | null) => verifySignedToken(db, "catalogue-cart", signed);

/** The cart under this token; a stored cart that cannot be read is discarded (public spec §8). */
export async function loadCart(db: DB, token: string | null): Promise<Cart | null> {
  if (!token) return null;
  const row = await db
    .selectFrom("catalogue_carts")
    .select(["data", "merchant_id"])
    .where("token", "=", token)
    .executeTakeFirst();
  if (!row) return null;
  const cart = parseCart(row.data);
  if (!cart || cart.merchant_id !== row.merchant_id) {
    await db.deleteFrom("catalogue_carts").where("token", "=", token).execute();
    return null;
  }
  return cart;
}

function parseCart(text: string): Cart | null {
  try {
    const parsed = CartSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function saveCart(db: DB, token: string, cart: Cart) {
  const data = JSON.stringify(CartSchema.parse(cart));
  const at = nowIso();
  const updated = await db
    .updateTable("catalogue_carts")
    .set({ data, merchant_id: cart.merchant_id, updated_at: at })
    .where("token", "=", token)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db
      .insertInto("catalogue_carts")
      .values({ token, merchant_id: cart.merchant_id, data, updated_at: at })
      .execute();
}

export async function removeStaleCarts(db: DB, before: string) {
  await db.deleteFrom("catalogue_carts").where("updated_at", "<", before).execute();
}

/**
 * Empties the cart an order was placed from, once the order is paid (inside the payment's database
 * transaction): its lines and discount code go; it keeps the order's number, so that the visitor's
 * next page thanks them for it.
 */
export async function emptyCartOfOrder(trx: DB, token: string | null, number: string) {
  if (!token) return;
  const row = await trx.selectFrom("catalogue_carts").select("data").where("token", "=", token).executeTakeFirst();
  const cart = row ? parseCart(row.data) : null;
  if (!cart || cart.order !== number) return;
  await trx
    .updateTable("catalogue_carts")
    .set({ data: JSON.stringify({ ...cart, lines: [], discount_code: null }), updated_at: nowIso() })
    .where("token", "=", token)
    .execute();
}

export type AddOutcome =
  | { kind: "already_in_cart"; cart: Cart }
  | { kind: "added"; cart: Cart; limitedTo: number | null }
  | { kind: "refused"; problem: Problem };

/**
 * Adds a product to a cart (public spec §2, §5): only a product with units left (or unlimited); a
 * product already in the cart is not added again (the cart opens, where its quantity changes); the
 * quantity is never above what is left (`limitedTo` says it was lowered). The caller refuses a
 * quantity above MAX_LINE_QUANTITY.
 */
export function addToCart(cart: Cart, product: ProductRow, quantity: number): AddOutcome {
  if (cart.lines.some((line) => line.slug === product.slug)) return { kind: "already_in_cart", cart };
  if (product.inventory !== null && product.inventory <= 0) return { kind: "refused", problem: shortProblem(0) };
  const wanted = Math.max(1, Math.min(MAX_LINE_QUANTITY, Math.trunc(quantity)));
  const allowed = product.inventory === null ? wanted : Math.min(wanted, product.inventory);
  return {
    kind: "added",
    cart: { ...cart, lines: [...cart.lines, { slug: product.slug, quantity: allowed }] },
    limitedTo: allowed < wanted ? allowed : null,
  };
}

/**
 * A line's new quantity, never above what is left (the units the visitor's own unpaid order holds
 * count as left: `held`) nor above MAX_LINE_QUANTITY; 0 removes it. `limitedTo` says it was lowered
 * for lack of stock, `capped` that it was lowered to the most a line holds.
 */
export async function setQuantity(
  db: DB,
  cart: Cart,
  slug: string,
  quantity: number,
  held?: Held,
): Promise<{ cart: Cart; limitedTo: number | null; capped: boolean }> {
  if (!cart.lines.some((line) => line.slug === slug)) return { cart, limitedTo: null, capped: false };
  const asked = Math.max(0, Math.trunc(quantity));
  if (asked === 0)
    return {
      cart: { ...cart, lines: cart.lines.filter((line) => line.slug !== slug) },
      limitedTo: null,
      capped: false,
    };
  const wanted = Math.min(MAX_LINE_QUANTITY, asked);
  const product = withHeld(await productsBySlug(db, cart.merchant_id, [slug]), held).get(slug);
  const left = product?.inventory ?? null;
  const allowed = left === null ? wanted : Math.max(1, Math.min(wanted, left));
  return {
    cart: { ...cart, lines: cart.lines.map((line) => (line.slug === slug ? { ...line, quantity: allowed } : line)) },
    limitedTo: allowed < wanted ? allowed : null,
    capped: allowed === MAX_LINE_QUANTITY && asked > MAX_LINE_QUANTITY,
  };
}

export type CartView = {
  quote: Quote;
  /** Problems of the cart's lines by slug (gone from the shop, sold out, fewer left than asked). */
  lineProblems: Record<string, Problem>;
  discountProblem: Problem | null;
  count: number;
};

/**
 * The cart priced from the products now (what the cart and checkout pages show), the units the
 * visitor's own unpaid order holds counting as left for them; the order is priced again when placed.
 */
export async function priceCart(db: DB, cart: Cart, currency: string, held?: Held): Promise<CartView> {
  const { quote, problems } = await priceItems(
    db,
    { merchantId: cart.merchant_id, currency },
    cart.lines,
    cart.discount_code,
    held,
  );
  const lineProblems: Record<string, Problem> = {};
  for (const [key, problem] of Object.entries(problems)) {
    const match = /^items\.(\d+)\./.exec(key);
    if (match) lineProblems[cart.lines[Number(match[1])].slug] ??= problem;
  }
  return {
    quote,
    lineProblems,
    discountProblem: problems.discount_code ?? null,
    count: cart.lines.reduce((sum, line) => sum + line.quantity, 0),
  };
}

/**
 * The cart with no line above what is left now (another customer bought meanwhile) nor above
 * MAX_LINE_QUANTITY (a cart kept from before lines were capped): such a line holds what it may;
 * `limited` names the lines lowered. A sold-out line stays, to be removed.
 */
export function fitToStock(cart: Cart, view: CartView): { cart: Cart; limited: string[] } {
  const limited: string[] = [];
  const lines = cart.lines.map((line, index) => {
    const priced = view.quote.lines.find((candidate) => candidate.index === index);
    const left = Math.min(priced?.product.inventory ?? MAX_LINE_QUANTITY, MAX_LINE_QUANTITY);
    if (left <= 0 || line.quantity <= left) return line;
    limited.push(line.slug);
    return { ...line, quantity: left };
  });
  return { cart: limited.length ? { ...cart, lines } : cart, limited };
}
