import { SimpleGrid, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { CheckboxChoice } from "~/components/choice";

/** Permissions as checkboxes named `permissions`, under a legend, with their translated labels. */
export function PermissionChoices({
  permissions,
  chosen,
  error,
  idPrefix,
}: {
  permissions: readonly string[];
  chosen: readonly string[];
  error?: string;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="plain-fieldset" aria-describedby={error ? `${idPrefix}-permissions-error` : undefined}>
      <legend className="choice-legend">{t("admin.roles.permissions")}</legend>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4}>
        {permissions.map((permission) => (
          <CheckboxChoice
            key={permission}
            name="permissions"
            value={permission}
            defaultChecked={chosen.includes(permission)}
            label={t(`permissions.${permission}`)}
          />
        ))}
      </SimpleGrid>
      {error ? (
        <Text id={`${idPrefix}-permissions-error`} size="sm" c="red" mt={4}>
          {error}
        </Text>
      ) : null}
    </fieldset>
  );
}
