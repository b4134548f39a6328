import { Anchor, Badge, Button, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/discounts";
import { DataTable } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { basisPointsToPercent } from "~/domain/commerce/offer-codes-admin.server";
import { formatDateTime } from "~/lib/format";
import { formatAmount } from "~/lib/money";
import { AdminNav } from "~/sections/catalogue/components/admin/admin-nav";
import { listDiscounts } from "~/sections/catalogue/domain/discounts-admin.server";
import { loadShopMoney } from "~/sections/catalogue/domain/shop-money.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الخصومات" : "Discounts" }];
}

/** The shop's discount codes: code, discount, validity (Kuwait time), uses, active. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCataloguePage(context, request, params, {
    feature: "discounts",
    permission: "view_product",
  });
  const db = getDbFrom(context);
  const [money, rows] = await Promise.all([
    loadShopMoney(db, auth.user.merchantId),
    listDiscounts(db, auth.user.merchantId),
  ]);
  return {
    lang,
    canChange,
    rows: rows.map((row) => ({
      id: row.id,
      code: row.code,
      discount:
        row.discount_type === "percentage"
          ? `${basisPointsToPercent(Number(row.amount))}%`
          : formatAmount(Number(row.amount), money.currency, lang),
      minimum: Number(row.min_total) ? formatAmount(Number(row.min_total), money.currency, lang) : "",
      validity: [row.valid_from, row.valid_to]
        .map((iso) => (iso ? formatDateTime(iso, lang) : ""))
        .filter(Boolean)
        .join(" – "),
      uses: row.max_uses === null ? String(row.used) : `${row.used} / ${row.max_uses}`,
      active: Boolean(row.is_active),
    })),
  };
}

export default function Discounts() {
  const { t } = useTranslation();
  const { lang, canChange, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <PageHeader title={t("catalogue_admin.discounts.title")}>
        {canChange ? (
          <Button component={Link} to={`/${lang}/catalogue/discounts/new`}>
            {t("catalogue_admin.discounts.new")}
          </Button>
        ) : null}
      </PageHeader>
      <AdminNav lang={lang} canChange={canChange} current="discounts" />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("catalogue_admin.discounts.empty")}
        minWidth={760}
        columns={[
          {
            key: "code",
            header: t("catalogue_admin.discounts.code"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/catalogue/discounts/${row.id}`} dir="ltr">
                {row.code}
              </Anchor>
            ),
          },
          {
            key: "discount",
            header: t("catalogue_admin.discounts.discount"),
            cell: (row) => <span dir="ltr">{row.discount}</span>,
            nowrap: true,
          },
          {
            key: "minimum",
            header: t("catalogue_admin.discounts.min_total"),
            cell: (row) => <span dir="ltr">{row.minimum}</span>,
            nowrap: true,
          },
          { key: "validity", header: t("catalogue_admin.discounts.validity"), cell: (row) => row.validity },
          {
            key: "uses",
            header: t("catalogue_admin.discounts.uses"),
            cell: (row) => <span dir="ltr">{row.uses}</span>,
            nowrap: true,
          },
          {
            key: "active",
            header: t("catalogue_admin.fields.is_active"),
            cell: (row) =>
              row.active ? (
                <Badge color="green" variant="light">
                  {t("catalogue_admin.yes")}
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  {t("catalogue_admin.no")}
                </Badge>
              ),
          },
        ]}
      />
    </Stack>
  );
}
