import { Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** Links between the set-up pages: branches, menu, vouchers and settings (the last three for who may change them). */
export function SetupNav({
  lang,
  canSetUp,
  current,
}: {
  lang: string;
  canSetUp: boolean;
  current: "branches" | "menu" | "vouchers" | "settings";
}) {
  const { t } = useTranslation();
  const pages = canSetUp ? (["branches", "menu", "vouchers", "settings"] as const) : (["branches"] as const);
  if (pages.length < 2) return null;
  return (
    <Group gap="xs" component="nav" aria-label={t("food_setup.nav.label")}>
      {pages.map((page) => (
        <Button
          key={page}
          component={Link}
          to={`/${lang}/food-ordering/${page}`}
          size="xs"
          variant={page === current ? "light" : "subtle"}
          aria-current={page === current ? "page" : undefined}
        >
          {t(`food_setup.nav.${page}`)}
        </Button>
      ))}
    </Group>
  );
}
