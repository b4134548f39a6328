import { writeTransaction, type DB } from "~/db/database.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { nowIso } from "~/lib/clock.server";
import { parseAmount } from "~/lib/money";
import { ALL_COLUMNS, BULK_MAX_ROWS, REQUIRED_COLUMNS, type BulkColumn } from "./bulk-columns";
import {
  decodeCsvBytes,
  looksLikeZip,
  parseCsv,
  readXlsxApart,
  SpreadsheetError,
  toCsv,
  type SheetRows,
} from "~/lib/spreadsheet.server";

/**
 * Product bulk create (dashboard spec §2 food-ordering tools): one CSV or XLSX of menu items, all or
 * nothing. Every row is checked first; one bad row and nothing is created, and the answer lists each
 * row's errors and carries the error report (the same rows with an `error` column). Otherwise the
 * new categories, the items and their sizes and add-ons are inserted in one transaction, in batches.
 */

type Column = BulkColumn;

/** A row's error: its number in the spreadsheet (the header is row 1), its column, a translation key and the key's values. */
export type RowError = { row: number; column: string; code: string; params?: Record<string, string | number> };

export type BulkOutcome =
  | { ok: true; created: number; categoriesCreated: number }
  | { ok: false; kind: "file"; code: string; params?: Record<string, string | number> }
  | { ok: false; kind: "rows"; errors: RowError[]; report: ErrorReport; rowsChecked: number };

/** What the error report is made of: the file's header and rows, and the errors by row. */
export type ErrorReport = { header: string[]; rows: { number: number; cells: string[] }[]; errors: RowError[] };

type ParsedItem = {
  row: number;
  category: string;
  name_en: string;
  name_ar: string;
  description_en: string;
  description_ar: string;
  price: number;
  discounted_price: number | null;
  quantity: number | null;
  sku: string | null;
  is_available: 0 | 1;
  is_promoted: 0 | 1;
  sizes: { name: string; price: number }[];
  add_ons: { name: string; price: number }[];
};

const LIMITS: Partial<Record<Column, number>> = {
  category: 100,
  name_en: 200,
  name_ar: 200,
  description_en: 2000,
  description_ar: 2000,
  sku: 64,
};
const YES = new Set(["1", "yes", "y", "true", "نعم"]);
const NO = new Set(["0", "no", "n", "false", "لا"]);

/** The file's rows: XLSX when the bytes are a zip, else CSV (UTF-8). */
export async function readSpreadsheet(
  bytes: Buffer,
): Promise<{ ok: true; rows: SheetRows } | { ok: false; code: string }> {
  if (bytes.length === 0) return { ok: false, code: "food_bulk.errors.empty_file" };
  if (looksLikeZip(bytes)) {
    try {
      return { ok: true, rows: await readXlsxApart(bytes) };
    } catch (error) {
      if (
        error instanceof SpreadsheetError ||
        error instanceof RangeError ||
        (error as { code?: string }).code?.startsWith("Z_")
      )
        return { ok: false, code: "food_bulk.errors.unreadable" };
      throw error;
    }
  }
  const text = decodeCsvBytes(bytes);
  if (text === null) return { ok: false, code: "food_bulk.errors.not_utf8" };
  if (text.includes("\u0000")) return { ok: false, code: "food_bulk.errors.unreadable" };
  return { ok: true, rows: parseCsv(text) };
}

