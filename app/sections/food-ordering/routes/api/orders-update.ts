import type { Route } from "./+types/orders-update";
import type { FoodOrderStatus } from "~/db/schema";
import { ORDER_STATUSES } from "../../domain/order-filters";
import { orderDetails } from "../../domain/order-list.server";
import { changeOrderStatus } from "../../domain/orders.server";
import { orderIdOf, refundMessages, requireOrdersApi, serializeOrder } from "../../presentation/orders.server";
import { describe } from "~/presentation/texts.server";
import { platformAddresses } from "~/web/addresses.server";
import { apiDetail, methodNotAllowed, readBody } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";

/**
 * PATCH order/update/{id} `{"status"}`: the next state of the kitchen's workflow, or `canceled`
 * (portions back, a paid order refunded through the usual rules: `refunds`). 400 with the reason
 * when the order cannot move there. Needs change_order; takes an Idempotency-Key.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireOrdersApi(request, context, "change_order");
  const id = orderIdOf(params.id);
  if (!id) return apiDetail(request, "api.not_found", 404);
  const body = await readBody(request);
  return respondOnce(
    request,
    {
      db,
      merchantId: user.merchantId,
      caller: callerOf(user),
      scope: "food_ordering.order.update",
      body: { id, body },
    },
    async () => {
      const status = typeof body.status === "string" ? body.status : "";
      if (!(ORDER_STATUSES as readonly string[]).includes(status) || status === "pending_payment") {
        return {
          status: 400,
          body: { status: [describe(status ? "food_orders.errors.status" : "errors.required", undefined, lang)] },
        };
      }
      const outcome = await changeOrderStatus(db, {
        merchantId: user.merchantId,
        actor: user,
        id,
        status: status as FoodOrderStatus,
        addresses: platformAddresses(request),
      });
      if (!outcome.ok) {
        if (outcome.code === "api.not_found")
          return { status: 404, body: { detail: describe("api.not_found", undefined, lang) } };
        return { status: 400, body: { status: [describe(outcome.code, undefined, lang)] } };
      }
      const order = await orderDetails(db, user.merchantId, id);
      return {
        status: 200,
        body: { ...(order ? serializeOrder(order, lang) : {}), refunds: refundMessages(outcome.refunds, lang) },
      };
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
