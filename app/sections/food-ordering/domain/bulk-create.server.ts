import { writeTransaction, type DB } from "~/db/database.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { nowIso } from "~/lib/clock.server";
import { parseAmount } from "~/lib/money";
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
import { ALL_COLUMNS, BULK_MAX_ROWS, REQUIRED_COLUMNS } from "./bulk-columns";

/**
 * Product bulk create (dashboard spec §2 food-ordering tools): one CSV or XLSX of menu items, all or
 * nothing. Every row is checked first; one bad row and nothing is created, and the answer lists each
 * row's errors and carries the error report (the same rows with an `error` column). Otherwise the
 * new categories, the items and their sizes and add-ons are inserted in one transaction, in batches.
 */

export type BulkOutcome = { ok: true; created: number; categoriesCreated: number } | FileRefusal | RowsRefusal;

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

type MenuContext = { currency: string };

const text = (max: number, required = false) => textReader(max, { tooLong: "food_bulk.errors.too_long", required });

/** An amount in the merchant's currency, in minor units; null when blank. */
const amount =
  (required: boolean) =>
  (value: string, cell: Cell<MenuContext>): number | null => {
    if (value === "") {
      if (required) cell.refuse("errors.required");
      return null;
    }
    const parsed = parseAmount(value, cell.context.currency);
    if (parsed.ok) return parsed.minor;
    cell.refuse(parsed.error);
    return null;
  };

/** Sizes or add-ons: "name:price" joined by "|". */
const choices =
  (example: string) =>
  (value: string, cell: Cell<MenuContext>): { name: string; price: number }[] => {
    if (value === "") return [];
    const found: { name: string; price: number }[] = [];
    for (const part of value.split("|")) {
      const colon = part.lastIndexOf(":");
      const name = colon > 0 ? part.slice(0, colon).trim() : "";
      const price = colon > 0 ? parseAmount(part.slice(colon + 1), cell.context.currency) : null;
      if (!name || name.length > 100 || !price?.ok) {
        cell.refuse("food_bulk.errors.choices", { example });
        return [];
      }
      found.push({ name, price: price.minor });
    }
    if (new Set(found.map((choice) => choice.name.toLowerCase())).size !== found.length)
      cell.refuse("food_bulk.errors.choice_repeated");
    return found;
  };

const MENU_SHEET = {
  required: REQUIRED_COLUMNS,
  columns: {
    category: text(100, true),
    name_en: text(200, true),
    name_ar: text(200, true),
    description_en: text(2000),
    description_ar: text(2000),
    price: amount(true),
    discounted_price: amount(false),
    quantity: countReader("food_bulk.errors.quantity"),
    sku: text(64),
    available: yesNoReader("food_bulk.errors.yes_no"),
    promoted: yesNoReader("food_bulk.errors.yes_no"),
    sizes: choices("Small:1.500|Large:2.500"),
    add_ons: choices("Cheese:0.250|Sauce:0.100"),
  },
  maxRows: BULK_MAX_ROWS,
  refusals: {
    emptyFile: "food_bulk.errors.empty_file",
    unreadable: "food_bulk.errors.unreadable",
    notUtf8: "food_bulk.errors.not_utf8",
    missingColumns: "food_bulk.errors.missing_columns",
    noRows: "food_bulk.errors.no_rows",
    tooManyRows: "food_bulk.errors.too_many_rows",
  },
} satisfies SheetSpec<MenuContext>;

/** The file's rows: XLSX when the bytes are a zip, else CSV (UTF-8). */
export const readSpreadsheet = (bytes: Buffer) => readSheetRows(bytes, MENU_SHEET.refusals);

/** Checks every row of the upload and creates all its items, or none. */
export async function bulkCreateItems(db: DB, input: { merchantId: number; bytes: Buffer }): Promise<BulkOutcome> {
  const sheet = await readSheet(input.bytes, MENU_SHEET);
  if (!sheet.ok) return sheet;
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

  const checked = checkRows(sheet, MENU_SHEET, { currency }, (cells, row): ParsedItem => {
    const { price, discounted_price: discounted, sku } = cells;
    if (price !== null && discounted !== null && discounted > price)
      row.refuse("discounted_price", "food_bulk.errors.discount_above_price");
    if (sku) {
      const key = sku.toLowerCase();
      const first = seenSkus.get(key);
      if (takenSkus.has(key)) row.refuse("sku", "food_bulk.errors.sku_taken");
      else if (first !== undefined) row.refuse("sku", "food_bulk.errors.sku_repeated", { row: first });
      else seenSkus.set(key, row.number);
    }
    return {
      ...cells,
      row: row.number,
      price: price!,
      discounted_price: discounted,
      sku: sku || null,
      is_available: cells.available === false ? 0 : 1,
      is_promoted: cells.promoted === true ? 1 : 0,
    };
  });
  if (!checked.ok) return checked;
  const categoriesCreated = await insertItems(db, input.merchantId, checked.rows, categories);
  return { ok: true, created: checked.rows.length, categoriesCreated };
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
