import type { DB } from "~/db/database.server";

let counter = 0;

export type TestEventInput = {
  merchantId: number;
  slug?: string;
  status?: "draft" | "published" | "closed";
  isFree?: boolean;
  /** Minor units (KWD: 5000 is 5.000). */
  price?: number;
  quantity?: number;
  dates?: string[];
  startTime?: string;
  queueCapacity?: number | null;
  gatewayCodes?: string[];
  termsEn?: string;
  fields?: {
    name: string;
    label_en: string;
    label_ar: string;
    type: "text" | "phone" | "attachment";
    required?: boolean;
  }[];
};

/** An event with one ticket on its dates, written straight into the tables as the event editor would. */
export async function createTestEvent(db: DB, input: TestEventInput) {
  counter += 1;
  const at = new Date().toISOString();
  const slug = input.slug ?? `event-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const event = await db
    .insertInto("events")
    .values({
      merchant_id: input.merchantId,
      unit_id: null,
      slug,
      title_en: `Concert ${counter}`,
      title_ar: `حفلة ${counter}`,
      description_en: "An evening of music.",
      description_ar: "أمسية موسيقية.",
      image_path: null,
      location_en: "Kuwait City",
      location_ar: "مدينة الكويت",
      lat: 29.3759,
      lng: 47.9774,
      currency_code: "KWD",
      is_free: input.isFree ? 1 : 0,
      terms_en: input.termsEn ?? "",
      terms_ar: input.termsEn ? "الشروط" : "",
      status: input.status ?? "published",
      gateway_codes: (input.gatewayCodes ?? ["knet-sandbox", "mpgs-sandbox"]).join(","),
      hold_minutes: 15,
      max_per_booking: 10,
      queue_capacity: input.queueCapacity ?? null,
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const ticket = await db
    .insertInto("event_tickets")
    .values({
      merchant_id: input.merchantId,
      event_id: event.id,
      name_en: "General",
      name_ar: "عام",
      price: input.isFree ? 0 : (input.price ?? 5000),
      start_time: input.startTime ?? "18:00",
      end_time: "22:00",
      quantity: input.quantity ?? 10,
      position: 1,
      is_active: 1,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const date of input.dates ?? ["2030-12-20"]) {
    await db
      .insertInto("event_ticket_dates")
      .values({
        merchant_id: input.merchantId,
        event_id: event.id,
        ticket_id: ticket.id,
        event_date: date,
        quantity: input.quantity ?? 10,
        taken: 0,
      })
      .execute();
  }
  for (const [position, field] of (input.fields ?? []).entries()) {
    await db
      .insertInto("event_fields")
      .values({
        merchant_id: input.merchantId,
        event_id: event.id,
        name: field.name,
        label_en: field.label_en,
        label_ar: field.label_ar,
        type: field.type,
        required: field.required ? 1 : 0,
        position,
      })
      .execute();
  }
  return { id: event.id, slug, ticketId: ticket.id };
}
