import { Anchor, Badge, Button, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/sessions";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { StateBadge } from "~/components/state-badge";
import { findSection } from "~/sections/registry";
import { formatDateTime } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { lastDeliveries } from "../domain/session-webhooks.server";
import { listSessions, SESSIONS_PAGE_SIZE, sessionState } from "../domain/sessions.server";
import { SESSION_FILTERS, type SessionFilter } from "../domain/session-filters";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "جلسات الدفع" : "Checkout sessions" }];
}

/** The merchant's checkout sessions: its order number, amount, state, webhook and the transaction behind each. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "session", "sessions");
  requirePermission(auth, "view_paymenttransaction");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const url = new URL(request.url);
  const state = SESSION_FILTERS.find((value) => value === url.searchParams.get("state")) as SessionFilter | undefined;
  const orderNo = url.searchParams.get("order_no")?.trim().slice(0, 100) || undefined;
  const page = Math.max(1, Math.min(10_000, Number(url.searchParams.get("page")) || 1));
  const db = getDbFrom(context);
  const { count, rows } = await listSessions(db, auth.user.merchantId, { state, orderNo, page });
  const deliveries = await lastDeliveries(
    db,
    auth.user.merchantId,
    rows.map((row) => row.id),
  );
  return {
    lang,
    state: state ?? "",
    orderNo: orderNo ?? "",
    page,
    pages: Math.ceil(count / SESSIONS_PAGE_SIZE),
    count,
    rows: rows.map((row) => ({
      id: row.id,
      orderNo: row.order_no,
      type: row.type,
      amount: formatAmount(row.amount, row.currency_code, lang),
      state: sessionState(row),
      created: formatDateTime(row.created_at, lang),
      checkoutUrl: `/${lang}/checkout/${row.id}`,
      transactionUrl: `/${lang}/${findSection(row.type)?.path ?? ""}/transactions/${row.transaction_id}`,
      webhook: row.webhook_url ? (deliveries.get(row.id) ?? null) : null,
    })),
  };
}

export default function Sessions() {
  const { t } = useTranslation();
  const { state, orderNo, page, pages, count, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <PageHeader title={t("sessions.title")} description={t("sessions.intro")} />
      <Form method="get">
        <Group align="flex-end" gap="sm">
          <NativeSelect
            name="state"
            label={t("sessions.filters.state")}
            defaultValue={state}
            data={[
              { value: "", label: t("sessions.filters.any") },
              ...SESSION_FILTERS.map((value) => ({ value, label: t(`states.${value}`) })),
            ]}
          />
          <TextInput
            name="order_no"
            label={t("sessions.fields.order_no")}
            defaultValue={orderNo}
            maxLength={100}
            dir="ltr"
          />
          <Button type="submit" variant="default">
            {t("sessions.filters.apply")}
          </Button>
        </Group>
      </Form>
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("sessions.empty")}
        minWidth={820}
        columns={[
          {
            key: "order_no",
            header: t("sessions.fields.order_no"),
            cell: (row) => (
              <Text size="sm" dir="ltr">
                {row.orderNo ?? "—"}
              </Text>
            ),
            nowrap: true,
          },
          {
            key: "amount",
            header: t("sessions.fields.amount"),
            cell: (row) => <Text size="sm">{row.amount}</Text>,
            nowrap: true,
          },
          {
            key: "state",
            header: t("sessions.fields.state"),
            cell: (row) => <StateBadge state={row.state} />,
            nowrap: true,
          },
          {
            key: "type",
            header: t("sessions.fields.type"),
            cell: (row) => <Text size="sm">{t(`sessions.types.${row.type}`)}</Text>,
            nowrap: true,
          },
          {
            key: "webhook",
            header: t("sessions.fields.webhook"),
            cell: (row) =>
              row.webhook ? (
                <Badge
                  color={
                    row.webhook.status === "succeeded" ? "green" : row.webhook.status === "failed" ? "red" : "gray"
                  }
                  variant="light"
                >
                  {t(`sessions.webhook.${row.webhook.status}`)}
                </Badge>
              ) : (
                <Text size="sm" c="dimmed">
                  —
                </Text>
              ),
            nowrap: true,
          },
          {
            key: "created",
            header: t("sessions.fields.created"),
            cell: (row) => <Text size="sm">{row.created}</Text>,
            nowrap: true,
          },
          {
            key: "transaction",
            header: t("sessions.fields.transaction"),
            cell: (row) => (
              <Group gap="sm" wrap="nowrap">
                <Anchor component={Link} to={row.transactionUrl} size="sm">
                  {t("sessions.open_transaction")}
                </Anchor>
                <Anchor href={row.checkoutUrl} target="_blank" rel="noopener" size="sm">
                  {t("sessions.checkout_page")}
                </Anchor>
              </Group>
            ),
            nowrap: true,
          },
        ]}
      />
      <ListPagination page={page} pages={pages} count={t("sessions.count", { count })} />
    </Stack>
  );
}
