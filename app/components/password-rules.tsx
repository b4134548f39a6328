import { List, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** The rules a new password must meet, as the server checks them (password-rules.server.ts). */
export const PASSWORD_RULE_KEYS = [
  "password_rules.similar",
  "password_rules.min_length",
  "password_rules.common",
  "password_rules.numeric",
  "password_rules.special",
  "password_rules.digit",
  "password_rules.upper",
] as const;

export function PasswordRules() {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={600} id="password-rules-title">
        {t("password_rules.title")}
      </Text>
      <List size="sm" c="dimmed" spacing={2} aria-labelledby="password-rules-title">
        {PASSWORD_RULE_KEYS.map((key) => (
          <List.Item key={key}>{t(key)}</List.Item>
        ))}
      </List>
    </div>
  );
}
