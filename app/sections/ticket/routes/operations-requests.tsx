import { Anchor, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/operations-requests";
import { PageHeader } from "~/components/page-header";
import { RequestStateBadge } from "~/sections/ticket/components/request-state-badge";
import { RequestFilterForm } from "~/sections/ticket/components/request-filter-form";
import { DataTable, ListPagination } from "~/components/data-table";
import {
  listOperationRequests,
  OPERATION_KINDS,
  operationRequestScope,
} from "~/domain/approvals/operation-requests.server";
import { operationRequestFilterChoices } from "../presentation.server";
import { makerName } from "~/presentation/payment-returns.server";
import { parseRequestQuery, REQUEST_PAGE_SIZES } from "~/domain/approvals/request-filters";
import { formatDateTime } from "~/lib/format";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "طلبات العمليات" : "Operations Requests" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "ticket", "operations_approval");
  const scope = operationRequestScope(auth.user);
  if (!scope) requirePermission(auth, "approve_operations");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const query = parseRequestQuery(new URL(request.url).searchParams, OPERATION_KINDS);
  const [list, choices] = await Promise.all([
    listOperationRequests(db, {
      merchantId: auth.user.merchantId,
      viewer: auth.user,
      filters: query.filters,
      page: query.page,
      perPage: query.perPage,
    }),
    operationRequestFilterChoices(db, auth.user.merchantId, lang),
  ]);
  return {
    lang,
    own: scope === "own",
    choices,
    raw: query.raw,
    errors: query.errors,
    page: query.page,
    pages: Math.max(1, Math.ceil(list.count / query.perPage)),
    count: list.count,
    rows: list.rows.map((row) => ({
      id: row.id,
      transactionId: row.transaction_id,
      orderNo: row.order_no,
      kind: row.kind,
      amount: formatAmount(row.amount, row.currency_code, lang),
      gateway: (lang === "ar" ? row.gateway_name_ar : row.gateway_name_en) ?? row.gateway_code,
      maker: makerName(row.maker_name, lang),
      state: row.state,
      created: formatDateTime(row.created_at, lang),
      expires: row.state === "pending" ? formatDateTime(row.expires_at, lang) : null,
    })),
  };
}

export default function OperationsRequests() {
  const { t } = useTranslation();
  const { lang, own, choices, raw, errors, page, pages, count, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap={0}>
      <PageHeader
        title={t("features.ticket.operations_approval")}
        description={t(own ? "tickets.operations.own_description" : "tickets.operations.description")}
      />
      <RequestFilterForm
        choices={choices}
        raw={raw}
        errors={errors}
        typeLabel={t("tickets.columns.type")}
        perPageChoices={REQUEST_PAGE_SIZES}
      />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("tickets.empty")}
        minWidth={900}
        columns={[
          {
            key: "id",
            header: t("tickets.columns.id"),
            cell: (row) => (
              <Anchor
                component={Link}
                to={`/${lang}/ticket/approve-refund-void/${row.id}`}
                aria-label={t("tickets.open_request", { id: row.id })}
              >
                #{row.id}
              </Anchor>
            ),
          },
          {
            key: "order",
            header: t("tickets.columns.order"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/transactions/${row.transactionId}`}>
                #{row.orderNo}
              </Anchor>
            ),
          },
          { key: "type", header: t("tickets.columns.type"), cell: (row) => t(`tickets.types.${row.kind}`) },
          {
            key: "amount",
            header: t("tickets.columns.amount"),
            cell: (row) => <span dir="ltr">{row.amount}</span>,
            nowrap: true,
          },
          { key: "gateway", header: t("tickets.columns.gateway"), cell: (row) => row.gateway },
          { key: "maker", header: t("tickets.columns.maker"), cell: (row) => row.maker },
          { key: "state", header: t("tickets.columns.state"), cell: (row) => <RequestStateBadge state={row.state} /> },
          { key: "created", header: t("tickets.columns.created"), cell: (row) => row.created, nowrap: true },
          { key: "expires", header: t("tickets.columns.expires"), cell: (row) => row.expires ?? "—", nowrap: true },
        ]}
      />
      <ListPagination page={page} pages={pages} count={t("tickets.count", { total: count })} />
    </Stack>
  );
}
