import { Button, Group, TextInput } from "@mantine/core";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, useSubmit } from "react-router";

/**
 * The editable amount. Without JavaScript it is a GET form with an Update button that re-prices
 * the payment methods; with JavaScript the prices follow the typing (500 ms after the last key).
 */
export function AmountForm({ typedAmount, selected, error }: { typedAmount: string; selected: string | null; error: string | null }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onInput = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
    }, 500);
  };

  return (
    <Form method="get" ref={formRef} preventScrollReset>
      {selected ? <input type="hidden" name="gateway" value={selected} /> : null}
      <Group align="flex-end" gap="sm" mt="sm" wrap="nowrap">
        <TextInput
          name="amount"
          label={t("pay.amount_to_pay")}
          description={t("pay.amount_help")}
          defaultValue={typedAmount}
          inputMode="decimal"
          autoComplete="off"
          maxLength={20}
          error={error ? t(error) : undefined}
          onInput={onInput}
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="default" mb={error ? 22 : 0}>
          {t("pay.update")}
        </Button>
      </Group>
    </Form>
  );
}
