import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import {
  decodeCsvBytes,
  looksLikeZip,
  parseCsv,
  readXlsxApart,
  SpreadsheetError,
  toCsv,
  type SheetRows,
} from "~/lib/spreadsheet.server";
import { ALL_COLUMNS, IMPORT_MAX_ROWS, REQUIRED_COLUMNS, type ImportColumn } from "./bulk-columns";
import type { Actor, FieldErrors } from "./fields";
import { SLUG_MAX, SLUG_PATTERN } from "./slug";
import { loadShopMoney } from "./shop-money.server";
import { decimalOf, minorOf } from "./shop-money";

/**
 * Product import: one CSV or XLSX of products, all or nothing. A row whose slug the shop has
 * changes that product (only the columns the file has); any other row creates one. Every row is
 * checked first; one bad cell and nothing is written, and the answer lists each bad cell (row,
 * column, why) and carries the error report (the same rows with an `error` column).
 */

/** A bad cell: its row in the spreadsheet (the header is row 1), its column, a translation key and the key's values. */
export type RowError = { row: number; column: string; code: string; params?: Record<string, string | number> };

export type ErrorReport = { header: string[]; rows: { number: number; cells: string[] }[]; errors: RowError[] };

export type ImportOutcome =
  | { ok: true; created: number; updated: number }
  | { ok: false; kind: "file"; code: string; params?: Record<string, string | number> }
  | { ok: false; kind: "rows"; errors: RowError[]; report: ErrorReport; rowsChecked: number };

type ParsedProduct = {
  slug: string;
  values: {
    name_en: string;
    name_ar: string;
    price: number;
    description_en?: string;
    description_ar?: string;
    discounted_price?: number | null;
    inventory?: number | null;
    sku?: string | null;
    is_active?: number;
  };
};

const LIMITS: Partial<Record<ImportColumn, number>> = {
  name_en: 200,
  name_ar: 200,
  description_en: 5000,
  description_ar: 5000,
  sku: 64,
};
const YES = new Set(["1", "yes", "y", "true", "نعم"]);
const NO = new Set(["0", "no", "n", "false", "لا"]);

/** The file's rows: XLSX when the bytes are a zip, else CSV (UTF-8). */
export async function readSpreadsheet(
  bytes: Buffer,
): Promise<{ ok: true; rows: SheetRows } | { ok: false; code: string }> {
  if (bytes.length === 0) return { ok: false, code: "catalogue_admin.import.errors.empty_file" };
  if (looksLikeZip(bytes)) {
    try {
      return { ok: true, rows: await readXlsxApart(bytes) };
    } catch (error) {
      if (
        error instanceof SpreadsheetError ||
        error instanceof RangeError ||
        (error as { code?: string }).code?.startsWith("Z_")
      )
        return { ok: false, code: "catalogue_admin.import.errors.unreadable" };
      throw error;
    }
  }
  const text = decodeCsvBytes(bytes);
  if (text === null) return { ok: false, code: "catalogue_admin.import.errors.not_utf8" };
  if (text.includes("\u0000")) return { ok: false, code: "catalogue_admin.import.errors.unreadable" };
  return { ok: true, rows: parseCsv(text) };
}