/** Checks every row of the upload and creates all its items, or none. */
export async function bulkCreateItems(db: DB, input: { merchantId: number; bytes: Buffer }): Promise<BulkOutcome> {
  const read = await readSpreadsheet(input.bytes);
  if (!read.ok) return { ok: false, kind: "file", code: read.code };
  const [headerRow = [], ...body] = read.rows;
  const header = headerRow.map((name) => name.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length)
    return {
      ok: false,
      kind: "file",
      code: "food_bulk.errors.missing_columns",
      params: { columns: missing.join(", ") },
    };
  const positions = new Map<Column, number>(
    ALL_COLUMNS.filter((column) => header.includes(column)).map((column) => [column, header.indexOf(column)]),
  );

  // Rows wholly blank (a spreadsheet's trailing lines) are not rows.
  const rows = body
    .map((cells, index) => ({ number: index + 2, cells }))
    .filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (rows.length === 0) return { ok: false, kind: "file", code: "food_bulk.errors.no_rows" };
  if (rows.length > BULK_MAX_ROWS)
    return { ok: false, kind: "file", code: "food_bulk.errors.too_many_rows", params: { max: BULK_MAX_ROWS } };

  const { currency } = await loadMerchantDefaults(db, input.merchantId);
  const [categories, skus] = await Promise.all([
    db
      .selectFrom("food_categories")
      .select(["id", "name_en"])
      .where("merchant_id", "=", input.merchantId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("food_items")
      .select("sku")
      .where("merchant_id", "=", input.merchantId)
      .where("sku", "is not", null)
      .execute(),
  ]);
  const takenSkus = new Set(skus.map((row) => (row.sku ?? "").toLowerCase()));
  const seenSkus = new Map<string, number>();
  const errors: RowError[] = [];
  const items: ParsedItem[] = [];

  for (const { number, cells } of rows) {
    const rowErrors: RowError[] = [];
    const cell = (column: Column) => {
      const at = positions.get(column);
      return at === undefined ? "" : (cells[at] ?? "").trim();
    };
    const fail = (column: Column, code: string, params?: RowError["params"]) =>
      rowErrors.push({ row: number, column, code, ...(params ? { params } : {}) });
    const text = (column: Column, required: boolean) => {
      const value = cell(column);
      if (required && value === "") fail(column, "errors.required");
      else if (value.length > (LIMITS[column] ?? 500))
        fail(column, "food_bulk.errors.too_long", { max: LIMITS[column] ?? 500 });
      return value;
    };
    const amount = (column: Column, required: boolean) => {
      const value = cell(column);
      if (value === "") {
        if (required) fail(column, "errors.required");
        return null;
      }
      const parsed = parseAmount(value, currency);
      if (!parsed.ok) {
        fail(column, parsed.error);
        return null;
      }
      return parsed.minor;
    };
    const flag = (column: Column, fallback: 0 | 1): 0 | 1 => {
      const value = cell(column).toLowerCase();
      if (value === "") return fallback;
      if (YES.has(value)) return 1;
      if (NO.has(value)) return 0;
      fail(column, "food_bulk.errors.yes_no");
      return fallback;
    };
    const choices = (column: Column) => {
      const value = cell(column);
      if (value === "") return [];
      const found: { name: string; price: number }[] = [];
      for (const part of value.split("|")) {
        const colon = part.lastIndexOf(":");
        const name = colon > 0 ? part.slice(0, colon).trim() : "";
        const price = colon > 0 ? parseAmount(part.slice(colon + 1), currency) : null;
        if (!name || name.length > 100 || !price?.ok) {
          fail(column, "food_bulk.errors.choices", {
            example: column === "sizes" ? "Small:1.500|Large:2.500" : "Cheese:0.250|Sauce:0.100",
          });
          return [];
        }
        found.push({ name, price: price.minor });
      }
      if (new Set(found.map((choice) => choice.name.toLowerCase())).size !== found.length)
        fail(column, "food_bulk.errors.choice_repeated");
      return found;
    };

    const category = text("category", true);
    const nameEn = text("name_en", true);
    const nameAr = text("name_ar", true);
    const descriptionEn = text("description_en", false);
    const descriptionAr = text("description_ar", false);
    const price = amount("price", true);
    const discounted = amount("discounted_price", false);
    if (price !== null && discounted !== null && discounted > price)
      fail("discounted_price", "food_bulk.errors.discount_above_price");
    const quantityText = cell("quantity");
    let quantity: number | null = null;
    if (quantityText !== "") {
      if (/^\d{1,9}$/.test(quantityText)) quantity = Number(quantityText);
      else fail("quantity", "food_bulk.errors.quantity");
    }
    const sku = text("sku", false);
    if (sku) {
      const key = sku.toLowerCase();
      const first = seenSkus.get(key);
      if (takenSkus.has(key)) fail("sku", "food_bulk.errors.sku_taken");
      else if (first !== undefined) fail("sku", "food_bulk.errors.sku_repeated", { row: first });
      else seenSkus.set(key, number);
    }
    const isAvailable = flag("available", 1);
    const isPromoted = flag("promoted", 0);
    const sizes = choices("sizes");
    const addOns = choices("add_ons");

    if (rowErrors.length) errors.push(...rowErrors);
    else
      items.push({
        row: number,
        category,
        name_en: nameEn,
        name_ar: nameAr,
        description_en: descriptionEn,
        description_ar: descriptionAr,
        price: price!,
        discounted_price: discounted,
        quantity,
        sku: sku || null,
        is_available: isAvailable,
        is_promoted: isPromoted,
        sizes,
        add_ons: addOns,
      });
  }

  if (errors.length)
    return { ok: false, kind: "rows", errors, report: errorReport(headerRow, rows, errors), rowsChecked: rows.length };
  const categoriesCreated = await insertItems(db, input.merchantId, items, categories);
  return { ok: true, created: items.length, categoriesCreated };
}

function errorReport(header: string[], rows: { number: number; cells: string[] }[], errors: RowError[]): ErrorReport {
  return { header, rows, errors };
}

/** The uploaded rows as CSV with an `error` column: each bad row's errors as "column: message", worded by `word` in the reader's language. */
export function errorReportCsv(report: ErrorReport, word: (error: RowError) => string) {
  const byRow = new Map<number, RowError[]>();
  for (const error of report.errors) byRow.set(error.row, [...(byRow.get(error.row) ?? []), error]);
  const width = report.header.length;
  const lines = [[...report.header, "error"]];
  for (const row of report.rows) {
    const cells = Array.from({ length: width }, (_, index) => row.cells[index] ?? "");
    lines.push([...cells, (byRow.get(row.number) ?? []).map((error) => `${error.column}: ${word(error)}`).join("; ")]);
  }
  return toCsv(lines);
}

/** Rows per INSERT: well under SQLite's and Postgres' limits on bound values (16 columns × 500). */
const BATCH = 500;

async function insertItems(
  db: DB,
  merchantId: number,
  items: readonly ParsedItem[],
  existing: readonly { id: number; name_en: string }[],
) {
  return writeTransaction(db, async (trx) => {
    const now = nowIso();
    const categoryIds = new Map<string, number>();
    for (const category of existing)
      if (!categoryIds.has(category.name_en.trim().toLowerCase()))
        categoryIds.set(category.name_en.trim().toLowerCase(), category.id);
    const newNames = [
      ...new Map(
        items
          .filter((item) => !categoryIds.has(item.category.toLowerCase()))
          .map((item) => [item.category.toLowerCase(), item.category]),
      ).values(),
    ];
    if (newNames.length) {
      const top = await trx
        .selectFrom("food_categories")
        .select((eb) => eb.fn.max("position").as("position"))
        .where("merchant_id", "=", merchantId)
        .executeTakeFirst();
      const start = Number(top?.position ?? 0) + 1;
      // A new category is named as the file names it in both languages; the merchant words its Arabic name on the menu pages.
      const created = await trx
        .insertInto("food_categories")
        .values(
          newNames.map((name, index) => ({
            merchant_id: merchantId,
            name_en: name,
            name_ar: name,
            position: start + index,
            is_active: 1,
            is_catering: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(["id", "name_en"])
        .execute();
      for (const category of created) categoryIds.set(category.name_en.toLowerCase(), category.id);
    }

    // Each item's position is unique in the upload: it tells which returned id is which row's.
    const top = await trx
      .selectFrom("food_items")
      .select((eb) => eb.fn.max("position").as("position"))
      .where("merchant_id", "=", merchantId)
      .executeTakeFirst();
    const base = Number(top?.position ?? 0) + 1;
    for (let from = 0; from < items.length; from += BATCH) {
      const batch = items.slice(from, from + BATCH);
      const inserted = await trx
        .insertInto("food_items")
        .values(
          batch.map((item, index) => ({
            merchant_id: merchantId,
            category_id: categoryIds.get(item.category.toLowerCase())!,
            sku: item.sku,
            name_en: item.name_en,
            name_ar: item.name_ar,
            description_en: item.description_en,
            description_ar: item.description_ar,
            price: item.price,
            discounted_price: item.discounted_price,
            quantity: item.quantity,
            is_available: item.is_available,
            is_promoted: item.is_promoted,
            position: base + from + index,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(["id", "position"])
        .execute();
      const idOf = new Map(inserted.map((row) => [Number(row.position), row.id]));
      const sizes = batch.flatMap((item, index) =>
        item.sizes.map((size, position) => ({
          item_id: idOf.get(base + from + index)!,
          name_en: size.name,
          name_ar: size.name,
          price: size.price,
          position,
        })),
      );
      const addOns = batch.flatMap((item, index) =>
        item.add_ons.map((addOn, position) => ({
          item_id: idOf.get(base + from + index)!,
          name_en: addOn.name,
          name_ar: addOn.name,
          price: addOn.price,
          position,
        })),
      );
      for (let at = 0; at < sizes.length; at += BATCH * 2)
        await trx
          .insertInto("food_item_sizes")
          .values(sizes.slice(at, at + BATCH * 2))
          .execute();
      for (let at = 0; at < addOns.length; at += BATCH * 2)
        await trx
          .insertInto("food_item_addons")
          .values(addOns.slice(at, at + BATCH * 2))
          .execute();
    }
    return newNames.length;
  });
}

/** The example files: the header and two believable rows (required fields only, or every column). */
export function exampleRows(type: "required_fields" | "all_fields"): string[][] {
  if (type === "required_fields") {
    return [
      [...REQUIRED_COLUMNS],
      ["Grills", "Chicken Tikka", "تكا دجاج", "2.750"],
      ["Drinks", "Fresh Lemon Mint", "ليمون نعناع طازج", "1.250"],
    ];
  }
  return [
    [...ALL_COLUMNS],
    [
      "Grills",
      "Chicken Tikka",
      "تكا دجاج",
      "2.750",
      "Boneless chicken grilled on charcoal",
      "دجاج بدون عظم مشوي على الفحم",
      "2.500",
      "",
      "GR-001",
      "yes",
      "yes",
      "Half:2.750|Full:4.500",
      "Garlic sauce:0.200|Extra bread:0.150",
    ],
    [
      "Drinks",
      "Fresh Lemon Mint",
      "ليمون نعناع طازج",
      "1.250",
      "",
      "",
      "",
      "40",
      "DR-001",
      "yes",
      "no",
      "Regular:1.250|Large:1.750",
      "",
    ],
  ];
}
