import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { list, refuse, word, type Refusal, type TextParams } from "~/lib/outcome";
import { putBrandImage } from "./brand-images.server";
import { UNIT_FIELDS, type NewUnit, type UnitChanges, type UnitField } from "./unit-schema";

/**
 * The administration of a merchant's units: the branches or brands its customers see on their
 * pages, each with its own branding, one of them the default (the one a payment without a unit
 * shows, and `GET unit/default` answers). Units are never deleted: transactions name them.
 * Names are the merchant's own labels, unique among its units whatever their case.
 */

export type UnitView = {
  id: number;
  name: string;
  title_en: string;
  title_ar: string;
  header_color: string;
  show_unit_title: boolean;
  website: string | null;
  instagram_url: string | null;
  twitter_url: string | null;
  facebook_url: string | null;
  terms_en: string | null;
  terms_ar: string | null;
  logo_url: string | null;
  is_default: boolean;
};

type Actor = { id: number; username: string };
type Change = { merchantId: number; actor: Actor; ip?: string | null };

const COLUMNS = [
  "id",
  "name",
  "title_en",
  "title_ar",
  "header_color",
  "show_unit_title",
  "website",
  "instagram_url",
  "twitter_url",
  "facebook_url",
  "terms_en",
  "terms_ar",
  "logo_url",
  "is_default",
] as const;

const unitsOf = (db: DB, merchantId: number) =>
  db.selectFrom("units").select(COLUMNS).where("merchant_id", "=", merchantId);

function viewOf(row: Awaited<ReturnType<ReturnType<typeof unitsOf>["executeTakeFirstOrThrow"]>>): UnitView {
  return { ...row, show_unit_title: Boolean(row.show_unit_title), is_default: Boolean(row.is_default) };
}

/** The merchant's units, the default first, then in the order they were added. */
export async function listUnits(db: DB, merchantId: number): Promise<UnitView[]> {
  return (await unitsOf(db, merchantId).orderBy("is_default", "desc").orderBy("id").execute()).map(viewOf);
}

/** One of the merchant's units; another merchant's is as unknown as one that does not exist. */
export async function loadUnit(db: DB, merchantId: number, id: number): Promise<UnitView | undefined> {
  const row = await unitsOf(db, merchantId).where("id", "=", id).executeTakeFirst();
  return row && viewOf(row);
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase("en") === b.toLocaleLowerCase("en");

async function nameTaken(trx: DB, merchantId: number, name: string, exceptId?: number) {
  const rows = await trx.selectFrom("units").select(["id", "name"]).where("merchant_id", "=", merchantId).execute();
  return rows.some((row) => row.id !== exceptId && sameName(row.name, name));
}

function audit(trx: DB, input: Change, action: string, unit: { id: number; name: string }, params: TextParams = {}) {
  return recordAudit(trx, {
    merchantId: input.merchantId,
    actor: input.actor,
    action,
    params: { unit: unit.name, ...params },
    objectType: "unit",
    objectId: unit.id,
    ip: input.ip ?? null,
  });
}

const fieldWords = (fields: readonly UnitField[]) => list(fields.map((field) => word(`admin.units.fields.${field}`)));

/** Adds a unit (never the default: making it so is its own step). */
export async function createUnit(
  db: DB,
  input: Change & { unit: NewUnit },
): Promise<{ ok: true; unit: UnitView } | Refusal> {
  const unit = input.unit;
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    if (await nameTaken(trx, input.merchantId, unit.name))
      return refuse("admin.units.errors.name_taken", { field: "name" });
    const row = await trx
      .insertInto("units")
      .values({
        merchant_id: input.merchantId,
        name: unit.name,
        title_en: unit.title_en,
        title_ar: unit.title_ar,
        logo_url: null,
        header_color: unit.header_color ?? "#ffffff",
        show_unit_title: unit.show_unit_title === false ? 0 : 1,
        website: unit.website ?? null,
        instagram_url: unit.instagram_url ?? null,
        twitter_url: unit.twitter_url ?? null,
        facebook_url: unit.facebook_url ?? null,
        terms_en: unit.terms_en ?? null,
        terms_ar: unit.terms_ar ?? null,
        is_default: 0,
        created_at: nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await audit(trx, input, "unit_created", { id: row.id, name: unit.name });
    return { ok: true as const, unit: (await loadUnit(trx, input.merchantId, row.id))! };
  });
}

/**
 * Changes the fields given that differ from what is stored; one audit entry names them (not their
 * values). Answers the unit and the fields that changed (none: nothing written).
 */
export async function updateUnit(
  db: DB,
  input: Change & { id: number; changes: UnitChanges },
): Promise<{ ok: true; unit: UnitView; changed: UnitField[] } | Refusal> {
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const current = await loadUnit(trx, input.merchantId, input.id);
    if (!current) return refuse("admin.units.errors.not_found");
    const changed = UNIT_FIELDS.filter(
      (field) => input.changes[field] !== undefined && input.changes[field] !== current[field],
    );
    if (changed.length === 0) return { ok: true as const, unit: current, changed };
    const name = input.changes.name;
    if (changed.includes("name") && name !== undefined && (await nameTaken(trx, input.merchantId, name, current.id))) {
      return refuse("admin.units.errors.name_taken", { field: "name" });
    }
    const values: Record<string, string | number | null> = {};
    for (const field of changed) {
      const value = input.changes[field]!;
      values[field] = typeof value === "boolean" ? (value ? 1 : 0) : value;
    }
    await trx
      .updateTable("units")
      .set(values)
      .where("id", "=", current.id)
      .where("merchant_id", "=", input.merchantId)
      .execute();
    await audit(
      trx,
      input,
      "unit_changed",
      { id: current.id, name: name ?? current.name },
      { fields: fieldWords(changed) },
    );
    return { ok: true as const, unit: (await loadUnit(trx, input.merchantId, current.id))!, changed };
  });
}

