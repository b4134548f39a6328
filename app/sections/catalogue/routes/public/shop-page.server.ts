import { data } from "react-router";
import type { DB } from "~/db/database.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { exponentOf, formatAmount, toDecimalString } from "~/lib/money";
import { describe } from "~/presentation/texts.server";
import { emptyCart, loadCart, newCartToken, saveCart, verifyCartToken, type Cart } from "../../domain/cart.server";
import { heldUnitsOf } from "../../domain/orders.server";
import type { Held, Problem } from "../../domain/pricing.server";
import {
  defaultShopMerchant,
  isAvailable,
  loadShop,
  nameIn,
  productImageUrl,
  unitPriceOf,
  type PublicProduct,
  type Shop,
} from "../../domain/shop.server";
import { cartCookie, readCartCookie } from "./cart-cookie.server";

/** The page's language from its path. */
export function languageOf(params: { lang?: string }): Language {
  return isLanguage(params.lang) ? params.lang : "en";
}

const idOf = (value: string | null | undefined) => (value && /^\d{1,10}$/.test(value) ? Number(value) : undefined);

export type Visitor = {
  db: DB;
  token: string | null;
  cart: Cart;
  shop: Shop;
  /** The number of the order the visitor has just paid (its cart was emptied), once. */
  paidOrder: string | null;
  /** The order the cart was checked out as, still waiting for its payment. */
  pendingOrder: { number: string; orderNo: number | null; transactionId: string } | null;
  /** The units that order holds, by product id: the visitor's own, left for them to check out again. */
  held: Held;
};

/**
 * The visitor's cart and the shop the pages show: `?merchant=` when given (a cart of another
 * merchant starts over for it), else the cart's, else the installation's first merchant with the
 * catalogue section; 404 when the merchant does not have it. A cart remembering an order learns its
 * end here: paid, the cart is empty and the visitor is thanked once; ended unpaid, it is forgotten;
 * still waiting, the units it holds are the visitor's (`held`).
 */
export async function loadVisitor(db: DB, url: URL, cookieHeader: string | null): Promise<Visitor> {
  const token = await verifyCartToken(db, readCartCookie(cookieHeader));
  const stored = await loadCart(db, token);
  const asked = idOf(url.searchParams.get("merchant"));
  const merchantId = asked ?? stored?.merchant_id ?? (await defaultShopMerchant(db));
  const shop = merchantId == null ? undefined : await loadShop(db, merchantId);
  if (!shop) throw data(null, { status: 404 });
  let cart = stored && stored.merchant_id === shop.merchantId ? stored : emptyCart(shop.merchantId);
  let paidOrder: string | null = null;
  let pendingOrder: Visitor["pendingOrder"] = null;
  let held: Held = new Map();
  if (token && cart.order) {
    const order = await db
      .selectFrom("catalogue_orders")
      .select(["status", "order_no", "transaction_id"])
      .where("merchant_id", "=", shop.merchantId)
      .where("number", "=", cart.order)
      .executeTakeFirst();
    if (order?.status === "pending_payment" && order.transaction_id) {
      pendingOrder = { number: cart.order, orderNo: order.order_no, transactionId: order.transaction_id };
      held = await heldUnitsOf(db, shop.merchantId, cart.order);
    } else {
      if (order?.status === "paid") {
        paidOrder = cart.order;
        cart = { ...cart, lines: [], discount_code: null };
      }
      cart = { ...cart, order: null };
      await saveCart(db, token, cart);
    }
  }
  return { db, token, cart, shop, paidOrder, pendingOrder, held };
}

/** Keeps the visitor's cart; answers the Set-Cookie header when the visitor had no cart yet. */
export async function storeCart(visitor: Visitor, request: Request, cart: Cart): Promise<HeadersInit | undefined> {
  if (visitor.token) {
    await saveCart(visitor.db, visitor.token, cart);
    return undefined;
  }
  const fresh = await newCartToken(visitor.db);
  await saveCart(visitor.db, fresh.token, cart);
  visitor.token = fresh.token;
  return { "Set-Cookie": cartCookie(request, fresh.signed) };
}

export function unitHeader(db: DB, merchantId: number, lang: Language, unitId: number | null = null) {
  return loadUnitHeader(db, { merchant_id: merchantId, unit_id: unitId }, lang);
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Prices as the shop shows them: in its currency, with the decimals its settings ask for (the
 * currency's own when none), from the exact decimal string (no float).
 */
export function shopMoney(shop: Shop, lang: Language) {
  const places = shop.settings.decimal_places;
  const currency = shop.currency;
  if (places === null || places === exponentOf(currency)) return (minor: number) => formatAmount(minor, currency, lang);
  const key = `${lang}:${currency}:${places}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(lang === "ar" ? "ar-KW-u-nu-latn" : "en-KW", {
      style: "currency",
      currency,
      currencyDisplay: lang === "ar" ? "symbol" : "code",
      minimumFractionDigits: places,
      maximumFractionDigits: places,
    });
    formatters.set(key, formatter);
  }
  const shown = formatter;
  return (minor: number) => shown.format(toDecimalString(minor, currency) as unknown as number);
}

/** A problem in the page's language. */
export const messageOf = (problem: Problem | null | undefined, lang: Language) =>
  problem ? describe(problem.code, problem.params, lang) : null;

/** Problems by field as the page shows them: the message of each field. */
export function messagesOf(problems: Record<string, Problem>, lang: Language): Record<string, string> {
  return Object.fromEntries(
    Object.entries(problems).map(([field, problem]) => [field, describe(problem.code, problem.params, lang)]),
  );
}

/** The query every shop link carries: the merchant whose shop it is. */
export const shopQuery = (shop: Shop) => `?merchant=${shop.merchantId}`;

export type ProductCard = {
  slug: string;
  name: string;
  image: string | null;
  price: string;
  original: string | null;
  soldOut: boolean;
  left: number | null;
};

/** What a product's card shows: its name, first image, price (and the price it is reduced from), and stock when low. */
export function productCard(product: PublicProduct, lang: Language, money: (minor: number) => string): ProductCard {
  const price = unitPriceOf(product);
  return {
    slug: product.slug,
    name: nameIn(product, lang),
    image: product.images[0] !== undefined ? productImageUrl(product.images[0]) : null,
    price: money(price),
    original: price < product.price ? money(product.price) : null,
    soldOut: !isAvailable(product),
    left: product.inventory !== null && product.inventory > 0 && product.inventory <= 5 ? product.inventory : null,
  };
}
