import type { Route } from "./+types/public-pay-choices";
import { payChoicesBody } from "~/presentation/public-pay-view.server";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { eventPayChoices, publicEventView } from "../../domain/public-events.server";
import { publicApiLanguage, requirePublicEvent } from "./public-api.server";

/**
 * POST {"event": slug, "ticket"?, "quantity"?}: the payment methods a paid booking of the event may
 * use, with logos, priced (as the pay API's pay-choices) for the ticket and quantity when given.
 * A free event has none.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const body = await readBody(request);
  const event = await requirePublicEvent(db, request, body.event);
  const lang = publicApiLanguage(request);
  const view = await publicEventView(db, event, lang);
  const ticket = view.tickets.find((one) => String(one.id) === String(body.ticket ?? ""));
  const quantity = /^\d{1,3}$/.test(String(body.quantity ?? "")) ? Math.max(1, Number(body.quantity)) : 1;
  const choices = await eventPayChoices(db, event, ticket ? Number(ticket.price) * quantity : 0, lang);
  return apiJson(payChoicesBody(choices, lang));
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
