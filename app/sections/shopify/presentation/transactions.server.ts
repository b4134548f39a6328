import type { DetailsRow } from "../../contract";
import type { TransactionRow } from "~/domain/transactions/list.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";

type ShopExtra = {
  domain?: string;
  reference?: string;
  payment_id?: string;
  kind?: string;
  test?: boolean;
  rejected_at?: string;
  paid_after_reject?: boolean;
};

/** What the shop platform said of the payment, kept on the transaction's `extra.shop`. */
export function shopOf(row: Pick<TransactionRow, "extra">): ShopExtra {
  try {
    const parsed = JSON.parse(row.extra) as { shop?: unknown };
    return parsed && typeof parsed.shop === "object" && parsed.shop && !Array.isArray(parsed.shop)
      ? (parsed.shop as ShopExtra)
      : {};
  } catch {
    return {};
  }
}

/** The details page's rows: the shop, its order reference and its payment id. */
export function shopDetails(row: TransactionRow, lang: Language): DetailsRow[] {
  const shop = shopOf(row);
  const t = translator(lang);
  const rows: DetailsRow[] = [];
  if (shop.domain) rows.push({ name: "shop_domain", label: t("shopify_public.details.shop"), value: shop.domain });
  if (shop.reference)
    rows.push({ name: "shop_reference", label: t("shopify_public.details.reference"), value: shop.reference });
  if (shop.payment_id)
    rows.push({ name: "shop_payment_id", label: t("shopify_public.details.payment_id"), value: shop.payment_id });
  if (shop.kind)
    rows.push({
      name: "shop_kind",
      label: t("shopify_public.details.kind"),
      value: t(`shopify_public.kinds.${shop.kind === "authorization" ? "authorization" : "sale"}`),
    });
  if (shop.paid_after_reject)
    rows.push({
      name: "shop_paid_after_reject",
      label: t("shopify_public.details.paid_after_reject"),
      value: t("shopify_public.details.refund_it"),
    });
  if (shop.test)
    rows.push({
      name: "shop_test",
      label: t("shopify_public.details.test"),
      value: t("shopify_public.details.test_yes"),
    });
  return rows;
}

/** The API's fields of a Shopify payment. */
export function serializeShopPayment(row: TransactionRow) {
  const shop = shopOf(row);
  return {
    shop_domain: shop.domain ?? null,
    shop_reference: shop.reference ?? null,
    shop_payment_id: shop.payment_id ?? null,
    shop_kind: shop.kind ?? null,
    shop_test: shop.test ?? false,
    shop_paid_after_reject: shop.paid_after_reject ?? false,
  };
}
