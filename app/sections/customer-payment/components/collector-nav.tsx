import { Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** Links between the section's set-up pages: the collector pages and the payment restrictions. */
export function CollectorNav({ lang, current }: { lang: string; current: "collectors" | "payment_restriction" }) {
  const { t } = useTranslation();
  const pages = [
    { key: "collectors", path: "collectors" },
    { key: "payment_restriction", path: "payment-restriction" },
  ] as const;
  return (
    <Group gap="xs" component="nav" aria-label={t("collectors.nav_label")}>
      {pages.map((page) => (
        <Button
          key={page.key}
          component={Link}
          to={`/${lang}/customer-payment/${page.path}`}
          size="xs"
          variant={page.key === current ? "light" : "subtle"}
          aria-current={page.key === current ? "page" : undefined}
        >
          {t(`features.customer_payment.${page.key}`)}
        </Button>
      ))}
    </Group>
  );
}
