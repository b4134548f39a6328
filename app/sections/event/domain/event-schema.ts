import { z } from "zod";

/** A text of at most `max` characters; absent stays absent (PATCH), an empty one is "". */
const text = (max: number) => z.string().trim().max(max, "errors.too_long").optional();

const flag = z
  .union([z.boolean(), z.enum(["on", "true", "false", "1", "0", ""])])
  .transform((value) => value === true || value === "on" || value === "true" || value === "1")
  .optional();

const integer = (min: number, max: number, error: string) =>
  z.union([z.number(), z.string().trim()]).transform((value, context) => {
    const number = typeof value === "number" ? value : /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(number) && number >= min && number <= max) return number;
    context.addIssue({ code: "custom", message: error });
    return z.NEVER;
  });

/** A coordinate, or null for none (an empty input clears it). */
const coordinate = (limit: number) =>
  z
    .union([z.number(), z.string().trim(), z.null()])
    .transform((value, context) => {
      if (value === null || value === "") return null;
      const number =
        typeof value === "number" ? value : /^-?\d{1,3}(\.\d{1,10})?$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isFinite(number) && Math.abs(number) <= limit) return number;
      context.addIssue({ code: "custom", message: "event_setup.errors.coordinate" });
      return z.NEVER;
    })
    .optional();

/** A list sent as an array (the API) or as one text, one item a line or separated by commas (the page's textarea). */
const list = (item: z.ZodString) =>
  z
    .union([z.array(z.string()), z.string()])
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(/[\s,]+/)).map((entry) => entry.trim()).filter(Boolean),
    )
    .pipe(z.array(item));

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,78}[a-z0-9]$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export const EVENT_FIELD_TYPES = ["text", "phone", "attachment"] as const;
export const EVENT_STATUSES = ["draft", "published", "closed"] as const;

const EventFieldSchema = z.object({
  name: z
    .string({ error: "errors.required" })
    .trim()
    .min(1, "errors.required")
    .regex(/^[a-z][a-z0-9_]{0,39}$/, "event_setup.errors.field_name"),
  label_en: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(120, "errors.too_long"),
  label_ar: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(120, "errors.too_long"),
  type: z.enum(EVENT_FIELD_TYPES, { error: "event_setup.errors.field_type" }),
  required: flag,
});

const EventTicketSchema = z.object({
  /** A ticket the event has (PATCH): absent for a new one. */
  id: z
    .union([z.literal("").transform(() => undefined), integer(1, 2_147_483_647, "event_setup.errors.ticket_id")])
    .optional(),
  name_en: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(120, "errors.too_long"),
  name_ar: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(120, "errors.too_long"),
  /** A decimal string in the event's currency ("5.000"); the domain parses it. */
  price: z.union([z.string().trim(), z.number().transform(String)]).optional(),
  start_time: z.string({ error: "errors.required" }).trim().regex(TIME_PATTERN, "event_setup.errors.time"),
  end_time: z.string({ error: "errors.required" }).trim().regex(TIME_PATTERN, "event_setup.errors.time"),
  quantity: integer(0, 1_000_000, "event_setup.errors.quantity"),
  dates: list(z.string().regex(DATE_PATTERN, "event_setup.errors.date")).optional(),
});

/**
 * An event as the API (`dashboard/events`) and the editor page send it; every field optional so a
 * PATCH names only what changes. What needs the database (the slug's owner, the merchant's
 * gateways, places already taken) and what needs several fields together (prices in the currency,
 * a published event's tickets) is checked by the domain.
 */
export const EventSchema = z.object({
  slug: z.string().trim().min(1, "errors.required").regex(SLUG_PATTERN, "event_setup.errors.slug").optional(),
  title_en: text(200),
  title_ar: text(200),
  description_en: text(10_000),
  description_ar: text(10_000),
  location_en: text(300),
  location_ar: text(300),
  lat: coordinate(90),
  lng: coordinate(180),
  currency_code: z.string().trim().toUpperCase().optional(),
  is_free: flag,
  terms_en: text(10_000),
  terms_ar: text(10_000),
  status: z.enum(EVENT_STATUSES, { error: "event_setup.errors.status" }).optional(),
  gateway_codes: list(z.string().max(40)).optional(),
  hold_minutes: integer(1, 120, "event_setup.errors.hold_minutes").optional(),
  max_per_booking: integer(1, 100, "event_setup.errors.max_per_booking").optional(),
  queue_capacity: z
    .union([z.null(), z.literal(""), z.number(), z.string().trim()])
    .transform((value, context) => {
      if (value === null || value === "") return null;
      const number = typeof value === "number" ? value : /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isInteger(number) && number >= 1 && number <= 1_000_000) return number;
      context.addIssue({ code: "custom", message: "event_setup.errors.queue_capacity" });
      return z.NEVER;
    })
    .optional(),
  fields: z.array(EventFieldSchema).max(20, "event_setup.errors.too_many_fields").optional(),
  tickets: z.array(EventTicketSchema).max(50, "event_setup.errors.too_many_tickets").optional(),
});

export type EventInput = z.output<typeof EventSchema>;
export type EventTicketInput = NonNullable<EventInput["tickets"]>[number];
export type EventFieldInput = NonNullable<EventInput["fields"]>[number];

/**
 * The editor page sends the whole event, but a form leaves out what is empty (an unticked box, a
 * cleared text): those are "nothing", not "unchanged", so they are filled in before an update.
 */
export function wholeEvent(input: EventInput): EventInput {
  return {
    ...input,
    description_en: input.description_en ?? "",
    description_ar: input.description_ar ?? "",
    location_en: input.location_en ?? "",
    location_ar: input.location_ar ?? "",
    terms_en: input.terms_en ?? "",
    terms_ar: input.terms_ar ?? "",
    lat: input.lat ?? null,
    lng: input.lng ?? null,
    is_free: input.is_free ?? false,
    queue_capacity: input.queue_capacity ?? null,
    gateway_codes: input.gateway_codes ?? [],
    fields: (input.fields ?? []).map((field) => ({ ...field, required: field.required ?? false })),
    tickets: (input.tickets ?? []).map((ticket) => ({ ...ticket, dates: ticket.dates ?? [] })),
  };
}
