import { Alert, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSubmit } from "react-router";
import type { HomeData } from "./home.server";

/**
 * The period choices as links (a link per period, so leaving custom drops its dates) and, for a
 * custom period, a GET form with From and To. It loads once both dates are set.
 */
export function PeriodBar({ data }: { data: HomeData }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const { query, periodErrors } = data;
  const year = query.year ? `&txn_avg_size_year=${query.year}` : "";
  const submitWhenBoth = () => {
    const form = formRef.current;
    if (!form) return;
    const values = new FormData(form);
    if (values.get("date_after") && values.get("date_before") && form.checkValidity()) submit(form);
  };
  return (
    <Stack gap="xs">
      <nav aria-label={t("statistics.period")}>
        <div className="period-links">
          {data.periods.map((choice) => {
            const active = choice.value === query.period;
            return (
              <Button
                key={choice.value}
                component={Link}
                to={`?period=${choice.value}${year}`}
                size="compact-sm"
                variant={active ? "filled" : "subtle"}
                color={active ? undefined : "dark"}
                aria-current={active ? "page" : undefined}
                preventScrollReset
              >
                {choice.label}
              </Button>
            );
          })}
        </div>
      </nav>
      {query.period === "custom" ? (
        <Form method="get" ref={formRef} preventScrollReset aria-label={t("statistics.periods.custom")}>
          <input type="hidden" name="period" value="custom" />
          {query.year ? <input type="hidden" name="txn_avg_size_year" value={query.year} /> : null}
          <Group align="flex-start" gap="sm">
            <TextInput
              type="date"
              name="date_after"
              label={t("statistics.from")}
              defaultValue={query.dateAfter}
              required
              min="2000-01-01"
              error={periodErrors.date_after ? t(periodErrors.date_after) : undefined}
              onChange={submitWhenBoth}
            />
            <TextInput
              type="date"
              name="date_before"
              label={t("statistics.to")}
              defaultValue={query.dateBefore}
              required
              min="2000-01-01"
              error={periodErrors.date_before ? t(periodErrors.date_before) : undefined}
              onChange={submitWhenBoth}
            />
            <Button type="submit" mt={25} variant="default">
              {t("statistics.apply")}
            </Button>
          </Group>
        </Form>
      ) : null}
      {data.incomplete ? (
        <Alert variant="light" color="blue" role="status">
          {t("statistics.choose_dates")}
        </Alert>
      ) : null}
      {periodErrors.period ? (
        <Alert variant="light" color="red" role="alert">
          {t(periodErrors.period)}
        </Alert>
      ) : null}
      {data.statistics ? (
        <Text size="sm" c="dimmed">
          {t("statistics.showing", { current: data.statistics.current, previous: data.statistics.previous })}
        </Text>
      ) : null}
    </Stack>
  );
}
