import { z } from "zod";

export const HELP_SUBJECTS = ["support_request", "suggestion", "feedback"] as const;
export type HelpSubject = (typeof HELP_SUBJECTS)[number];

/** The help form, shared by the page (server and browser) and the API; errors are translation keys. */
export const HelpSchema = z.object({
  email: z
    .string({ error: "errors.required" })
    .trim()
    .max(254, "errors.too_long")
    .pipe(z.email({ error: "errors.invalid_email" })),
  subject: z.enum(HELP_SUBJECTS, { error: "errors.required" }),
  email_message: z.string().trim().max(5000, "errors.too_long").optional(),
});
