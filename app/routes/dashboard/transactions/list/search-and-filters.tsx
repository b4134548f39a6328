import { Anchor, Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from "@mantine/core";
import { CheckboxChoice } from "~/components/choice";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSubmit } from "react-router";
import { FILTER_NAMES } from "~/domain/transactions/filters";
import { KeepParams, rawValue, rawValues, type ListData } from "./query-params";

/** The search box: applies on blur or Enter, keeping the rest of the view. */
export function SearchBox({ raw }: { raw: ListData["raw"] }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const initial = rawValue(raw, "q");
  return (
    <Form method="get" ref={formRef} role="search">
      <KeepParams raw={raw} except={["q"]} />
      <TextInput
        name="q"
        type="search"
        defaultValue={initial}
        label={t("transactions.search")}
        placeholder={t("transactions.search_placeholder")}
        maxLength={100}
        w={{ base: "100%", sm: 340 }}
        onBlur={(event) => {
          if (event.currentTarget.value !== initial) submit(formRef.current);
        }}
      />
    </Form>
  );
}

/** The filters of dashboard spec §3, as a GET form writing to the query string. */
export function FilterPanel({ data }: { data: ListData }) {
  const { t } = useTranslation();
  const { raw, errors, choices } = data;
  const open = FILTER_NAMES.some((name) => raw[name] !== undefined) || Object.keys(errors).length > 0;
  const flag = (name: string) => (
    <NativeSelect
      name={name}
      label={t(`transactions.filters.${name}`)}
      defaultValue={rawValue(raw, name)}
      data={[
        { value: "", label: t("transactions.filters.any") },
        { value: "true", label: t("transactions.filters.yes") },
        { value: "false", label: t("transactions.filters.no") },
      ]}
    />
  );
  const dateRange = (prefix: "created" | "state_changed_at") => (
    <Group grow align="flex-start">
      <TextInput
        type="date"
        name={`${prefix}_after`}
        label={`${t(`transactions.filters.${prefix}`)} — ${t("transactions.filters.from")}`}
        defaultValue={rawValue(raw, `${prefix}_after`).slice(0, 10)}
        error={errors[`${prefix}_after`] ? t(errors[`${prefix}_after`]) : undefined}
      />
      <TextInput
        type="date"
        name={`${prefix}_before`}
        label={`${t(`transactions.filters.${prefix}`)} — ${t("transactions.filters.to")}`}
        defaultValue={rawValue(raw, `${prefix}_before`).slice(0, 10)}
        error={errors[`${prefix}_before`] ? t(errors[`${prefix}_before`]) : undefined}
      />
    </Group>
  );
  const checks = (name: string, options: { value: string; label: string }[]) => (
    <fieldset className="filter-fieldset">
      <legend>{t(`transactions.filters.${name}`)}</legend>
      <Group gap="xs">
        {options.map((option) => (
          <CheckboxChoice
            key={option.value}
            name={name}
            value={option.value}
            label={option.label}
            defaultChecked={rawValues(raw, name).includes(option.value)}
            size="xs"
          />
        ))}
      </Group>
    </fieldset>
  );
  return (
    <details className="filter-panel" open={open}>
      <summary>
        <Text component="span" fw={600}>
          {t("transactions.filters.title")}
        </Text>
      </summary>
      <Paper withBorder p="md" mt="xs">
        <Form method="get">
          <KeepParams raw={raw} except={[...FILTER_NAMES]} />
          <Stack gap="sm">
            <div className="grid grid--md-2">
              {dateRange("created")}
              {dateRange("state_changed_at")}
            </div>
            {checks("state", choices.states)}
            <div className="grid grid--sm-2 grid--md-4">
              {checks("gateway_code", choices.gateways)}
              {checks(
                "currency_code",
                choices.currencies.map((code) => ({ value: code, label: code })),
              )}
              <NativeSelect
                name="initiator"
                label={t("transactions.filters.initiator")}
                defaultValue={rawValue(raw, "initiator")}
                data={[{ value: "", label: t("transactions.filters.any") }, ...choices.users]}
              />
              <NativeSelect
                name="unit"
                label={t("transactions.filters.unit")}
                defaultValue={rawValue(raw, "unit")}
                data={[{ value: "", label: t("transactions.filters.any") }, ...choices.units]}
              />
              {flag("seen")}
              {flag("email_seen")}
              {flag("disclosed_to_merchant")}
              <TextInput
                name="product_type"
                label={t("transactions.filters.product_type")}
                defaultValue={rawValue(raw, "product_type")}
                maxLength={64}
              />
              <TextInput
                name="bulk"
                label={t("transactions.filters.bulk")}
                defaultValue={rawValue(raw, "bulk")}
                inputMode="numeric"
                pattern="[0-9]*"
                maxLength={9}
              />
            </div>
            <Group>
              <Button type="submit">{t("transactions.filters.apply")}</Button>
              <Anchor
                component={Link}
                to={`${data.place.basePath}${rawValue(raw, "q") ? `?q=${encodeURIComponent(rawValue(raw, "q"))}` : ""}`}
              >
                {t("transactions.filters.clear")}
              </Anchor>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </details>
  );
}
