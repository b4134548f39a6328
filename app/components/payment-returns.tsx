import { Alert, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { PaymentReturnView } from "~/presentation/payment-returns.server";

/**
 * A payment that should not have been taken, given back by the platform by itself (an order canceled
 * before it arrived, a second payment): on the order, booking and transaction pages.
 */
export function PaymentReturns({ returns }: { returns: readonly PaymentReturnView[] }) {
  const { t } = useTranslation();
  return returns.map((given) => (
    <Alert
      key={given.attemptId}
      color={given.status === "attention" ? "red" : given.status === "returned" ? "green" : "blue"}
      title={t("payment_return.title")}
    >
      <Text size="sm">
        {t("payment_return.notice", {
          amount: given.amount,
          kind: t(`payment_return.kind.${given.kind}`),
          reason: t(`payment_return.reasons.${given.reason}`),
        })}
      </Text>
      <Text size="sm" fw={600}>
        {t(`payment_return.status.${given.status}`)}
      </Text>
    </Alert>
  ));
}
