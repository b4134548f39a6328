import type { DB } from "~/db/database.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import type { Language } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { datesWithPlaces, ticketAvailability } from "../domain/availability.server";
import { merchantEventFields, publishedEvents } from "../domain/booking-list.server";

/**
 * What the Create page and the API's booking options offer: the merchant's published events and,
 * for the chosen one, its dates with places left, its tickets (price, times, places left per
 * date), its payment methods (a paid event only) and its own fields.
 */
export async function bookingOptions(db: DB, merchantId: number, eventId: number | null, lang: Language) {
  const [events, defaults] = await Promise.all([publishedEvents(db, merchantId), loadMerchantDefaults(db, merchantId)]);
  const event = eventId ? events.find((row) => row.id === eventId) : undefined;
  const title = (row: { title_en: string; title_ar: string }) => (lang === "ar" ? row.title_ar : row.title_en);
  const base = { events: events.map((row) => ({ id: row.id, title: title(row) })), countryCode: defaults.country };
  if (!event) return { ...base, event: undefined, gateways: [], fields: [], tickets: [], dates: [] as string[] };
  const [tickets, fields, gateways] = await Promise.all([
    ticketAvailability(db, event.id),
    merchantEventFields(db, merchantId, event.id),
    event.is_free ? Promise.resolve([]) : listMerchantGateways(db, merchantId, { enabledOnly: true }),
  ]);
  const allowed = event.gateway_codes.split(",").filter(Boolean);
  return {
    ...base,
    event: { id: event.id, title: title(event), isFree: Boolean(event.is_free), currency: event.currency_code },
    gateways: gateways
      .filter(
        (gateway) =>
          allowed.includes(gateway.code) && gateway.kind !== "cod" && supportsCurrency(gateway, event.currency_code),
      )
      .map((gateway) => ({ code: gateway.code, name: lang === "ar" ? gateway.name_ar : gateway.name_en })),
    fields: fields.map((field) => ({
      name: field.name,
      label_en: field.label_en,
      label_ar: field.label_ar,
      label: lang === "ar" ? field.label_ar : field.label_en,
      type: field.type,
      required: Boolean(field.required),
    })),
    tickets: tickets.map((ticket) => ({
      id: ticket.id,
      name: lang === "ar" ? ticket.name_ar : ticket.name_en,
      price: formatAmount(ticket.price, event.currency_code, lang),
      start_time: ticket.start_time,
      end_time: ticket.end_time,
      remaining_qty_per_date: ticket.remaining_qty_per_date,
    })),
    dates: datesWithPlaces(tickets),
  };
}
