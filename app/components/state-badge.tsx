import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";

/**
 * Dashboard spec §4: Created blue; Pending and Attempted orange; Paid green; Failed, Canceled, Expired,
 * Invalid red; others black — Refunded, Voided, and the display state Partially refunded (a paid
 * transaction some of whose money was given back: pass displayStateOf(row) from
 * app/domain/transactions/display-state.ts, not the stored state, wherever a transaction's state is shown).
 */
export function stateColor(state: string): string {
  switch (state) {
    case "created":
      return "blue";
    case "pending":
    case "attempted":
      return "orange";
    case "paid":
      return "green";
    case "failed":
    case "canceled":
    case "expired":
    case "invalid":
      return "red";
    default:
      return "dark";
  }
}

export function StateBadge({ state }: { state: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Badge
      color={stateColor(state)}
      variant="light"
      style={{ flexShrink: 0, maxWidth: "none", overflow: "visible" }}
      styles={{ label: { overflow: "visible" } }}
    >
      {i18n.exists(`states.${state}`) ? t(`states.${state}`) : state}
    </Badge>
  );
}
