import type { Language } from "~/lib/i18n";
import type { CartView } from "../../domain/cart.server";
import type { OrderSummary } from "../../domain/orders.server";
import type { Shop } from "../../domain/shop.server";
import { nameIn } from "../../domain/shop.server";
import type { TotalsView } from "../../components/public/shop-layout";
import { messageOf, shopMoney } from "./shop-page.server";

/** The amounts of a cart or an order, formatted for the page. */
export function totalsView(
  amounts: { subtotal: number; discount: number; total: number },
  shop: Shop,
  lang: Language,
): TotalsView {
  const money = shopMoney(shop, lang);
  return {
    subtotal: money(amounts.subtotal),
    discount: amounts.discount ? money(amounts.discount) : null,
    total: money(amounts.total),
  };
}

export type CartLineView = {
  slug: string;
  name: string | null;
  quantity: number;
  max: number;
  unitPrice: string | null;
  lineTotal: string | null;
  problem: string | null;
};

/** The cart's lines as the cart and checkout pages show them, each with its problem in the page's language. */
export function cartLinesView(
  cart: { lines: { slug: string; quantity: number }[] },
  view: CartView,
  shop: Shop,
  lang: Language,
): CartLineView[] {
  const money = shopMoney(shop, lang);
  return cart.lines.map((line, index) => {
    const priced = view.quote.lines.find((candidate) => candidate.index === index);
    return {
      slug: line.slug,
      name: priced ? nameIn(priced.product, lang) : null,
      quantity: line.quantity,
      max: priced?.product.inventory ?? 999,
      unitPrice: priced ? money(priced.unitPrice) : null,
      lineTotal: priced ? money(priced.lineTotal) : null,
      problem: messageOf(view.lineProblems[line.slug], lang),
    };
  });
}

/** A placed order as its confirmation shows it. */
export function orderView(order: OrderSummary, shop: Shop, lang: Language) {
  const money = shopMoney(shop, lang);
  return {
    orderNo: order.orderNo,
    status: order.status,
    lines: order.lines.map((line) => ({
      name: nameIn(line, lang),
      quantity: line.quantity,
      lineTotal: money(line.line_total),
    })),
    totals: totalsView(order, shop, lang),
  };
}
