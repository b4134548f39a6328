import { Anchor, Badge, Box, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/products";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { formatAmount } from "~/lib/money";
import { AdminNav } from "~/sections/catalogue/components/admin/admin-nav";
import { dashboardProductImageUrl } from "~/sections/catalogue/domain/images.server";
import { soldAndHeldUnits } from "~/sections/catalogue/domain/orders.server";
import { listProducts, loadProductImages } from "~/sections/catalogue/domain/products-admin.server";
import { loadShopMoney } from "~/sections/catalogue/domain/shop-money.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "المنتجات" : "Products" }];
}

/** The shop's products, 25 a page, found by name, slug or SKU: picture, price, inventory (with units sold and held by unpaid orders), active. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCataloguePage(context, request, params, {
    feature: "products",
    permission: "view_product",
  });
  const db = getDbFrom(context);
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const requested = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isInteger(requested) && requested > 0 && requested < 100_000 ? requested : 1;
  const [money, list] = await Promise.all([
    loadShopMoney(db, auth.user.merchantId),
    listProducts(db, auth.user.merchantId, { search, page }),
  ]);
  const ids = list.rows.map((row) => row.id);
  const [images, units] = await Promise.all([
    loadProductImages(db, ids),
    soldAndHeldUnits(db, auth.user.merchantId, ids),
  ]);
  return {
    lang,
    canChange,
    search,
    page: list.page,
    pages: list.pages,
    count: list.count,
    rows: list.rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      name: lang === "ar" ? row.name_ar : row.name_en,
      sku: row.sku ?? "",
      image: images.get(row.id)?.[0] ? dashboardProductImageUrl(lang, row.id, images.get(row.id)![0].id) : null,
      price: formatAmount(Number(row.price), money.currency, lang),
      discounted:
        row.discounted_price === null ? null : formatAmount(Number(row.discounted_price), money.currency, lang),
      inventory: row.inventory,
      sold: units.get(row.id)?.sold ?? 0,
      held: units.get(row.id)?.held ?? 0,
      active: Boolean(row.is_active),
    })),
  };
}

export default function Products() {
  const { t } = useTranslation();
  const { lang, canChange, search, page, pages, count, rows } = useLoaderData<typeof loader>();
  const base = `/${lang}/catalogue/products`;
  return (
    <Stack gap="md">
      <PageHeader title={t("catalogue_admin.products.title")}>
        {canChange ? (
          <Group gap="xs">
            <Button component={Link} to={`${base}/upload`} variant="default">
              {t("catalogue_admin.products.import")}
            </Button>
            <Button component={Link} to={`${base}/new`}>
              {t("catalogue_admin.products.new")}
            </Button>
          </Group>
        ) : null}
      </PageHeader>
      <AdminNav lang={lang} canChange={canChange} current="products" />
      <Form method="get" role="search">
        <Group gap="xs" align="flex-end">
          <TextInput
            name="search"
            type="search"
            label={t("catalogue_admin.products.search")}
            defaultValue={search}
            maxLength={100}
            w={320}
          />
          <Button type="submit" variant="default">
            {t("catalogue_admin.products.search_button")}
          </Button>
        </Group>
      </Form>
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={search ? t("catalogue_admin.products.none_found") : t("catalogue_admin.products.empty")}
        minWidth={760}
        columns={[
          {
            key: "name",
            header: t("catalogue_admin.products.name"),
            cell: (row) => (
              <Group gap="sm" wrap="nowrap">
                {row.image ? (
                  <img
                    src={row.image}
                    alt=""
                    width={48}
                    height={48}
                    loading="lazy"
                    style={{
                      objectFit: "cover",
                      borderRadius: 4,
                      flex: "none",
                      background: "var(--mantine-color-gray-1)",
                    }}
                  />
                ) : (
                  <Box w={48} h={48} bg="gray.1" style={{ borderRadius: 4, flex: "none" }} aria-hidden />
                )}
                <Stack gap={0}>
                  <Anchor component={Link} to={`${base}/${row.id}`}>
                    {row.name}
                  </Anchor>
                  <Text size="xs" c="dimmed" dir="ltr">
                    {row.slug}
                    {row.sku ? ` · ${row.sku}` : ""}
                  </Text>
                </Stack>
              </Group>
            ),
          },
          {
            key: "price",
            header: t("catalogue_admin.products.price"),
            nowrap: true,
            cell: (row) =>
              row.discounted ? (
                <Stack gap={0}>
                  <Text span dir="ltr">
                    {row.discounted}
                  </Text>
                  <Text span size="xs" c="dimmed" td="line-through" dir="ltr">
                    {row.price}
                  </Text>
                </Stack>
              ) : (
                <Text span dir="ltr">
                  {row.price}
                </Text>
              ),
          },
          {
            key: "inventory",
            header: t("catalogue_admin.products.inventory"),
            nowrap: true,
            cell: (row) => (
              <Stack gap={0}>
                {row.inventory === null ? (
                  t("catalogue_admin.products.unlimited")
                ) : (
                  <span dir="ltr">{row.inventory}</span>
                )}
                <Text span size="xs" c="dimmed">
                  {t("catalogue_admin.products.sold_held", { sold: row.sold, held: row.held })}
                </Text>
              </Stack>
            ),
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
      <ListPagination page={page} pages={pages} count={t("catalogue_admin.products.count", { count })} />
    </Stack>
  );
}
