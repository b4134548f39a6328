import { Anchor, Button, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/branches";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import { addressText } from "~/sections/food-ordering/domain/address-html";
import { BRANCHES_PER_PAGE, listBranches } from "~/sections/food-ordering/domain/branches-admin.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الفروع" : "Branches" }];
}

/** The merchant's branches, 10 a page (spec §2, §9): name, email, phone and address. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange, canSetUp } = await guardSetupPage(context, request, params, {
    feature: "branches",
    permission: "view_order",
  });
  const requested = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(requested) && requested > 0 && requested < 100_000 ? requested : 1;
  const { rows, count } = await listBranches(getDbFrom(context), auth.user.merchantId, {
    page,
    size: BRANCHES_PER_PAGE,
  });
  return {
    lang,
    canChange,
    canSetUp,
    page,
    pages: Math.max(1, Math.ceil(count / BRANCHES_PER_PAGE)),
    rows: rows.map((row) => ({
      id: row.id,
      name: lang === "ar" ? row.name_ar : row.name_en,
      email: row.email ?? "",
      phone: row.phone ?? "",
      address: addressText(row.address_html),
      active: Boolean(row.is_active),
    })),
  };
}

export default function Branches() {
  const { t } = useTranslation();
  const { lang, canChange, canSetUp, page, pages, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <PageHeader title={t("food_setup.branches.title")}>
        {canChange ? (
          <Button component={Link} to={`/${lang}/food-ordering/branches/new`}>
            {t("food_setup.branches.new")}
          </Button>
        ) : null}
      </PageHeader>
      <SetupNav lang={lang} canSetUp={canSetUp} current="branches" />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("food_setup.branches.empty")}
        minWidth={720}
        columns={[
          {
            key: "name",
            header: t("food_setup.branches.columns.name"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/food-ordering/branches/${row.id}`}>
                {row.name}
                {row.active ? "" : ` (${t("food_setup.inactive")})`}
              </Anchor>
            ),
          },
          {
            key: "email",
            header: t("food_setup.branches.columns.email"),
            cell: (row) => <span dir="ltr">{row.email}</span>,
          },
          {
            key: "phone",
            header: t("food_setup.branches.columns.phone"),
            cell: (row) => <span dir="ltr">{row.phone}</span>,
            nowrap: true,
          },
          { key: "address", header: t("food_setup.branches.columns.address"), cell: (row) => row.address },
        ]}
      />
      <ListPagination page={page} pages={pages} />
    </Stack>
  );
}
