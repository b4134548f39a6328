/** The columns of a product import file (the page lists them; the import reads them) and its limits. */
export const REQUIRED_COLUMNS = ["slug", "name_en", "name_ar", "price"] as const;
export const OPTIONAL_COLUMNS = [
  "description_en",
  "description_ar",
  "discounted_price",
  "inventory",
  "sku",
  "active",
] as const;
export const ALL_COLUMNS = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS] as const;
export type ImportColumn = (typeof ALL_COLUMNS)[number];

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
