import { Anchor, Badge, Button, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/stores";
import { DataTable } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { AdminNav } from "~/sections/catalogue/components/admin/admin-nav";
import { listStores, loadStoreProducts } from "~/sections/catalogue/domain/stores-admin.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "المتاجر" : "Stores" }];
}

/** The stores where customers may collect their orders (public spec `GET /stores`): name, address, phone, products carried. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCataloguePage(context, request, params, {
    feature: "stores",
    permission: "view_product",
  });
  const db = getDbFrom(context);
  const rows = await listStores(db, auth.user.merchantId);
  const carried = await loadStoreProducts(
    db,
    rows.map((row) => row.id),
  );
  return {
    lang,
    canChange,
    rows: rows.map((row) => ({
      id: row.id,
      name: lang === "ar" ? row.name_ar : row.name_en,
      address: lang === "ar" ? row.address_ar : row.address_en,
      phone: row.phone ?? "",
      products: row.carries_all ? null : (carried.get(row.id)?.length ?? 0),
      active: Boolean(row.is_active),
    })),
  };
}

export default function Stores() {
  const { t } = useTranslation();
  const { lang, canChange, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <PageHeader title={t("catalogue_admin.stores.title")}>
        {canChange ? (
          <Button component={Link} to={`/${lang}/catalogue/stores/new`}>
            {t("catalogue_admin.stores.new")}
          </Button>
        ) : null}
      </PageHeader>
      <AdminNav lang={lang} canChange={canChange} current="stores" />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("catalogue_admin.stores.empty")}
        minWidth={720}
        columns={[
          {
            key: "name",
            header: t("catalogue_admin.stores.name"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/catalogue/stores/${row.id}`}>
                {row.name}
              </Anchor>
            ),
          },
          { key: "address", header: t("catalogue_admin.stores.address"), cell: (row) => row.address },
          {
            key: "phone",
            header: t("catalogue_admin.stores.phone"),
            cell: (row) => <span dir="ltr">{row.phone}</span>,
            nowrap: true,
          },
          {
            key: "products",
            header: t("catalogue_admin.stores.products"),
            cell: (row) =>
              row.products === null
                ? t("catalogue_admin.stores.all_products")
                : t("catalogue_admin.stores.some_products", { count: row.products }),
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
