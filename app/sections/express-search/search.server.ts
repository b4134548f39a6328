import type { DB } from "~/db/database.server";
import { hasFeature, type AvailableSections } from "~/domain/merchants/merchants.server";
import { findExpressMatches } from "~/domain/transactions/express-search.server";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { findSection } from "../registry";

/**
 * Each hit links to its section's details page, or to the all-transactions details when the
 * merchant does not have that section's list.
 */
/**
 * The newest matches (at most EXPRESS_SEARCH_LIMIT) and how many there are in all. Each hit links
 * to its section's details page, or to the all-transactions details when the merchant does not
 * have that section's list.
 */
export async function expressSearch(
  db: DB,
  input: { merchantId: number; q: string; lang: Language; available: AvailableSections },
) {
  const page = await findExpressMatches(db, input.merchantId, input.q);
  const rows = page.rows.map((row) => {
    const section = findSection(row.plugin);
    const base =
      section && hasFeature(input.available, section.key, "transactions")
        ? `/${input.lang}/${section.path}/transactions`
        : `/${input.lang}/transactions`;
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
