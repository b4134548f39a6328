import { Anchor, Badge, Button, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/vouchers";
import { DataTable } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { basisPointsToPercent } from "~/domain/commerce/offer-codes-admin.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { formatAmount } from "~/lib/money";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import { KUWAIT } from "~/sections/food-ordering/domain/hours";
import { listVouchers } from "~/sections/food-ordering/domain/vouchers-admin.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { getDbFrom } from "~/web/request-context.server";
import { DateTime } from "luxon";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "القسائم" : "Vouchers" }];
}

const kuwaitDate = (iso: string | null) =>
  iso ? DateTime.fromISO(iso).setZone(KUWAIT).toFormat("yyyy-MM-dd HH:mm") : "";

/** The merchant's vouchers: code, discount, validity (Kuwait time), uses. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canSetUp } = await guardSetupPage(context, request, params, {
    feature: "product_bulk_create",
    permission: "change_order",
  });
  const db = getDbFrom(context);
  const { currency } = await loadMerchantDefaults(db, auth.user.merchantId);
  const rows = await listVouchers(db, auth.user.merchantId);
  return {
    lang,
    canSetUp,
    rows: rows.map((row) => ({
      id: row.id,
      code: row.code,
      discount:
        row.discount_type === "percentage"
          ? `${basisPointsToPercent(Number(row.amount))}%`
          : formatAmount(Number(row.amount), currency, lang),
      validity: [kuwaitDate(row.valid_from), kuwaitDate(row.valid_to)].filter(Boolean).join(" – "),
      uses: row.max_uses === null ? String(row.used) : `${row.used} / ${row.max_uses}`,
      active: Boolean(row.is_active),
    })),
  };
}

export default function Vouchers() {
  const { t } = useTranslation();
  const { lang, canSetUp, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <PageHeader title={t("food_setup.vouchers.title")}>
        <Button component={Link} to={`/${lang}/food-ordering/vouchers/new`}>
          {t("food_setup.vouchers.new")}
        </Button>
      </PageHeader>
      <SetupNav lang={lang} canSetUp={canSetUp} current="vouchers" />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("food_setup.vouchers.empty")}
        minWidth={720}
        columns={[
          {
            key: "code",
            header: t("food_setup.vouchers.code"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/food-ordering/vouchers/${row.id}`} dir="ltr">
                {row.code}
              </Anchor>
            ),
          },
          {
            key: "discount",
            header: t("food_setup.vouchers.discount"),
            cell: (row) => <span dir="ltr">{row.discount}</span>,
            nowrap: true,
          },
          {
            key: "validity",
            header: t("food_setup.vouchers.validity"),
            cell: (row) => <span dir="ltr">{row.validity}</span>,
          },
          {
            key: "uses",
            header: t("food_setup.vouchers.uses"),
            cell: (row) => <span dir="ltr">{row.uses}</span>,
            nowrap: true,
          },
          {
            key: "active",
            header: t("food_setup.fields.is_active"),
            cell: (row) =>
              row.active ? (
                <Badge color="green" variant="light">
                  {t("food_setup.yes")}
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  {t("food_setup.no")}
                </Badge>
              ),
          },
        ]}
      />
    </Stack>
  );
}
