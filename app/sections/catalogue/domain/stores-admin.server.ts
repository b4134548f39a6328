import type { Selectable } from "kysely";
import { writeTransaction, type DB } from "~/db/database.server";
import type { CatalogueStoreTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { named } from "~/lib/outcome";
import { addError, type Actor, type Change, type FieldErrors, type RemoveOutcome, type SaveOutcome } from "./fields";
import type { StoreInput } from "./store-schema";

export type StoreRow = Selectable<CatalogueStoreTable>;

const STORE_COLUMNS = [
  "id",
  "merchant_id",
  "name_en",
  "name_ar",
  "address_en",
  "address_ar",
  "phone",
  "is_active",
  "position",
  "carries_all",
  "created_at",
  "updated_at",
] as const;

export function listStores(db: DB, merchantId: number) {
  return db
    .selectFrom("catalogue_stores")
    .select(STORE_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .orderBy("position")
    .orderBy("id")
    .limit(1000)
    .execute();
}

export function getStore(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("catalogue_stores")
    .select(STORE_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The slugs of the products each store chose, by store (a store that carries every product has none). */
export async function loadStoreProducts(db: DB, storeIds: readonly number[]): Promise<Map<number, string[]>> {
  const byStore = new Map<number, string[]>();
  if (!storeIds.length) return byStore;
  const rows = await db
    .selectFrom("catalogue_store_products")
    .innerJoin("catalogue_products", "catalogue_products.id", "catalogue_store_products.product_id")
    .select(["catalogue_store_products.store_id", "catalogue_products.slug"])
    .where("catalogue_store_products.store_id", "in", storeIds)
    .orderBy("catalogue_products.slug")
    .execute();
  for (const row of rows) byStore.set(row.store_id, [...(byStore.get(row.store_id) ?? []), row.slug]);
  return byStore;
}

/** A store as the API answers it: `products` null when it carries every product, else the slugs it chose (maybe none left). */
export function serializeStore(store: StoreRow, products: readonly string[] | undefined, lang: Language) {
  return {
    id: store.id,
    name: lang === "ar" ? store.name_ar : store.name_en,
    name_en: store.name_en,
    name_ar: store.name_ar,
    address_en: store.address_en,
    address_ar: store.address_ar,
    phone: store.phone,
    is_active: Boolean(store.is_active),
    position: store.position,
    products: store.carries_all ? null : [...(products ?? [])],
  };
}

/**
 * Creates a store (`id` absent) or changes the fields sent of one of the merchant's, with the
 * products it carries: null for every product, else the slugs chosen (at least one).
 */
export async function saveStore(db: DB, change: Change<StoreInput> & { id?: number }): Promise<SaveOutcome<StoreRow>> {
  const input = change.input;
  const errors: FieldErrors = {};
  const existing = change.id === undefined ? undefined : await getStore(db, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing)
    for (const field of ["name_en", "name_ar"] as const) if (!input[field]) addError(errors, field, "errors.required");
  let productIds: number[] | null | undefined;
  if (input.products === null) productIds = null;
  else if (input.products !== undefined) {
    const slugs = [...new Set(input.products.filter(Boolean))];
    if (slugs.length === 0) addError(errors, "products", "catalogue_admin.errors.choose_products");
    const found = slugs.length
      ? await db
          .selectFrom("catalogue_products")
          .select(["id", "slug"])
          .where("merchant_id", "=", change.merchantId)
          .where("slug", "in", slugs)
          .execute()
      : [];
    const unknown = slugs.filter((slug) => !found.some((row) => row.slug === slug));
    if (unknown.length)
      addError(errors, "products", "catalogue_admin.errors.unknown_products", {
        slugs: unknown.slice(0, 10).join(", "),
      });
    productIds = found.map((row) => row.id);
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const at = nowIso();
  const values = {
    name_en: input.name_en,
    name_ar: input.name_ar,
    address_en: input.address_en,
    address_ar: input.address_ar,
    phone: input.phone === undefined ? undefined : input.phone || null,
    is_active: input.is_active === undefined ? undefined : Number(input.is_active),
    position: input.position,
    carries_all: productIds === undefined ? undefined : productIds === null ? 1 : 0,
    updated_at: at,
  };
  const row = await writeTransaction(db, async (trx) => {
    const saved = existing
      ? await trx
          .updateTable("catalogue_stores")
          .set(values)
          .where("id", "=", existing.id)
          .where("merchant_id", "=", change.merchantId)
          .returning(STORE_COLUMNS)
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto("catalogue_stores")
          .values({
            ...values,
            merchant_id: change.merchantId,
            name_en: input.name_en!,
            name_ar: input.name_ar!,
            is_active: Number(input.is_active ?? true),
            created_at: at,
          })
          .returning(STORE_COLUMNS)
          .executeTakeFirstOrThrow();
    if (productIds !== undefined) {
      await trx.deleteFrom("catalogue_store_products").where("store_id", "=", saved.id).execute();
      if (productIds?.length)
        await trx
          .insertInto("catalogue_store_products")
          .values(productIds.map((productId) => ({ store_id: saved.id, product_id: productId })))
          .execute();
    }
    await recordAudit(trx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: existing ? "catalogue_store_updated" : "catalogue_store_created",
      params: { name: named(saved.name_en, saved.name_ar) },
      objectType: "catalogue_store",
      objectId: saved.id,
      ip: change.ip,
    });
    return saved;
  });
  return { ok: true, value: row };
}

/** A store that orders name is only deactivated; one never chosen is deleted. */
export async function deleteStore(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<RemoveOutcome> {
  const store = await getStore(db, input.merchantId, input.id);
  if (!store) return { ok: false };
  return writeTransaction(db, async (trx) => {
    const ordered = await trx
      .selectFrom("catalogue_orders")
      .select("id")
      .where("store_id", "=", store.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered)
      await trx
        .updateTable("catalogue_stores")
        .set({ is_active: 0, updated_at: nowIso() })
        .where("id", "=", store.id)
        .execute();
    else {
      await trx.deleteFrom("catalogue_store_products").where("store_id", "=", store.id).execute();
      await trx.deleteFrom("catalogue_stores").where("id", "=", store.id).execute();
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? "catalogue_store_deactivated" : "catalogue_store_deleted",
      params: { name: named(store.name_en, store.name_ar) },
      objectType: "catalogue_store",
      objectId: store.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: Boolean(ordered) } as const;
  });
}
