import type { DetailsRow } from "../../contract";
import type { TransactionRow } from "~/domain/transactions/list.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { sourceDetails } from "~/presentation/transaction-sources.server";

function collectorExtra(row: Pick<TransactionRow, "extra">): Record<string, string> {
  try {
    const parsed = JSON.parse(row.extra) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The details page's row for the collector page the customer paid through (its answers are the remarks). */
export function collectorDetails(row: TransactionRow, lang: Language): DetailsRow[] {
  const { collector } = collectorExtra(row);
  if (!collector) return [];
  return [
    {
      name: "collector",
      label: translator(lang)("collectors.details.collector_page"),
      value: `/${lang}/pay/collect/${collector}`,
    },
    ...sourceDetails(row, lang),
  ];
}

/** The API's fields of a collector payment: the collector's public id and the reference the customer gave. */
export function serializeCollectorPayment(row: TransactionRow) {
  const extra = collectorExtra(row);
  return { collector_id: extra.collector ?? null, reference: extra.reference ?? null };
}