/**
 * Makes a unit the merchant's default, and every other one not: one statement under the
 * merchant's lock, so that whatever runs at the same time, exactly one unit is the default.
 * The merchant's logo follows its default unit's (the profile shows and uploads them as one).
 */
export async function makeDefault(
  db: DB,
  input: Change & { id: number },
): Promise<{ ok: true; unit: UnitView; changed: boolean } | Refusal> {
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const unit = await loadUnit(trx, input.merchantId, input.id);
    if (!unit) return refuse("admin.units.errors.not_found");
    const defaults = await trx
      .selectFrom("units")
      .select("id")
      .where("merchant_id", "=", input.merchantId)
      .where("is_default", "=", 1)
      .execute();
    if (unit.is_default && defaults.length === 1) return { ok: true as const, unit, changed: false };
    await trx
      .updateTable("units")
      .set((eb) => ({ is_default: eb.case().when("id", "=", unit.id).then(1).else(0).end() }))
      .where("merchant_id", "=", input.merchantId)
      .execute();
    // The merchant's logo is its default unit's, none included: the top bar never shows a logo the customers' pages don't.
    await trx.updateTable("merchants").set({ logo_url: unit.logo_url }).where("id", "=", input.merchantId).execute();
    await audit(trx, input, "unit_made_default", unit);
    return { ok: true as const, unit: { ...unit, is_default: true }, changed: true };
  });
}

/**
 * A new logo for a unit, checked as the profile's logo is (the type read from its first bytes) and
 * served from the same place. The default unit's logo is also the merchant's.
 */
export async function setUnitLogo(
  db: DB,
  input: Change & { id: number; file: { size: number; arrayBuffer(): Promise<ArrayBuffer> } },
): Promise<{ ok: true; unit: UnitView } | Refusal> {
  const existing = await loadUnit(db, input.merchantId, input.id);
  if (!existing) return refuse("admin.units.errors.not_found");
  const stored = await putBrandImage(input.merchantId, "logo", input.file);
  if (!stored.ok) return refuse(stored.error, { field: "file" });
  const { url } = stored;
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const unit = await loadUnit(trx, input.merchantId, input.id);
    if (!unit) return refuse("admin.units.errors.not_found");
    await trx.updateTable("units").set({ logo_url: url }).where("id", "=", unit.id).execute();
    if (unit.is_default)
      await trx.updateTable("merchants").set({ logo_url: url }).where("id", "=", input.merchantId).execute();
    await audit(trx, input, "unit_logo_changed", unit);
    return { ok: true as const, unit: { ...unit, logo_url: url } };
  });
}
