import { Anchor } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { languageOfPath, otherLanguage, switchLanguagePath } from "~/lib/i18n";

/** A full-page link to the same page in the other language, so direction and texts switch together. */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const target = otherLanguage(languageOfPath(location.pathname));
  return (
    <Anchor
      href={switchLanguagePath(location.pathname, location.search, target)}
      lang={target}
      hrefLang={target}
      className={className}
      fw={600}
    >
      {t("shell.switch_language")}
    </Anchor>
  );
}
