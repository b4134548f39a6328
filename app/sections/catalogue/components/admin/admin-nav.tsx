import { Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export type CataloguePage = "products" | "stores" | "discounts" | "settings";

/** Links between the shop's management pages (settings only for who may change the shop). */
export function AdminNav({ lang, canChange, current }: { lang: string; canChange: boolean; current: CataloguePage }) {
  const { t } = useTranslation();
  const pages: CataloguePage[] = canChange
    ? ["products", "stores", "discounts", "settings"]
    : ["products", "stores", "discounts"];
  return (
    <Group gap="xs" component="nav" aria-label={t("catalogue_admin.nav.label")}>
      {pages.map((page) => (
        <Button
          key={page}
          component={Link}
          to={`/${lang}/catalogue/${page}`}
          size="xs"
          variant={page === current ? "light" : "subtle"}
          aria-current={page === current ? "page" : undefined}
        >
          {t(`catalogue_admin.nav.${page}`)}
        </Button>
      ))}
    </Group>
  );
}
