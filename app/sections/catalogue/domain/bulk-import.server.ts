import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import {
  checkRows,
  countReader,
  readSheet,
  readSheetRows,
  textReader,
  yesNoReader,
  type Cell,
  type FileRefusal,
  type RowsRefusal,
  type SheetSpec,
} from "~/lib/spreadsheet-import.server";
import { ALL_COLUMNS, IMPORT_MAX_ROWS, REQUIRED_COLUMNS } from "./bulk-columns";
import type { Actor, FieldErrors } from "./fields";
import { SLUG_MAX, SLUG_PATTERN } from "./slug";
import { loadShopMoney } from "./shop-money.server";
import { decimalOf, minorOf, type ShopMoney } from "./shop-money";

/**
 * Product import: one CSV or XLSX of products, all or nothing. A row whose slug the shop has
 * changes that product (only the columns the file has); any other row creates one. Every row is
 * checked first; one bad cell and nothing is written, and the answer lists each bad cell (row,
 * column, why) and carries the error report (the same rows with an `error` column).
 */

export type ImportOutcome = { ok: true; created: number; updated: number } | FileRefusal | RowsRefusal;

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

const text = (max: number, required = false) =>
  textReader(max, { tooLong: "catalogue_admin.import.errors.too_long", required });

/** A price in the shop's currency and decimals, in minor units; null when blank. */
const amount =
  (required: boolean) =>
  (value: string, cell: Cell<ShopMoney>): number | null => {
    if (value === "") {
      if (required) cell.refuse("errors.required");
      return null;
    }
    const found: FieldErrors = {};
    const minor = minorOf(value, cell.context, "price", found);
    for (const error of found.price ?? []) cell.refuse(error.code, error.params);
    return minor ?? null;
  };

const PRODUCT_SHEET = {
  required: REQUIRED_COLUMNS,
  columns: {
    slug: (value: string, cell: Cell<ShopMoney>) => {
      const slug = value.toLowerCase();
      if (slug === "") cell.refuse("errors.required");
      else if (slug.length > SLUG_MAX || !SLUG_PATTERN.test(slug)) cell.refuse("catalogue_admin.errors.slug");
      else return slug;
      return null;
    },
    name_en: text(200, true),
    name_ar: text(200, true),
    price: amount(true),
    description_en: text(5000),
    description_ar: text(5000),
    discounted_price: amount(false),
    inventory: countReader("catalogue_admin.errors.inventory"),
    sku: text(64),
    active: yesNoReader("catalogue_admin.import.errors.yes_no"),
  },
  maxRows: IMPORT_MAX_ROWS,
  refusals: {
    emptyFile: "catalogue_admin.import.errors.empty_file",
    unreadable: "catalogue_admin.import.errors.unreadable",
    notUtf8: "catalogue_admin.import.errors.not_utf8",
    missingColumns: "catalogue_admin.import.errors.missing_columns",
    noRows: "catalogue_admin.import.errors.no_rows",
    tooManyRows: "catalogue_admin.import.errors.too_many_rows",
  },
} satisfies SheetSpec<ShopMoney>;

/** The file's rows: XLSX when the bytes are a zip, else CSV (UTF-8). */
export const readSpreadsheet = (bytes: Buffer) => readSheetRows(bytes, PRODUCT_SHEET.refusals);

/** Checks every row of the file and creates or changes all its products, or none. */
export async function importProducts(
  db: DB,
  input: { merchantId: number; actor: Actor; bytes: Buffer; ip?: string | null },
): Promise<ImportOutcome> {
  const sheet = await readSheet(input.bytes, PRODUCT_SHEET);
  if (!sheet.ok) return sheet;
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

  const checked = checkRows(sheet, PRODUCT_SHEET, money, (cells, row): ParsedProduct => {
    const { slug, price } = cells;
    if (slug !== null) {
      const first = seenSlugs.get(slug);
      if (first !== undefined) row.refuse("slug", "catalogue_admin.import.errors.slug_repeated", { row: first });
      else seenSlugs.set(slug, row.number);
    }
    const values: ParsedProduct["values"] = { name_en: cells.name_en, name_ar: cells.name_ar, price: price ?? 0 };
    if (row.has("description_en")) values.description_en = cells.description_en;
    if (row.has("description_ar")) values.description_ar = cells.description_ar;
    if (row.has("discounted_price")) {
      values.discounted_price = cells.discounted_price;
      if (price !== null && values.discounted_price !== null && values.discounted_price > price)
        row.refuse("discounted_price", "catalogue_admin.errors.discount_above_price");
    } else {
      // The file keeps the product's discounted price: a price below it would be a discount above the price.
      const stored = slug === null ? null : (bySlug.get(slug)?.discounted_price ?? null);
      if (price !== null && stored !== null && stored > price)
        row.refuse("price", "catalogue_admin.import.errors.price_below_discount", {
          discounted: decimalOf(stored, money),
        });
    }
    if (row.has("inventory")) values.inventory = cells.inventory;
    if (row.has("sku")) {
      values.sku = cells.sku || null;
      if (cells.sku) {
        const key = cells.sku.toLowerCase();
        const owner = skuOwner.get(key);
        if (owner !== undefined && owner !== slug) row.refuse("sku", "catalogue_admin.errors.sku_taken");
        else if (seenSkus.has(key))
          row.refuse("sku", "catalogue_admin.import.errors.sku_repeated", { row: seenSkus.get(key)! });
        else seenSkus.set(key, row.number);
      }
    }
    if (cells.active !== null) values.is_active = cells.active ? 1 : 0;
    return { slug: slug!, values };
  });
  if (!checked.ok) return checked;
  try {
    return await writeProducts(
      db,
      input,
      checked.rows,
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
