import { Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { CheckboxChoice } from "~/components/choice";

/** The currencies a gateway takes, as checkboxes named `currencies`. */
export function CurrencyChoices({
  currencies,
  chosen,
  error,
}: {
  currencies: readonly string[];
  chosen: readonly string[];
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="plain-fieldset" aria-describedby={error ? "currencies-error" : undefined}>
      <legend className="choice-legend">{t("admin.gateways.currencies")}</legend>
      <Group gap="md">
        {currencies.map((code) => (
          <CheckboxChoice
            key={code}
            name="currencies"
            value={code}
            defaultChecked={chosen.includes(code)}
            label={<bdi dir="ltr">{code}</bdi>}
          />
        ))}
      </Group>
      {error ? (
        <Text id="currencies-error" size="sm" c="red" mt={4}>
          {error}
        </Text>
      ) : null}
    </fieldset>
  );
}
