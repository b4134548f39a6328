import type { Route } from "./+types/public-qty-list";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { ticketAvailability } from "../../domain/availability.server";
import { serializeTicket } from "../../domain/public-events.server";
import { requirePublicEvent } from "./public-api.server";

/** POST ticket/qty-list {"event": slug}: each ticket with its price, times, dates and `remaining_qty_per_date` (public spec §3). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const body = await readBody(request);
  const event = await requirePublicEvent(db, request, body.event);
  const tickets = await ticketAvailability(db, event.id);
  return apiJson(tickets.map((ticket) => serializeTicket(ticket, event.currency_code, Boolean(event.is_free))));
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
