import { Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** Links between the section's pages: the codes and the sites. */
export function PairingNav({ lang, current }: { lang: string; current: "codes" | "sites" }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" component="nav" aria-label={t("code_pairing.nav_label")}>
      {(["codes", "sites"] as const).map((page) => (
        <Button
          key={page}
          component={Link}
          to={`/${lang}/code-pairing/${page}`}
          size="xs"
          variant={page === current ? "light" : "subtle"}
          aria-current={page === current ? "page" : undefined}
        >
          {t(`features.code_pairing.${page}`)}
        </Button>
      ))}
    </Group>
  );
}
