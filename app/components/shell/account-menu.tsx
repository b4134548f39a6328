import { Button, Divider, Paper, Stack, UnstyledButton, Group, Text } from "@mantine/core";
import { IconChevronDown, IconExternalLink, IconLanguage, IconLogout, IconUser } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { otherLanguage, switchLanguagePath, type Language } from "~/lib/i18n";

/**
 * The top-bar menu. A <details> disclosure, so it opens and its logout form posts
 * without JavaScript; with JavaScript it also closes on an outside click or Escape.
 */
export function AccountMenu({
  lang,
  username,
  adminUrl,
}: {
  lang: Language;
  username: string;
  adminUrl: string | null;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const close = (event: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !details.contains(event.target as Node)) {
        details.open = false;
      }
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);

  const target = otherLanguage(lang);
  return (
    <details className="disclosure-menu" ref={ref}>
      <summary>
        <Group gap={6} wrap="nowrap">
          <Text fw={600} size="sm">
            {t("shell.greeting", { username })}
          </Text>
          <IconChevronDown size={16} aria-hidden />
        </Group>
      </summary>
      <Paper withBorder shadow="md" p={6} className="disclosure-menu__panel">
        <Stack gap={2}>
          {adminUrl ? (
            // The platform's own panel opens here; one run elsewhere (the merchant's admin_url) in a new tab.
            <MenuLink href={adminUrl} icon={<IconExternalLink size={16} />} external={!adminUrl.startsWith("/")}>
              {t("shell.admin_panel")}
            </MenuLink>
          ) : null}
          <MenuLink
            href={switchLanguagePath(location.pathname, location.search, target)}
            icon={<IconLanguage size={16} />}
          >
            {t("shell.switch_language")}
          </MenuLink>
          <UnstyledButton component={Link} to={`/${lang}/user`} className="menu-item">
            <Group gap={8}>
              <IconUser size={16} aria-hidden />
              <Text size="sm">{t("shell.account_settings")}</Text>
            </Group>
          </UnstyledButton>
          <Divider my={4} />
          <Form method="post" action={`/${lang}/logout`}>
            <Button
              type="submit"
              variant="subtle"
              color="red"
              fullWidth
              justify="flex-start"
              leftSection={<IconLogout size={16} />}
            >
              {t("shell.logout")}
            </Button>
          </Form>
        </Stack>
      </Paper>
    </details>
  );
}

function MenuLink(props: { href: string; icon: React.ReactNode; external?: boolean; children: React.ReactNode }) {
  return (
    <UnstyledButton
      component="a"
      href={props.href}
      className="menu-item"
      {...(props.external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
    >
      <Group gap={8}>
        <span aria-hidden>{props.icon}</span>
        <Text size="sm">{props.children}</Text>
      </Group>
    </UnstyledButton>
  );
}
