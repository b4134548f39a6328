import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/food-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/order-confirmation";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, Card, TextAreaField } from "~/components/pay/ui";
import { kuwaitAreaIn } from "~/domain/payments/kuwait-areas";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { giveOrderFeedback } from "../../domain/feedback.server";
import { FINAL_STATES, findOrderByNumber, mayLeaveFeedback } from "../../domain/public-menu.server";
import { CartLine } from "~/components/customer/cart";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { Totals } from "../../components/public/food-totals";
import { fieldMessages, languageOf, unitHeader } from "./food-page.server";
import { formatKuwaitTime, orderLineView, totalsView } from "./food-view.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); it refreshes itself while the order moves. */
export const handle = { hydrate: false };

/** Seconds between the page's own refreshes while the order is still on its way. */
const REFRESH_SECONDS = 20;

export function meta({ data: page }: Route.MetaArgs) {
  const tags: { title?: string; httpEquiv?: string; content?: string; name?: string }[] = [
    { title: page ? `#${page.order.orderNo}` : "Order" },
    { name: "robots", content: "noindex" },
  ];
  if (page?.refresh) tags.push({ httpEquiv: "refresh", content: String(REFRESH_SECONDS) });
  return tags as Route.MetaDescriptors;
}

async function requireOrder(db: Parameters<typeof findOrderByNumber>[0], number: string | undefined) {
  const order = number ? await findOrderByNumber(db, number) : undefined;
  if (!order) throw data(null, { status: 404 });
  return order;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const order = await requireOrder(db, params.number);
  const unit = await unitHeader(db, order.merchant_id, lang);
  return {
    lang,
    unit,
    merchantId: order.merchant_id,
    refresh: !FINAL_STATES.includes(order.status),
    feedback: mayLeaveFeedback(order),
    order: {
      orderNo: order.order_no,
      status: order.status,
      deliveryType: order.delivery_type,
      branch: lang === "ar" ? order.branch_ar : order.branch_en,
      area: order.area ? kuwaitAreaIn(order.area, lang) : null,
      scheduledFor: formatKuwaitTime(order.scheduled_for, lang),
      createdAt: formatKuwaitTime(order.created_at, lang),
      rating: order.feedback_rating,
      lines: order.lines.map((line) => orderLineView(line, order.currency_code, lang)),
      totals: totalsView(
        {
          subtotal: order.subtotal,
          discount: order.discount,
          deliveryCharge: order.delivery_charge,
          serviceCharge: order.service_charge,
          total: order.total,
        },
        order.currency_code,
        lang,
      ),
    },
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const order = await requireOrder(db, params.number);
  const form = await readFormData(request);
  const body = { rating: String(form.get("rating") ?? ""), comment: String(form.get("comment") ?? "").slice(0, 2000) };
  const given = await giveOrderFeedback(db, { order, body, ip: context.get(clientAddressContext) });
  if (!given.ok) return data({ errors: fieldMessages(given.errors, undefined, lang), values: body }, { status: 400 });
  return redirect(`/${lang}/new-menu/order-confirmation/${order.number}`, 303);
}

export default function OrderConfirmation() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const { order } = page;
  const errors: Record<string, string> = answer?.errors ?? {};
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <div className="c-stack">
        <h1 className="c-title food-order-title">{t("food_public.order.title", { number: order.orderNo })}</h1>
        <Card>
          <div className="c-stack">
            <p>
              {t("food_public.order.state")}:{" "}
              <span className="food-state">{t(`food_public.states.${order.status}`)}</span>
            </p>
            <p className="c-small">
              {t(`food_public.delivery_types.${order.deliveryType}`)} · {order.branch}
              {order.area ? ` · ${order.area}` : ""}
            </p>
            <p className="c-small">
              {order.scheduledFor
                ? t("food_public.order.scheduled_for", { time: order.scheduledFor })
                : t("food_public.order.placed_at", { time: order.createdAt })}
            </p>
            {page.refresh ? <p className="c-small c-dimmed">{t("food_public.order.refreshes")}</p> : null}
          </div>
        </Card>
        <Card>
          {order.lines.map((line, index) => (
            <CartLine
              key={index}
              label={<span className="c-strong">{`${line.quantity} × ${line.name}`}</span>}
              amount={line.lineTotal}
            >
              {line.details.length ? <span className="c-small c-dimmed">{line.details.join(" · ")}</span> : null}
              {line.instructions ? <span className="c-small">“{line.instructions}”</span> : null}
            </CartLine>
          ))}
          <Totals totals={order.totals} />
        </Card>
        {page.feedback ? (
          <Card>
            <form method="post" action={location.pathname} className="c-stack">
              <h2 className="c-subtitle">{t("food_public.order.feedback_title")}</h2>
              <fieldset className="c-choices">
                <legend>{t("food_public.order.rating")}</legend>
                <div className="food-stars">
                  {[1, 2, 3, 4, 5].map((rating) => (
                    <label key={rating}>
                      <input
                        type="radio"
                        name="rating"
                        value={rating}
                        required
                        defaultChecked={answer?.values?.rating === String(rating)}
                      />
                      {"★".repeat(rating)}
                    </label>
                  ))}
                </div>
                {errors.rating ? <p className="c-field__error">{errors.rating}</p> : null}
              </fieldset>
              <TextAreaField
                name="comment"
                label={t("food_public.order.comment")}
                maxLength={1000}
                rows={3}
                defaultValue={answer?.values?.comment ?? ""}
                error={errors.comment}
                dir="auto"
              />
              {errors.non_field_errors ? <Alert color="red">{errors.non_field_errors}</Alert> : null}
              <Button type="submit">{t("food_public.order.send_feedback")}</Button>
            </form>
          </Card>
        ) : order.rating ? (
          <Card>
            <p>{t("food_public.order.thanks_feedback")}</p>
          </Card>
        ) : null}
        <a className="c-link" href={`/${page.lang}/new-menu?merchant=${page.merchantId}`}>
          {t("food_public.order.back_to_menu")}
        </a>
      </div>
    </CustomerLayout>
  );
}
