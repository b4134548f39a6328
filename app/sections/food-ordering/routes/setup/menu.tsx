import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/menu";
import { PageHeader } from "~/components/page-header";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { formatAmount } from "~/lib/money";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import { listCategories, listItems } from "~/sections/food-ordering/domain/menu-admin.server";
import { soldAndHeldPortions } from "~/sections/food-ordering/domain/orders.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "القائمة" : "Menu" }];
}

/** The menu editor: the categories with their dishes (a limited dish's portions left, sold and held by unpaid orders), links to add and change them. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canSetUp } = await guardSetupPage(context, request, params, {
    feature: "product_bulk_create",
    permission: "change_order",
  });
  const db = getDbFrom(context);
  const { currency } = await loadMerchantDefaults(db, auth.user.merchantId);
  const [categories, items, portions] = await Promise.all([
    listCategories(db, auth.user.merchantId),
    listItems(db, auth.user.merchantId),
    soldAndHeldPortions(db, auth.user.merchantId),
  ]);
  return {
    lang,
    canSetUp,
    categories: categories.map((category) => ({
      id: category.id,
      name: lang === "ar" ? category.name_ar : category.name_en,
      active: Boolean(category.is_active),
      catering: Boolean(category.is_catering),
      items: items
        .filter((item) => item.category_id === category.id)
        .map((item) => ({
          id: item.id,
          name: lang === "ar" ? item.name_ar : item.name_en,
          price: formatAmount(Number(item.discounted_price ?? item.price), currency, lang),
          available: Boolean(item.is_available),
          promoted: Boolean(item.is_promoted),
          quantity: item.quantity,
          sold: portions.get(item.id)?.sold ?? 0,
          held: portions.get(item.id)?.held ?? 0,
        })),
    })),
  };
}

export default function Menu() {
  const { t } = useTranslation();
  const { lang, canSetUp, categories } = useLoaderData<typeof loader>();
  const base = `/${lang}/food-ordering/menu`;
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={t("food_setup.menu.title")}>
        <Button component={Link} to={`${base}/categories/new`}>
          {t("food_setup.menu.new_category")}
        </Button>
      </PageHeader>
      <SetupNav lang={lang} canSetUp={canSetUp} current="menu" />
      {categories.length === 0 ? <Text c="dimmed">{t("food_setup.menu.empty")}</Text> : null}
      {categories.map((category) => (
        <Card key={category.id} withBorder padding="lg">
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="xs">
                <Title order={2} fz="h4">
                  <Anchor component={Link} to={`${base}/categories/${category.id}`}>
                    {category.name}
                  </Anchor>
                </Title>
                {category.catering ? <Badge variant="light">{t("food_setup.menu.catering")}</Badge> : null}
                {category.active ? null : (
                  <Badge color="gray" variant="light">
                    {t("food_setup.inactive")}
                  </Badge>
                )}
              </Group>
              <Button component={Link} to={`${base}/items/new?category=${category.id}`} size="xs" variant="default">
                {t("food_setup.menu.new_item")}
              </Button>
            </Group>
            {category.items.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t("food_setup.menu.no_items")}
              </Text>
            ) : null}
            {category.items.map((item) => (
              <Group key={item.id} justify="space-between" wrap="nowrap">
                <Group gap="xs">
                  <Anchor component={Link} to={`${base}/items/${item.id}`}>
                    {item.name}
                  </Anchor>
                  {item.promoted ? (
                    <Badge color="yellow" variant="light">
                      {t("food_setup.menu.promoted")}
                    </Badge>
                  ) : null}
                  {item.available ? null : (
                    <Badge color="gray" variant="light">
                      {t("food_setup.menu.unavailable")}
                    </Badge>
                  )}
                  {item.quantity === null ? null : (
                    <Badge color="blue" variant="light">
                      {t("food_setup.menu.left", { left: item.quantity })}
                    </Badge>
                  )}
                  {item.quantity === null ? null : (
                    <Badge color="gray" variant="light">
                      {t("food_setup.menu.sold_held", { sold: item.sold, held: item.held })}
                    </Badge>
                  )}
                </Group>
                <Text dir="ltr">{item.price}</Text>
              </Group>
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
