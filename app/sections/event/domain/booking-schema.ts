import { z } from "zod";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "errors.too_long")
    .optional()
    .transform((value) => value || undefined);

const positiveInt = (error: string) =>
  z.union([z.number(), z.string().trim()]).transform((value, context) => {
    const number = typeof value === "number" ? value : /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(number) && number >= 0 && number <= 2_147_483_647) return number;
    context.addIssue({ code: "custom", message: error });
    return z.NEVER;
  });

/**
 * A booking as the public API (`POST /api/v1/plugins/event/booking`), the registration page and the
 * dashboard's Create page send it (field names as the API's). The domain checks it against the
 * event: its ticket, dates, places, fields and gateways.
 */
export const BookingSchema = z.object({
  /** The event's slug (public) or id (dashboard). */
  event: z.union([z.string().trim().min(1, "errors.required").max(120), z.number()], { error: "errors.required" }),
  ticket: positiveInt("event.errors.ticket"),
  event_date: z
    .string({ error: "errors.required" })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "event.errors.event_date"),
  quantity: positiveInt("event.errors.quantity"),
  email: z
    .string({ error: "errors.required" })
    .trim()
    .min(1, "errors.required")
    .max(254, "errors.too_long")
    .pipe(z.email({ error: "errors.invalid_email" })),
  customer_first_name: text(100),
  customer_last_name: text(100),
  customer_phone: text(30),
  /** The country of a phone typed without its code. */
  customer_phone_country: z.string().trim().length(2).optional(),
  /** Answers to the event's own fields, by field name (an attachment: a File, or the file_url of booking/upload). */
  extra: z.record(z.string(), z.union([z.string().max(2000), z.instanceof(File)])).default({}),
  gateway_code: text(40),
});

export type BookingInput = z.output<typeof BookingSchema>;
