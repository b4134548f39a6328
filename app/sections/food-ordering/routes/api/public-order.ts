import type { Route } from "./+types/public-order";
import { translator } from "~/lib/i18n.server";
import { toDecimalString } from "~/lib/money";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { giveOrderFeedback } from "../../domain/feedback.server";
import { FINAL_STATES, findOrderByNumber, mayLeaveFeedback } from "../../domain/public-menu.server";
import { nestedErrors, notFound, publicApiLanguage } from "./public-api.server";

/**
 * The customer's order by its unguessable number: GET order/details/{number}, GET order/state/{number},
 * GET order/validate/{number}, OPTIONS and POST order-feedback/{number} ({"rating": 1–5, "comment"}).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const path = new URL(request.url).pathname;
  const order = await findOrderByNumber(db, params.number ?? "");
  if (request.method === "OPTIONS" && path.includes("/order-feedback/")) {
    if (!order) notFound(request);
    return apiJson(
      {
        can_leave_feedback: mayLeaveFeedback(order),
        fields: [
          { name: "rating", type: "integer", required: true, min: 1, max: 5 },
          { name: "comment", type: "string", required: false, max_length: 1000 },
        ],
      },
      200,
      { Allow: "OPTIONS, POST" },
    );
  }
  if (request.method !== "GET" || path.includes("/order-feedback/")) return methodNotAllowed(request);
  if (!order) notFound(request);
  const t = translator(lang);
  const state = {
    number: order.number,
    order_no: order.order_no,
    status: order.status,
    status_display: t(`food_public.states.${order.status}`),
    is_final: FINAL_STATES.includes(order.status),
    updated_at: order.updated_at,
  };
  if (path.includes("/order/state/")) return apiJson(state);
  if (path.includes("/order/validate/"))
    return apiJson({ valid: true, number: order.number, order_no: order.order_no, status: order.status });
  const money = (minor: number) => toDecimalString(minor, order.currency_code);
  return apiJson({
    ...state,
    delivery_type: order.delivery_type,
    branch: { id: order.branch_id, name_en: order.branch_en, name_ar: order.branch_ar },
    delivery_area: order.area,
    scheduled_for: order.scheduled_for,
    created_at: order.created_at,
    customer_name: order.customer_name,
    gateway_code: order.gateway_code,
    currency_code: order.currency_code,
    subtotal: money(order.subtotal),
    discount: money(order.discount),
    delivery_charges: money(order.delivery_charge),
    service_charges: money(order.service_charge),
    total: money(order.total),
    lines: order.lines.map((line) => ({
      name_en: line.name_en,
      name_ar: line.name_ar,
      size_en: line.size_en,
      size_ar: line.size_ar,
      add_ons: line.add_ons.map((addOn) => ({
        name_en: addOn.name_en,
        name_ar: addOn.name_ar,
        price: money(addOn.price),
      })),
      options: line.options.map((option) => ({
        group_en: option.group_en,
        group_ar: option.group_ar,
        name_en: option.name_en,
        name_ar: option.name_ar,
        price: money(option.price),
      })),
      special_instructions: line.special_instructions,
      quantity: line.quantity,
      unit_price: money(line.unit_price),
      total: money(line.line_total),
    })),
    feedback:
      order.feedback_rating === null ? null : { rating: order.feedback_rating, comment: order.feedback_comment },
  });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST" || !new URL(request.url).pathname.includes("/order-feedback/"))
    return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const order = await findOrderByNumber(db, params.number ?? "");
  if (!order) notFound(request);
  const given = await giveOrderFeedback(db, {
    order,
    body: await readBody(request),
    ip: context.get(clientAddressContext),
  });
  if (!given.ok) return apiJson(nestedErrors(given.errors, undefined, lang), 400);
  return apiJson(
    { number: order.number, rating: (await findOrderByNumber(db, order.number))?.feedback_rating ?? null },
    201,
  );
}
