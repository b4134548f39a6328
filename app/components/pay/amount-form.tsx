import { Button, Group, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";

/**
 * The editable amount: a GET form whose Update button re-prices the payment methods. With
 * JavaScript, the pay-page script re-prices them in place 500 ms after the last key instead.
 */
export function AmountForm({ typedAmount, selected, error }: { typedAmount: string; selected: string | null; error: string | null }) {
  const { t } = useTranslation();
  return (
    <form method="get" data-amount-form>
      {selected ? <input type="hidden" name="gateway" value={selected} /> : null}
      <Group align="flex-start" gap="sm" mt="sm" wrap="nowrap">
        <TextInput
          name="amount"
          label={t("pay.amount_to_pay")}
          description={t("pay.amount_help")}
          defaultValue={typedAmount}
          inputMode="decimal"
          autoComplete="off"
          maxLength={20}
          error={Boolean(error)}
          aria-describedby="amount-error"
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="default" mt={46}>
          {t("pay.update")}
        </Button>
      </Group>
      <Text id="amount-error" c="red" size="sm" role="alert" data-amount-error>
        {error ? t(error) : ""}
      </Text>
    </form>
  );
}
