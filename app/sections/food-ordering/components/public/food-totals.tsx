import { useText } from "~/components/pay/use-text";
import { Totals as KitTotals } from "~/components/customer/price";

export type TotalsView = {
  subtotal: string;
  discount: string | null;
  deliveryCharge: string | null;
  serviceCharge: string | null;
  total: string;
};

/** The cart's or order's amounts, already formatted. */
export function Totals({ totals }: { totals: TotalsView }) {
  const t = useText();
  const optional = (label: string, amount: string | null, discount?: boolean) =>
    amount ? [{ label, amount, discount }] : [];
  return (
    <KitTotals
      name="food-totals"
      rows={[
        { label: t("food_public.totals.subtotal"), amount: totals.subtotal },
        ...optional(t("food_public.totals.discount"), totals.discount, true),
        ...optional(t("food_public.totals.delivery_charge"), totals.deliveryCharge),
        ...optional(t("food_public.totals.service_charge"), totals.serviceCharge),
        { label: t("food_public.totals.total"), amount: totals.total, total: true },
      ]}
    />
  );
}
