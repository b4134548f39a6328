import { z } from "zod";

/** What staff send from the door page: the chosen event and a QR code's content or a typed number. */
export const CheckinScanSchema = z.object({
  event: z
    .string({ error: "errors.required" })
    .trim()
    .regex(/^\d{1,10}$/, "checkin.reasons.no_event")
    .transform(Number),
  qrcode: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(200, "errors.too_long"),
  /** "Admit anyway": a ticket of another date, let in by staff who may. */
  any_date: z.literal("1").optional(),
});
