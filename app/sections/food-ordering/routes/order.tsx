import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/order";
import { PageHeader } from "~/components/page-header";
import type { FoodOrderStatus } from "~/db/schema";
import { can } from "~/domain/identity/permissions";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { platformAddresses } from "~/web/addresses.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { ORDER_STATUSES } from "../domain/order-filters";
import { markOrderSeen, orderDetails } from "../domain/order-list.server";
import { cancelOrder, changeOrderStatus } from "../domain/orders.server";
import { orderIdOf, presentOrder } from "../presentation/orders.server";
import { PaymentReturns } from "~/components/payment-returns";
import { paymentReturnsView } from "~/presentation/payment-returns.server";
import { OrderLines, OrderSummary } from "../components/orders/order-view";

export function meta({ params, data: page }: Route.MetaArgs) {
  const orderNo = page?.order.orderNo ?? "";
  return [{ title: params.lang === "ar" ? `الطلب ${orderNo}` : `Order ${orderNo}` }];
}

async function guard({ context, request }: { context: Route.LoaderArgs["context"]; request: Request }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "food_ordering", "orders");
  requirePermission(auth, "view_order");
  return auth;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard({ context, request });
  const db = getDbFrom(context);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const id = orderIdOf(params.id);
  const order = id ? await orderDetails(db, auth.user.merchantId, id) : undefined;
  if (!order) notFound();
  // Opening an order takes it off the Orders badge.
  await markOrderSeen(db, auth.user.merchantId, order.id);
  return {
    lang,
    order: await presentOrder(db, order, lang),
    paymentReturns: await paymentReturnsView(db, auth.user.merchantId, [order.transaction_id], lang),
    canChange: can(auth.user, "change_order"),
    confirmCancel: new URL(request.url).searchParams.get("confirm") === "cancel",
  };
}

/** intent=status (the workflow's next state) or intent=cancel (after the confirm step); both need change_order. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  requirePermission(auth, "change_order");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const t = translator(lang);
  const id = orderIdOf(params.id);
  if (!id) notFound();
  const form = await readFormData(request);
  const intent = form.get("intent");
  const input = { merchantId: auth.user.merchantId, actor: auth.user, id, addresses: platformAddresses(request) };
  const db = getDbFrom(context);
  let outcome;
  if (intent === "status") {
    const status = String(form.get("status") ?? "");
    if (!(ORDER_STATUSES as readonly string[]).includes(status) || status === "canceled")
      return data({ error: t("food_orders.errors.status") }, { status: 400 });
    outcome = await changeOrderStatus(db, { ...input, status: status as FoodOrderStatus });
  } else if (intent === "cancel") {
    outcome = await cancelOrder(db, input);
  } else {
    return data({ error: t("food_orders.errors.status") }, { status: 400 });
  }
  if (!outcome.ok) {
    if (outcome.code === "api.not_found") notFound();
    return data({ error: t(outcome.code) }, { status: 400 });
  }
  // A notice is a translation key (the flash carries keys only): one per state, and per refund outcome for a cancel.
  const refunds = outcome.refunds ?? [];
  const message =
    outcome.status !== "canceled"
      ? `food_orders.moved_to.${outcome.status}`
      : refunds.length === 0
        ? "food_orders.canceled_notice.plain"
        : refunds.some((refund) => !refund.ok)
          ? "food_orders.canceled_notice.refund_refused"
          : refunds.some((refund) => refund.ok && refund.requestId !== undefined)
            ? "food_orders.canceled_notice.refund_approval"
            : "food_orders.canceled_notice.refunded";
  return redirect(`/${lang}/food-ordering/orders/${id}`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
  });
}

export default function FoodOrder({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { lang, order, canChange, confirmCancel, paymentReturns } = useLoaderData<typeof loader>();
  const base = `/${lang}/food-ordering/orders/${order.id}`;
  return (
    <Stack>
      <PageHeader title={t("food_orders.order_title", { orderNo: order.orderNo })}>
        <Group>
          <Button component={Link} to={`${base}/duplicate`} variant="light">
            {t("food_orders.kitchen_ticket")}
          </Button>
          <Anchor component={Link} to={`/${lang}/food-ordering/orders`}>
            {t("food_orders.back")}
          </Anchor>
        </Group>
      </PageHeader>
      {actionData && "error" in actionData ? (
        <Alert color="red" role="alert">
          {actionData.error}
        </Alert>
      ) : null}
      <PaymentReturns returns={paymentReturns} />
      {canChange && (order.next.length || order.cancelable) ? (
        <Card withBorder>
          <Title order={2} fz="h4" mb="sm">
            {t("food_orders.workflow")}
          </Title>
          <Group>
            {order.next.map((status) => (
              <Form method="post" key={status}>
                <input type="hidden" name="intent" value="status" />
                <input type="hidden" name="status" value={status} />
                <Button type="submit">{t(`food_orders.move_to.${status}`)}</Button>
              </Form>
            ))}
            {order.cancelable && !confirmCancel ? (
              <Button component={Link} to={`${base}?confirm=cancel`} color="red" variant="light">
                {t("food_orders.cancel")}
              </Button>
            ) : null}
          </Group>
          {order.cancelable && confirmCancel ? (
            <Alert color="red" mt="md" title={t("food_orders.cancel_confirm")}>
              <Text size="sm" mb="sm">
                {t("food_orders.cancel_explained")}
              </Text>
              <Group>
                <Form method="post">
                  <input type="hidden" name="intent" value="cancel" />
                  <Button type="submit" color="red">
                    {t("food_orders.cancel_yes")}
                  </Button>
                </Form>
                <Button component={Link} to={base} variant="default">
                  {t("food_orders.cancel_no")}
                </Button>
              </Group>
            </Alert>
          ) : null}
        </Card>
      ) : null}
      <Card withBorder>
        <OrderLines order={order} />
      </Card>
      <OrderSummary order={order} qrImage={order.qrImage} qr={order.qr} />
    </Stack>
  );
}
