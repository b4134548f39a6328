import { Button, Card, Group, NativeSelect, SimpleGrid, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";

export type Choice = { value: string; display_name: string };

type Props = {
  /** Choices per filter; a filter without choices is not shown. */
  choices: { states: Choice[]; types: Choice[]; gateways?: Choice[]; currencies?: Choice[] };
  /** The query string's values, to refill the form. */
  raw: Record<string, string>;
  /** Translation keys of filter errors by field. */
  errors: Record<string, string>;
  typeLabel: string;
  perPageChoices: readonly number[];
};

/** The approval lists' filters as a GET form: every value lands in the query string, with or without JavaScript. */
export function RequestFilterForm({ choices, raw, errors, typeLabel, perPageChoices }: Props) {
  const { t } = useTranslation();
  const select = (name: string, label: string, options: Choice[] | undefined) =>
    options ? (
      <NativeSelect
        name={name}
        label={label}
        defaultValue={raw[name] ?? ""}
        data={[
          { value: "", label: t("tickets.filters.any") },
          ...options.map((option) => ({ value: option.value, label: option.display_name })),
        ]}
      />
    ) : null;
  const date = (name: "created_after" | "created_before", label: string) => (
    <TextInput
      type="date"
      name={name}
      label={label}
      defaultValue={raw[name] ?? ""}
      error={errors[name] ? t(errors[name]) : undefined}
      errorProps={{ role: "alert" }}
      aria-invalid={errors[name] ? true : undefined}
    />
  );
  return (
    <Card withBorder padding="md" mb="md">
      <Form method="get" role="search" aria-label={t("tickets.filters.title")}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          {select("state", t("tickets.columns.state"), choices.states)}
          {select("type", typeLabel, choices.types)}
          {select("gateway_code", t("tickets.columns.gateway"), choices.gateways)}
          {select("currency_code", t("tickets.columns.currency"), choices.currencies)}
          {date("created_after", t("tickets.filters.from"))}
          {date("created_before", t("tickets.filters.to"))}
          <NativeSelect
            name="per_page"
            label={t("tickets.filters.per_page")}
            defaultValue={raw.per_page ?? String(perPageChoices[0])}
            data={perPageChoices.map((size) => String(size))}
          />
        </SimpleGrid>
        <Group mt="sm" gap="sm">
          <Button type="submit">{t("tickets.filters.apply")}</Button>
          <Button component={Link} to="?" variant="subtle">
            {t("tickets.filters.clear")}
          </Button>
        </Group>
      </Form>
    </Card>
  );
}
