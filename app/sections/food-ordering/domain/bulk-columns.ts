/** The columns of a product bulk create file (the page lists them; the upload reads them) and its limits. */
export const REQUIRED_COLUMNS = ["category", "name_en", "name_ar", "price"] as const;
export const OPTIONAL_COLUMNS = [
  "description_en",
  "description_ar",
  "discounted_price",
  "quantity",
  "sku",
  "available",
  "promoted",
  "sizes",
  "add_ons",
] as const;
export const ALL_COLUMNS = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS] as const;
export type BulkColumn = (typeof ALL_COLUMNS)[number];

export const BULK_MAX_BYTES = 10 * 1024 * 1024;
export const BULK_MAX_ROWS = 10_000;
