import type { Route } from "./+types/public-tickets-for-booking";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { findPublicBooking } from "../../domain/bookings.server";
import { qrContentOf } from "../../domain/tickets.server";

/**
 * GET tickets_for_booking/{id}/uuid/{uuid}: the booking's places (number, ticket, date, slot,
 * whether paid and scanned) and, for paid ones, what their QR code holds. The uuid is the key: a
 * wrong one is 404, as an unknown booking.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : null;
  const view = id === null ? undefined : await findPublicBooking(db, id, params.uuid.slice(0, 64));
  if (!view) return apiDetail(request, "api.not_found", 404);
  const items = await db
    .selectFrom("booking_members")
    .select(["id", "item_id"])
    .where("booking_id", "=", view.booking.id)
    .execute();
  const itemOfMember = new Map(items.map((member) => [member.id, member.item_id]));
  const itemById = new Map(view.items.map((item) => [item.id, item]));
  const members = view.members.filter((member) => !member.canceled);
  return apiJson({
    id: view.booking.id,
    uuid: view.booking.uuid,
    event: { id: view.event.id, slug: view.event.slug, title_en: view.event.title_en, title_ar: view.event.title_ar },
    tickets: await Promise.all(
      members.map(async (member) => {
        const item = itemById.get(itemOfMember.get(member.id) ?? -1);
        return {
          number: member.number,
          ticket: item ? { id: item.ticket_id, name_en: item.name_en, name_ar: item.name_ar } : null,
          event_date: item?.event_date ?? view.booking.event_date,
          slot: item ? `${item.start_time} - ${item.end_time}` : null,
          is_purchased: member.is_purchased,
          is_qr_scanned: member.is_qr_scanned,
          qr_code: member.is_purchased ? await qrContentOf(db, view.event.id, member.number) : null,
        };
      }),
    ),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
