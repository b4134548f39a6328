import type { DB } from "~/db/database.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { storeAttachment } from "~/domain/payments/attachments.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { BookingSchema } from "./booking-schema";
import { createBooking, eventFields, type CreatedBooking } from "./bookings.server";
import type { PublicEvent } from "./public-events.server";

export type RegistrationOutcome =
  | { ok: true; booking: CreatedBooking }
  | { ok: false; errors: FieldErrors; params?: TextParams; kept: Record<string, string> };

const KEY = /^[a-z_]+(\.[a-z_]+)+$/;

/**
 * A customer's registration for a published event (the register page and the public API): files
 * of the event's attachment fields are kept first, so whatever else is wrong the customer does not
 * choose them again (`kept`: the stored key by field name, sent back with the next try); the request
 * is read with the booking schema; then the booking is made as any other (createBooking, public),
 * using up the waiting zone's pass it was made under (`passEntryId`) in the same transaction.
 */
export async function registerForEvent(
  db: DB,
  input: {
    event: PublicEvent;
    body: Record<string, unknown>;
    lang: Language;
    baseUrl: string;
    termsAccepted?: boolean;
    namesRequired?: boolean;
    clientAddress?: string | null;
    passEntryId?: number | null;
  },
): Promise<RegistrationOutcome> {
  const { event } = input;
  const errors: FieldErrors = {};
  const extra: Record<string, string | File> = {};
  const kept: Record<string, string> = {};
  const given =
    input.body.extra && typeof input.body.extra === "object" && !Array.isArray(input.body.extra)
      ? (input.body.extra as Record<string, unknown>)
      : {};
  for (const field of await eventFields(db, event.id)) {
    const value = given[field.name];
    if (field.type === "attachment" && value instanceof File && value.size > 0) {
      const stored = await storeAttachment(event.merchant_id, value);
      if (stored.ok) extra[field.name] = kept[field.name] = stored.key;
      else errors[field.name] = [stored.error];
    } else if (typeof value === "string" || typeof value === "number") {
      extra[field.name] = String(value).slice(0, 2000);
      if (field.type === "attachment" && extra[field.name]) kept[field.name] = extra[field.name] as string;
    }
  }
  if (input.termsAccepted === false) errors.accept_terms = ["events_public.errors.accept_terms"];
  if (input.namesRequired) {
    for (const name of ["customer_first_name", "customer_last_name"])
      if (!String(input.body[name] ?? "").trim()) errors[name] = ["errors.required"];
  }
  const parsed = BookingSchema.safeParse({ ...input.body, event: event.slug, extra });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field =
        issue.path[0] === "extra" && issue.path.length > 1
          ? String(issue.path[1])
          : String(issue.path[0] ?? "non_field_errors");
      const empty = input.body[field] === undefined || input.body[field] === null || input.body[field] === "";
      // Zod's own words (a missing value's type) are not ours to show: an empty field is required.
      const key = KEY.test(issue.message) && !(empty && field !== "email") ? issue.message : "errors.required";
      errors[field] ??= [key];
    }
  }
  if (!parsed.success || Object.keys(errors).length)
    return { ok: false, errors, kept, params: { max: event.max_per_booking } };
  const outcome = await createBooking(db, {
    request: parsed.data,
    lang: input.lang,
    baseUrl: input.baseUrl,
    clientAddress: input.clientAddress,
    passEntryId: input.passEntryId,
  });
  if (!outcome.ok) return { ok: false, errors: outcome.errors, params: outcome.params, kept };
  return { ok: true, booking: outcome.booking };
}
