import type { DB } from "~/db/database.server";
import { hasFeature, SECTIONS, type AvailableSections } from "~/domain/merchant/sections";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { listTransactions } from "./list.server";

/**
 * One box across every section (dashboard spec: search/express): by id, order number, gateway
 * reference, e-mail or phone. Each hit links to its section's details page, or to the
 * all-transactions details when the merchant does not have that section's list.
 */
export const EXPRESS_SEARCH_LIMIT = 50;

/** The newest matches (at most EXPRESS_SEARCH_LIMIT) and how many there are in all. */
export async function expressSearch(db: DB, input: { merchantId: number; q: string; lang: Language; available: AvailableSections }) {
  const page = await findExpressMatches(db, input.merchantId, input.q);
  const rows = page.rows.map((row) => {
    const section = SECTIONS.find((candidate) => candidate.plugin === row.plugin);
    const base = section && hasFeature(input.available, section.key, "transactions") ? `/${input.lang}/${section.path}/transactions` : `/${input.lang}/transactions`;
    return {
      id: row.id,
      orderNo: row.order_no,
      plugin: row.plugin,
      state: row.state,
      email: row.customer_email ?? "",
      phone: row.customer_phone ?? "",
      amount: formatAmount(row.amount, row.currency_code, input.lang),
      created: formatDateTime(row.created_at, input.lang),
      url: `${base}/${row.id}?type=${row.plugin}`,
    };
  });
  return { rows, total: page.count };
}

/** The live transactions of every section matching `q`, newest first, at most EXPRESS_SEARCH_LIMIT, and their count. */
export function findExpressMatches(db: DB, merchantId: number, q: string) {
  return listTransactions(db, { merchantId, deleted: false }, { filters: { q: q.slice(0, 100) }, page: 1, perPage: EXPRESS_SEARCH_LIMIT });
}
