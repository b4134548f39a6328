import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import { kuwaitNow } from "./availability.server";
import { BookingSchema } from "./booking-schema";
import { createBooking } from "./bookings.server";
import { createEvent } from "./events.server";

/** The job that gives the demo merchant its events, queued by the demo seed and run once the platform is wired. */
/** The job the section declares as its demo data (section.ts `demoJob`). */
export const DEMO_EVENTS_JOB = "event_demo_events";

/**
 * A published paid event (KWD, KNET and card, two tickets, an extra field) and a published free
 * one with a few bookings, on dates from a week to a month ahead. The paid event has no bookings:
 * a paid booking is confirmed only by a payment through a gateway, which the seed does not make.
 * Run again, it finds the events and does nothing.
 */
export async function seedDemoEvents(db: DB, input: { merchantId: number; userId: number }) {
  const existing = await db
    .selectFrom("events")
    .select("id")
    .where("merchant_id", "=", input.merchantId)
    .executeTakeFirst();
  if (existing) return;
  const user = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where("id", "=", input.userId)
    .executeTakeFirstOrThrow();
  const today = DateTime.fromISO(kuwaitNow().date);
  const day = (days: number) => today.plus({ days }).toISODate()!;
  await createEvent(db, {
    merchantId: input.merchantId,
    actor: user,
    event: {
      slug: "gulf-jazz-night",
      title_en: "Gulf Jazz Night",
      title_ar: "ليلة جاز الخليج",
      description_en:
        "Kuwaiti and visiting musicians play jazz standards and khaleeji tunes by the sea. Doors open half an hour before the show.",
      description_ar:
        "موسيقيون كويتيون وضيوف يعزفون الجاز والألحان الخليجية على شاطئ البحر. تُفتح الأبواب قبل العرض بنصف ساعة.",
      location_en: "Arabian Gulf Street, Salmiya",
      location_ar: "شارع الخليج العربي، السالمية",
      lat: 29.3375,
      lng: 48.0812,
      currency_code: "KWD",
      is_free: false,
      terms_en:
        "Tickets are not refundable less than 48 hours before the show. Children under 12 must be accompanied by an adult.",
      terms_ar: "لا تُسترد التذاكر قبل أقل من 48 ساعة من العرض. يجب أن يرافق الأطفال دون 12 عاماً شخص بالغ.",
      status: "published",
      gateway_codes: ["knet-sandbox", "mpgs-sandbox"],
      hold_minutes: 15,
      max_per_booking: 6,
      fields: [{ name: "civil_id", label_en: "Civil ID", label_ar: "الرقم المدني", type: "text", required: true }],
      tickets: [
        {
          name_en: "Standard",
          name_ar: "عادي",
          price: "7.500",
          start_time: "19:30",
          end_time: "22:30",
          quantity: 120,
          dates: [day(7), day(14), day(21)],
        },
        {
          name_en: "Front row",
          name_ar: "الصف الأمامي",
          price: "15.000",
          start_time: "19:30",
          end_time: "22:30",
          quantity: 20,
          dates: [day(7), day(14), day(21), day(30)],
        },
      ],
    },
  });
  const free = await createEvent(db, {
    merchantId: input.merchantId,
    actor: user,
    event: {
      slug: "pearl-diving-talk",
      title_en: "The Pearl Divers of Kuwait — a talk",
      title_ar: "غواصو اللؤلؤ في الكويت — محاضرة",
      description_en:
        "A free evening talk on the pearl-diving seasons, their songs and the dhows that carried them, with photographs from family archives.",
      description_ar:
        "محاضرة مسائية مجانية عن مواسم الغوص على اللؤلؤ وأغانيها والسفن التي حملت الغواصين، مع صور من أرشيفات العائلات.",
      location_en: "Demo Café, Salmiya",
      location_ar: "مقهى المتجر التجريبي، السالمية",
      lat: 29.3339,
      lng: 48.0765,
      currency_code: "KWD",
      is_free: true,
      status: "published",
      gateway_codes: [],
      max_per_booking: 4,
      fields: [],
      tickets: [
        {
          name_en: "Seat",
          name_ar: "مقعد",
          price: "0",
          start_time: "18:00",
          end_time: "19:30",
          quantity: 40,
          dates: [day(10), day(24)],
        },
      ],
    },
  });
  if (!free.ok) return;
  const [ticket] = await db.selectFrom("event_tickets").select("id").where("event_id", "=", free.event.id).execute();
  const guests = [
    {
      email: "fatima.alsabah@example.com",
      customer_first_name: "Fatima",
      customer_last_name: "Al-Sabah",
      quantity: 2,
      event_date: day(10),
      lang: "ar" as const,
    },
    {
      email: "yousef.alkandari@example.com",
      customer_first_name: "Yousef",
      customer_last_name: "Al-Kandari",
      quantity: 1,
      event_date: day(10),
      lang: "ar" as const,
    },
    {
      email: "sarah.thompson@example.com",
      customer_first_name: "Sarah",
      customer_last_name: "Thompson",
      quantity: 3,
      event_date: day(24),
      lang: "en" as const,
    },
  ];
  for (const { lang, ...guest } of guests) {
    await createBooking(db, {
      request: BookingSchema.parse({ event: "pearl-diving-talk", ticket: ticket.id, ...guest }),
      lang,
      baseUrl: "",
    });
  }
}
