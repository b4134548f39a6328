import { z } from "zod";

export const FIELD_MODES = ["off", "optional", "required"] as const;
export type FieldMode = (typeof FIELD_MODES)[number];

/** The standard fields a collector may ask, in the order its page shows them. */
export const STANDARD_FIELDS = ["name", "email", "phone", "reference"] as const;
export type StandardField = (typeof STANDARD_FIELDS)[number];

/** At most this many free-text fields on one collector page. */
export const MAX_TEXT_FIELDS = 5;

const text = (max: number) => z.string({ error: "errors.required" }).trim().max(max, "errors.too_long");
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "errors.too_long")
    .optional()
    .transform((value) => value ?? "");

const flag = z
  .union([z.boolean(), z.enum(["on", "true", "1", "false", "0", "off", ""])])
  .optional()
  .transform((value) => value === true || value === "on" || value === "true" || value === "1");

const mode = (fallback: FieldMode) =>
  z.preprocess(
    (value) => (value === "" || value === undefined ? fallback : value),
    z.enum(FIELD_MODES, { error: "collectors.errors.field_mode" }),
  );

/** A free-text field: its labels in both languages and whether it must be filled in; `name` keeps an existing field's key. */
export const TextFieldSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^f[a-z0-9]{1,12}$/, "collectors.errors.field_name")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  label_en: text(80).min(1, "errors.required"),
  label_ar: text(80).min(1, "errors.required"),
  required: flag,
});

/**
 * A collector page as its form and the dashboard send it: its titles and descriptions in English and
 * Arabic, the unit whose branding it wears (blank: the default), how it asks for each standard field,
 * its free-text fields, and whether it takes payments.
 */
export const CollectorSchema = z.object({
  title_en: text(120).min(1, "errors.required"),
  title_ar: text(120).min(1, "errors.required"),
  description_en: optionalText(1000),
  description_ar: optionalText(1000),
  unit: z
    .union([z.number(), z.string()])
    .optional()
    .transform((value, context) => {
      const raw = typeof value === "string" ? value.trim() : value;
      if (raw === undefined || raw === "") return null;
      const id = typeof raw === "number" ? raw : /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isInteger(id) && id >= 1 && id <= 2_147_483_647) return id;
      context.addIssue({ code: "custom", message: "collectors.errors.unit" });
      return z.NEVER;
    }),
  name_field: mode("required"),
  email_field: mode("optional"),
  phone_field: mode("optional"),
  reference_field: mode("off"),
  text_fields: z.array(TextFieldSchema).max(MAX_TEXT_FIELDS, "collectors.errors.too_many_fields").default([]),
  is_active: flag,
});

export type CollectorInput = z.output<typeof CollectorSchema>;
export type TextFieldSpec = { name: string; label_en: string; label_ar: string; required: boolean };

/** Zod's issues as field errors: the path joined by dots ("text_fields.1.label_ar"), the message a text key. */
export function issuesAsFieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "non_field_errors";
    (errors[key] ??= []).push(
      /^[a-z_]+(\.[a-z_]+)+$/.test(issue.message) ? issue.message : "collectors.errors.invalid",
    );
  }
  return errors;
}

/** The stored JSON of a collector's free-text fields, read defensively. */
export function parseTextFields(json: string): TextFieldSpec[] {
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (field): field is TextFieldSpec =>
          Boolean(field) &&
          typeof field.name === "string" &&
          typeof field.label_en === "string" &&
          typeof field.label_ar === "string",
      )
      .map((field) => ({
        name: field.name,
        label_en: field.label_en,
        label_ar: field.label_ar,
        required: Boolean(field.required),
      }));
  } catch {
    return [];
  }
}
