import { z } from "zod";
import type { OperationOutcome } from "~/domain/payments/operations.server";

/** Edit: move the places to a date (and ticket) and/or add some; the ticket only when it changes. */
export const BookingPlacesSchema = z.object({
  event_date: z
    .string({ error: "errors.required" })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "event.errors.event_date"),
  quantity: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,4}$/, "bookings.errors.quantity_digits"),
      ],
      { error: "errors.required" },
    )
    .transform(Number),
  ticket: z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{0,10}$/, "event.errors.ticket"),
    ])
    .optional()
    .transform((value) => (value === undefined || value === "" ? undefined : Number(value))),
  /** The booking's last change the form was made from (the page sends it; a form sent twice is refused). */
  version: z
    .string()
    .max(40)
    .optional()
    .transform((value) => value || undefined),
});

/** Edit email: the new address and whether the booking e-mail goes to it again (on by default). */
export const BookingEmailSchema = z.object({
  new_email: z.string({ error: "errors.required" }),
  resend_email: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((value) => value === undefined || value === true || value === "true" || value === "1" || value === "on"),
});

/** Zod's issues as field errors (translation keys by field). */
export function fieldErrorsOf(error: z.ZodError) {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
  return errors;
}

/** The notice after a cancel: 'Booking canceled successfully', and what became of its refunds. */
export function cancelNotice(refunds: readonly OperationOutcome[]) {
  if (refunds.length === 0) return "bookings.canceled";
  if (refunds.some((refund) => !refund.ok)) return "bookings.canceled_refund_refused";
  if (refunds.some((refund) => refund.ok && refund.requestId !== undefined)) return "bookings.canceled_refund_approval";
  return "bookings.canceled_refunded";
}
