import { z } from "zod";
import { SUPPORTED_CURRENCIES } from "~/lib/money";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "errors.too_long")
    .optional()
    .transform((value) => value || undefined);

const flag = z
  .union([z.boolean(), z.enum(["on", "true", "1", "false", "0", "off"])])
  .optional()
  .transform((value) => value === true || value === "on" || value === "true" || value === "1");

/**
 * A payment request as the create page and the API send it (field names as the API's).
 * Amount stays a decimal string here; the domain turns it into minor units for the currency.
 */
export const PaymentRequestSchema = z.object({
  amount: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(20, "money.too_large"),
  /** Blank: the merchant's default currency (Administration → Profile). */
  currency_code: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.enum(SUPPORTED_CURRENCIES, { error: "payment_request.errors.currency" }).optional(),
  ),
  customer_email: z
    .string()
    .trim()
    .max(254, "errors.too_long")
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.email({ error: "errors.invalid_email" }).optional()),
  /** The country of a phone typed without its code; blank: the merchant's default country. */
  customer_phone_country: z.string().trim().length(2).optional(),
  customer_phone: optionalText(30),
  customer_first_name: optionalText(100),
  customer_last_name: optionalText(100),
  description: optionalText(2000),
  /** "Label: value" rows separated by "~", shown as a table on the pay page. */
  remarks: optionalText(2000),
  /** Where the customer is sent once the link cannot be paid any more (https only). */
  next_url: z
    .string()
    .trim()
    .max(500, "errors.too_long")
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.url({ protocol: /^https$/, error: "payment_request.errors.next_url" }).optional())
    // Kept as a URL's own serialisation (non-ASCII percent-encoded), so it can stand in a Location header.
    .transform((value) => (value ? new URL(value).href : value)),
  /** A datetime-local value in Kuwait time, or an ISO-8601 timestamp with an offset. */
  expiration_time: optionalText(40),
  pg_codes: z
    .union([z.array(z.string().max(40)), z.string().max(400)])
    .optional()
    .transform((value) =>
      (Array.isArray(value) ? value : (value ?? "").split(",")).map((code) => code.trim()).filter(Boolean),
    ),
  /** A file from the create page, or the file_url an API client got from attachment/upload. */
  attachment: z.union([z.instanceof(File), z.string().max(300)]).optional(),
  editable_amount: flag,
  /** What the customer may pay on an editable amount (decimal strings; blank for the defaults). */
  min_amount: optionalText(20),
  max_amount: optionalText(20),
  /** Ask the customer for a delivery address (and a map location) before the payment methods. */
  delivery_mode: z.enum(["none", "address", "address_location"], { error: "errors.required" }).default("none"),
  send_email: flag,
  send_sms: flag,
  /** Which of the merchant's units asks (its branding on the pay page, receipts and mails); blank for the default unit. */
  unit: z
    .union([z.number(), z.string()], { error: "payment_request.errors.unit" })
    .optional()
    .transform((value, context) => {
      const text = typeof value === "string" ? value.trim() : value;
      if (text === undefined || text === "") return undefined;
      // An id the database can hold (a 32-bit integer on Postgres), written as digits.
      const id = typeof text === "number" ? text : /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
      if (Number.isInteger(id) && id >= 1 && id <= 2_147_483_647) return id;
      context.addIssue({ code: "custom", message: "payment_request.errors.unit" });
      return z.NEVER;
    }),
});

export type PaymentRequestInput = z.output<typeof PaymentRequestSchema>;
