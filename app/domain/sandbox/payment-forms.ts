/**
 * The sandboxes' hosted-page forms, shared by the server and the browser. Errors are keys that
 * each sandbox page translates itself (the sandboxes stand for outside services and are not part
 * of the platform's locales).
 */
import { z } from "zod";
import { isExpiryCurrent } from "./test-cards";

const required = { error: "required" };
const digitsOnly = (value: string) => value.replace(/[\s-]/g, "");
const cardNumber = z
  .string(required)
  .transform(digitsOnly)
  .pipe(z.string().regex(/^\d{16}$/, "card_number_format"));

export const KnetPaymentFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("submit"),
    cardNumber,
    pin: z.string(required).regex(/^\d{4}$/, "pin_format"),
    /** KNET's page asks for the card's expiry; the sandbox's fixed cards need none. */
    expiry: z
      .string()
      .trim()
      .regex(/^(0[1-9]|1[0-2])\/\d{4}$/, "expiry_format")
      .optional(),
  }),
  z.object({ intent: z.literal("cancel") }),
]);

/** With `today` (the server's clock), an expiry in the past is refused too. */
export function cardPaymentFormSchema(today: Date | null) {
  return z.object({
    cardNumber,
    expiry: z
      .string(required)
      .trim()
      .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, "expiry_format")
      .refine((value) => !today || isExpiryCurrent(value, today), "expiry_past"),
    cvv: z.string(required).regex(/^\d{3}$/, "cvv_format"),
  });
}

export type CardPaymentForm = z.infer<ReturnType<typeof cardPaymentFormSchema>>;
