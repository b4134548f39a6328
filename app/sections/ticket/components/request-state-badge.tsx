import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";

const COLORS: Record<string, string> = {
  pending: "orange",
  approved: "green",
  rejected: "red",
  canceled: "gray",
  expired: "red",
};

/** Pending → Approved / Rejected / Canceled / Expired, coloured like the transaction states. */
export function RequestStateBadge({ state }: { state: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[state] ?? "dark"} variant="light">
      {t(`requests.states.${state}`)}
    </Badge>
  );
}
