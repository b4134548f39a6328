import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/order-duplicate";
import { isLanguage } from "~/lib/i18n";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { orderDetails } from "../domain/order-list.server";
import { orderIdOf, presentOrder } from "../presentation/orders.server";
import { OrderLines, Totals } from "../components/orders/order-view";

/** The dashboard's frame leaves its navigation out on this page (routes/dashboard/layout.tsx reads the flag). */
export const handle = { bare: true };

export function meta({ params, data: page }: Route.MetaArgs) {
  const orderNo = page?.order.orderNo ?? "";
  return [{ title: params.lang === "ar" ? `تذكرة المطبخ ${orderNo}` : `Kitchen ticket ${orderNo}` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "food_ordering", "orders");
  requirePermission(auth, "view_order");
  const db = getDbFrom(context);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const id = orderIdOf(params.id);
  const order = id ? await orderDetails(db, auth.user.merchantId, id) : undefined;
  if (!order) notFound();
  return { lang, order: await presentOrder(db, order, lang) };
}

/** The order laid out for a kitchen screen or a printer: no navigation, large lines, the QR to scan at hand-over. */
export default function KitchenTicket() {
  const { t } = useTranslation();
  const { lang, order } = useLoaderData<typeof loader>();
  return (
    <Stack maw={560} mx="auto" p="md" className="kitchen-ticket">
      <Group justify="space-between" className="no-print">
        <Button component={Link} to={`/${lang}/food-ordering/orders/${order.id}`} variant="subtle">
          {t("food_orders.back_to_order")}
        </Button>
        <Button
          component="a"
          href="#print"
          variant="light"
          onClick={(event: React.MouseEvent) => {
            event.preventDefault();
            window.print();
          }}
        >
          {t("food_orders.print")}
        </Button>
      </Group>
      <Title order={1} fz="h2">
        {t("food_orders.order_title", { orderNo: order.orderNo })}
      </Title>
      <Text fw={700} fz="lg">
        {t(`food_orders.delivery_types.${order.deliveryType}`)} · {order.branch}
      </Text>
      <Text>
        {t("food_orders.created")}: {order.created} · {t("food_orders.scheduled_for")}:{" "}
        {order.scheduledFor ?? t("food_orders.asap")}
      </Text>
      <Text>
        {order.customer.name} · <span dir="ltr">{order.customer.phone}</span>
        {order.area ? ` · ${order.area}` : ""}
      </Text>
      <OrderLines order={order} />
      <Totals order={order} />
      <img src={order.qrImage} alt={t("food_orders.qr_alt", { orderNo: order.orderNo })} width={140} height={140} />
      <style>{"@media print{.no-print{display:none!important}}"}</style>
    </Stack>
  );
}
