import { z } from "zod";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "errors.too_long")
    .optional()
    .transform((value) => value || undefined);

/** A customer's feedback on an event (the page's form and `POST feedback/{slug}`). */
export const FeedbackSchema = z.object({
  rating: z.coerce
    .number({ error: "errors.required" })
    .int("events_public.errors.rating")
    .min(1, "events_public.errors.rating")
    .max(5, "events_public.errors.rating"),
  comment: optionalText(2000),
  name: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(100, "errors.too_long"),
  email: optionalText(254).pipe(z.email({ error: "errors.invalid_email" }).optional()),
});

export type FeedbackInput = z.output<typeof FeedbackSchema>;