/** Checks every row of the file and creates or changes all its products, or none. */
export async function importProducts(
  db: DB,
  input: { merchantId: number; actor: Actor; bytes: Buffer; ip?: string | null },
): Promise<ImportOutcome> {
  const read = await readSpreadsheet(input.bytes);
  if (!read.ok) return { ok: false, kind: "file", code: read.code };
  const [headerRow = [], ...body] = read.rows;
  const header = headerRow.map((name) => name.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length)
    return {
      ok: false,
      kind: "file",
      code: "catalogue_admin.import.errors.missing_columns",
      params: { columns: missing.join(", ") },
    };
  const positions = new Map<ImportColumn, number>(
    ALL_COLUMNS.filter((column) => header.includes(column)).map((column) => [column, header.indexOf(column)]),
  );

  // Rows wholly blank (a spreadsheet's trailing lines) are not rows.
  const rows = body
    .map((cells, index) => ({ number: index + 2, cells }))
    .filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (rows.length === 0) return { ok: false, kind: "file", code: "catalogue_admin.import.errors.no_rows" };
  if (rows.length > IMPORT_MAX_ROWS)
    return {
      ok: false,
      kind: "file",
      code: "catalogue_admin.import.errors.too_many_rows",
      params: { max: IMPORT_MAX_ROWS },
    };

  const money = await loadShopMoney(db, input.merchantId);
  const existing = await db
    .selectFrom("catalogue_products")
    .select(["id", "slug", "sku", "price", "discounted_price"])
    .where("merchant_id", "=", input.merchantId)
    .execute();
  const bySlug = new Map(existing.map((row) => [row.slug, row]));
  const skuOwner = new Map(existing.filter((row) => row.sku).map((row) => [row.sku!.toLowerCase(), row.slug]));
  const seenSlugs = new Map<string, number>();
  const seenSkus = new Map<string, number>();
  const errors: RowError[] = [];
  const products: ParsedProduct[] = [];

  for (const { number, cells } of rows) {
    const rowErrors: RowError[] = [];
    const has = (column: ImportColumn) => positions.has(column);
    const cell = (column: ImportColumn) => {
      const at = positions.get(column);
      return at === undefined ? "" : (cells[at] ?? "").trim();
    };
    const fail = (column: ImportColumn, code: string, params?: RowError["params"]) =>
      rowErrors.push({ row: number, column, code, ...(params ? { params } : {}) });
    const text = (column: ImportColumn, required: boolean) => {
      const value = cell(column);
      if (required && value === "") fail(column, "errors.required");
      else if (value.length > (LIMITS[column] ?? 500))
        fail(column, "catalogue_admin.import.errors.too_long", { max: LIMITS[column] ?? 500 });
      return value;
    };
    const amount = (column: ImportColumn, required: boolean) => {
      const value = cell(column);
      if (value === "") {
        if (required) fail(column, "errors.required");
        return null;
      }
      const found: FieldErrors = {};
      const minor = minorOf(value, money, column, found);
      for (const error of found[column] ?? []) fail(column, error.code, error.params);
      return minor ?? null;
    };

    const slug = cell("slug").toLowerCase();
    if (slug === "") fail("slug", "errors.required");
    else if (slug.length > SLUG_MAX || !SLUG_PATTERN.test(slug)) fail("slug", "catalogue_admin.errors.slug");
    else if (seenSlugs.has(slug))
      fail("slug", "catalogue_admin.import.errors.slug_repeated", { row: seenSlugs.get(slug)! });
    else seenSlugs.set(slug, number);
    const nameEn = text("name_en", true);
    const nameAr = text("name_ar", true);
    const price = amount("price", true);
    const values: ParsedProduct["values"] = { name_en: nameEn, name_ar: nameAr, price: price ?? 0 };
    if (has("description_en")) values.description_en = text("description_en", false);
    if (has("description_ar")) values.description_ar = text("description_ar", false);
    if (has("discounted_price")) {
      values.discounted_price = amount("discounted_price", false);
      if (price !== null && values.discounted_price !== null && values.discounted_price > price)
        fail("discounted_price", "catalogue_admin.errors.discount_above_price");
    } else {
      // The file keeps the product's discounted price: a price below it would be a discount above the price.
      const stored = bySlug.get(slug)?.discounted_price ?? null;
      if (price !== null && stored !== null && stored > price)
        fail("price", "catalogue_admin.import.errors.price_below_discount", { discounted: decimalOf(stored, money) });
    }
    if (has("inventory")) {
      const inventory = cell("inventory");
      if (inventory === "") values.inventory = null;
      else if (/^\d{1,9}$/.test(inventory)) values.inventory = Number(inventory);
      else fail("inventory", "catalogue_admin.errors.inventory");
    }
    if (has("sku")) {
      const sku = text("sku", false);
      values.sku = sku || null;
      if (sku) {
        const key = sku.toLowerCase();
        const owner = skuOwner.get(key);
        if (owner !== undefined && owner !== slug) fail("sku", "catalogue_admin.errors.sku_taken");
        else if (seenSkus.has(key))
          fail("sku", "catalogue_admin.import.errors.sku_repeated", { row: seenSkus.get(key)! });
        else seenSkus.set(key, number);
      }
    }
    if (has("active")) {
      const active = cell("active").toLowerCase();
      if (YES.has(active)) values.is_active = 1;
      else if (NO.has(active)) values.is_active = 0;
      else if (active !== "") fail("active", "catalogue_admin.import.errors.yes_no");
    }
    if (rowErrors.length) errors.push(...rowErrors);
    else products.push({ slug, values });
  }

  if (errors.length)
    return { ok: false, kind: "rows", errors, report: { header: headerRow, rows, errors }, rowsChecked: rows.length };
  try {
    return await writeProducts(
      db,
      input,
      products,
      new Map([...bySlug].map(([slug, row]) => [slug, row.id])),
      JSON.stringify(money),
    );
  } catch (error) {
    // A product made with one of the file's slugs or SKUs meanwhile: nothing was written; the same file again will say which.
    if (error instanceof ProductsChanged || /unique|duplicate/i.test(String(error)))
      return { ok: false, kind: "file", code: "catalogue_admin.import.errors.changed" };
    throw error;
  }
}

