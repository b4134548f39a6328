import { List, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { PASSWORD_RULES } from "~/domain/identity/password-rule-keys";

/** The rules a new password must meet, as the server checks them (password-rules.server.ts). */
export function PasswordRules() {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={600} id="password-rules-title">
        {t("password_rules.title")}
      </Text>
      <List size="sm" c="dimmed" spacing={2} aria-labelledby="password-rules-title">
        {PASSWORD_RULES.map((key) => (
          <List.Item key={key}>{t(key)}</List.Item>
        ))}
      </List>
    </div>
  );
}
