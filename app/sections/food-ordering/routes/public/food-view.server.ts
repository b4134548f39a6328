import { DateTime } from "luxon";
import type { Language } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import type { PricedLine } from "../../domain/pricing.server";
import { KUWAIT, type Interval } from "../../domain/hours";
import { nameIn, type OrderLineView } from "../../domain/public-menu.server";
import type { TotalsView } from "../../components/public/food-totals";

/** What the pages show of amounts, lines and hours, formatted on the server in the page's language. */

export function totalsView(
  amounts: { subtotal: number; discount: number; deliveryCharge: number; serviceCharge: number; total: number },
  currency: string,
  lang: Language,
): TotalsView {
  const money = (minor: number) => formatAmount(minor, currency, lang);
  return {
    subtotal: money(amounts.subtotal),
    discount: amounts.discount ? money(amounts.discount) : null,
    deliveryCharge: amounts.deliveryCharge ? money(amounts.deliveryCharge) : null,
    serviceCharge: amounts.serviceCharge ? money(amounts.serviceCharge) : null,
    total: money(amounts.total),
  };
}

export type LineView = {
  name: string;
  details: string[];
  instructions: string;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
};

export function pricedLineView(line: PricedLine, currency: string, lang: Language): LineView {
  return {
    name: nameIn(line.item, lang),
    details: [
      ...(line.size ? [nameIn(line.size, lang)] : []),
      ...line.addOns.map((addOn) => `+ ${nameIn(addOn, lang)}`),
      ...line.options.map((option) => `${lang === "ar" ? option.group_ar : option.group_en}: ${nameIn(option, lang)}`),
    ],
    instructions: line.specialInstructions,
    quantity: line.quantity,
    unitPrice: formatAmount(line.unitPrice, currency, lang),
    lineTotal: formatAmount(line.lineTotal, currency, lang),
  };
}

export function orderLineView(line: OrderLineView, currency: string, lang: Language): LineView {
  return {
    name: nameIn(line, lang),
    details: [
      ...(line.size_en || line.size_ar ? [(lang === "ar" ? line.size_ar : line.size_en) ?? ""] : []),
      ...line.add_ons.map((addOn) => `+ ${nameIn(addOn, lang)}`),
      ...line.options.map((option) => `${lang === "ar" ? option.group_ar : option.group_en}: ${nameIn(option, lang)}`),
    ],
    instructions: line.special_instructions,
    quantity: line.quantity,
    unitPrice: formatAmount(line.unit_price, currency, lang),
    lineTotal: formatAmount(line.line_total, currency, lang),
  };
}

const locale = (lang: Language) => (lang === "ar" ? "ar-KW-u-nu-latn" : "en-US");

/** A branch's working hours, one line per weekday (Monday first), in Kuwait time. */
export function hoursView(hours: readonly Interval[], lang: Language) {
  return [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => {
    const own = hours.filter((hour) => hour.weekday === weekday);
    if (own.length === 0) return [];
    const day = DateTime.fromObject({ weekday: weekday as 1 }, { zone: KUWAIT })
      .setLocale(locale(lang))
      .toFormat("cccc");
    return [{ day, intervals: own.map((hour) => `${hour.opens}–${hour.closes}`).join(", ") }];
  });
}

/** A moment (ISO) in Kuwait time as people read it. */
export function formatKuwaitTime(iso: string | null, lang: Language) {
  if (!iso) return null;
  return DateTime.fromISO(iso).setZone(KUWAIT).setLocale(locale(lang)).toFormat("ccc dd LLL yyyy, HH:mm");
}

/** An image path as a browser may load it: a full or absolute address as it is. */
export function imageUrl(path: string | null | undefined) {
  return path && (/^https?:\/\//.test(path) || path.startsWith("/")) ? path : null;
}