/** A product of the file was deleted or changed while the file was checked: the transaction is rolled back. */
class ProductsChanged extends Error {}

/** Rows per INSERT: well under SQLite's and Postgres' limits on bound values (14 columns × 500). */
const BATCH = 500;

async function writeProducts(
  db: DB,
  input: { merchantId: number; actor: Actor; ip?: string | null },
  products: readonly ParsedProduct[],
  known: ReadonlyMap<string, number>,
  checkedMoney: string,
) {
  return writeTransaction(db, async (trx) => {
    // The merchant's lock first, as checkout and the product form take it: the shop's currency and
    // decimals the file was read with must still be the shop's, and no checkout runs meanwhile.
    await lockMerchant(trx, input.merchantId);
    if (JSON.stringify(await loadShopMoney(trx, input.merchantId)) !== checkedMoney) throw new ProductsChanged();
    const now = nowIso();
    // Products are changed in id order, the order checkout and payments lock them in (no deadlock on Postgres).
    const updates = products
      .filter((product) => known.has(product.slug))
      .sort((a, b) => known.get(a.slug)! - known.get(b.slug)!);
    const creates = products.filter((product) => !known.has(product.slug));
    for (const product of updates) {
      const { price, discounted_price: discounted } = product.values;
      const changed = await trx
        .updateTable("catalogue_products")
        .set({ ...product.values, updated_at: now })
        .where("merchant_id", "=", input.merchantId)
        .where("slug", "=", product.slug)
        // A discounted price kept from the product must stay at most the new price (it may have changed since the check).
        .$if(discounted === undefined, (query) =>
          query.where((eb) => eb.or([eb("discounted_price", "is", null), eb("discounted_price", "<=", price)])),
        )
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) throw new ProductsChanged();
    }
    const top = await trx
      .selectFrom("catalogue_products")
      .select((eb) => eb.fn.max("position").as("position"))
      .where("merchant_id", "=", input.merchantId)
      .executeTakeFirst();
    const base = Number(top?.position ?? 0) + 1;
    for (let from = 0; from < creates.length; from += BATCH) {
      await trx
        .insertInto("catalogue_products")
        .values(
          creates.slice(from, from + BATCH).map((product, index) => ({
            merchant_id: input.merchantId,
            slug: product.slug,
            sku: product.values.sku ?? null,
            name_en: product.values.name_en,
            name_ar: product.values.name_ar,
            description_en: product.values.description_en ?? "",
            description_ar: product.values.description_ar ?? "",
            price: product.values.price,
            discounted_price: product.values.discounted_price ?? null,
            inventory: product.values.inventory ?? null,
            is_active: product.values.is_active ?? 1,
            position: base + from + index,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "catalogue_products_imported",
      params: { created: creates.length, updated: updates.length },
      objectType: "catalogue_product",
      ip: input.ip,
    });
    return { ok: true as const, created: creates.length, updated: updates.length };
  });
}

/** The file's rows as CSV with an `error` column: each bad cell as "column: message", worded by `word` in the reader's language. */
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

/** The example files: the header and two believable rows (required fields only, or every column). */
export function exampleRows(type: "required_fields" | "all_fields"): string[][] {
  if (type === "required_fields") {
    return [
      [...REQUIRED_COLUMNS],
      ["oud-perfume-50ml", "Oud perfume 50 ml", "عطر عود ٥٠ مل", "18.500"],
      ["dates-gift-box", "Dates gift box", "علبة تمر هدية", "7.250"],
    ];
  }
  return [
    [...ALL_COLUMNS],
    [
      "oud-perfume-50ml",
      "Oud perfume 50 ml",
      "عطر عود ٥٠ مل",
      "18.500",
      "Long-lasting Cambodian oud",
      "عود كمبودي يدوم طويلاً",
      "16.000",
      "25",
      "OUD-050",
      "yes",
    ],
    [
      "dates-gift-box",
      "Dates gift box",
      "علبة تمر هدية",
      "7.250",
      "Khalas and Sukkari dates, 1 kg",
      "تمر خلاص وسكري، ١ كغ",
      "",
      "",
      "DAT-001",
      "yes",
    ],
  ];
}
