import type { TransactionRow } from "~/domain/transactions/list.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount, toDecimalString } from "~/lib/money";
import type { CatalogueOrderStatus } from "~/db/schema";
import type { DetailsRow } from "../../contract";

type OrderStore = { id: number; name_en: string; name_ar: string; address_en: string; address_ar: string };

/**
 * What a catalogue transaction bought and where it is collected, as its checkout wrote it on the
 * transaction (checkout.server.ts), with the order's status the hook keeps up to date
 * (orders.server.ts); transactions of orders placed before these were kept may lack them.
 */
type OrderExtra = {
  order: string;
  status?: CatalogueOrderStatus;
  /** The payment completed when the order's units were gone: canceled, to be refunded. */
  paid_without_stock?: boolean;
  lines: {
    slug: string;
    sku: string | null;
    name_en: string;
    name_ar: string;
    quantity: number;
    unit_price: number;
    line_total: number;
  }[];
  subtotal: number;
  discount: number;
  discount_code: string | null;
  store?: OrderStore | null;
};

/** The keys of `extra` the order's details rows show (the details page shows no other copy of them). */
export const ORDER_EXTRA_KEYS = [
  "order",
  "status",
  "paid_without_stock",
  "lines",
  "subtotal",
  "discount",
  "discount_code",
  "store",
] as const satisfies readonly (keyof OrderExtra)[];

const inLanguage = (lang: Language, english: string, arabic: string) =>
  lang === "ar" ? arabic || english : english || arabic;

function orderOf(row: Pick<TransactionRow, "extra">): OrderExtra | null {
  if (!row.extra) return null;
  try {
    const parsed = JSON.parse(row.extra) as Partial<OrderExtra>;
    return typeof parsed.order === "string" && Array.isArray(parsed.lines) ? (parsed as OrderExtra) : null;
  } catch {
    return null;
  }
}

/**
 * The details page's rows of a shop order: its number and status (a paid order canceled for lack of
 * stock says to refund it), the store it is collected from, each line (quantity × product, its
 * total), the discount.
 */
export function orderDetails(row: TransactionRow, lang: Language): DetailsRow[] {
  const order = orderOf(row);
  if (!order) return [];
  const t = translator(lang);
  const money = (minor: number) => formatAmount(minor, row.currency_code, lang);
  const rows: DetailsRow[] = [
    { name: "catalogue_order", label: t("catalogue_public.details.order"), value: `#${row.order_no}` },
  ];
  if (order.status) {
    const status = order.paid_without_stock
      ? t("catalogue_public.details.paid_without_stock")
      : t(`catalogue_public.details.states.${order.status}`);
    rows.push({ name: "catalogue_order_status", label: t("catalogue_public.details.status"), value: status });
  }
  if (order.store) {
    const address = inLanguage(lang, order.store.address_en, order.store.address_ar);
    rows.push({
      name: "catalogue_store",
      label: t("catalogue_public.details.store"),
      value: `${inLanguage(lang, order.store.name_en, order.store.name_ar)}${address ? ` — ${address}` : ""}`,
    });
  }
  order.lines.forEach((line, index) => {
    const name = inLanguage(lang, line.name_en, line.name_ar);
    rows.push({
      name: `catalogue_line_${index + 1}`,
      label: t("catalogue_public.details.line", { number: index + 1 }),
      value: `${line.quantity} × ${name}${line.sku ? ` (${line.sku})` : ""} — ${money(line.line_total)}`,
    });
  });
  if (order.discount > 0)
    rows.push({
      name: "catalogue_discount",
      label: t("catalogue_public.details.discount"),
      value: `${order.discount_code ?? ""} −${money(order.discount)}`.trim(),
    });
  return rows;
}

/** The order's number, status, store and lines as the transactions API answers them. */
export function serializeOrder(row: TransactionRow) {
  const order = orderOf(row);
  if (!order) return { catalogue_order: null };
  const decimal = (minor: number) => toDecimalString(minor, row.currency_code);
  return {
    catalogue_order: {
      number: order.order,
      order_no: row.order_no,
      status: order.status ?? null,
      paid_without_stock: order.paid_without_stock === true,
      store: order.store
        ? {
            id: order.store.id,
            name_en: order.store.name_en,
            name_ar: order.store.name_ar,
            address_en: order.store.address_en,
            address_ar: order.store.address_ar,
          }
        : null,
      subtotal: decimal(order.subtotal),
      discount: decimal(order.discount),
      discount_code: order.discount_code,
      items: order.lines.map((line) => ({
        slug: line.slug,
        sku: line.sku,
        name_en: line.name_en,
        name_ar: line.name_ar,
        quantity: line.quantity,
        unit_price: decimal(line.unit_price),
        line_total: decimal(line.line_total),
      })),
    },
  };
}
