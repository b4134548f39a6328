/**
 * The columns of a bulk file: a payment request's fields as the create page and the API name them
 * (the page lists them; the upload reads them), and the file's limits.
 */
export const REQUIRED_COLUMNS = ["amount", "customer_email", "customer_phone"] as const;
export const OPTIONAL_COLUMNS = [
  "currency_code",
  "customer_first_name",
  "customer_last_name",
  "description",
  "remarks",
  "expiration_time",
  "pg_codes",
  "send_email",
  "send_sms",
  "language",
  "editable_amount",
  "min_amount",
  "max_amount",
  "next_url",
] as const;
export const ALL_COLUMNS = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS] as const;
export type BulkColumn = (typeof ALL_COLUMNS)[number];

export const BULK_MAX_BYTES = 10 * 1024 * 1024;
export const BULK_MAX_ROWS = 10_000;

export const SCHEDULES = ["none", "weekly", "monthly"] as const;
export type Schedule = (typeof SCHEDULES)[number];

export function isSchedule(value: unknown): value is Schedule {
  return typeof value === "string" && (SCHEDULES as readonly string[]).includes(value);
}

/** What became of a message of a run. */
export const LOG_RESULTS = ["queued", "sent", "failed"] as const;
