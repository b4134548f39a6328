import type { Selectable } from "kysely";
import { DateTime } from "luxon";
import { writeTransaction, type DB } from "~/db/database.server";
import type { FoodBranchTable, FoodDeliveryAreaTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { isKuwaitArea, kuwaitAreaIn } from "~/domain/payments/kuwait-areas";
import { now, nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import { sanitizeAddressHtml } from "./address-html";
import type { BranchInput, DeliveryAreaInput, HourInput } from "./branch-schema";
import { isOpenAt, type Interval } from "./hours";
import { minorOf } from "./menu-admin.server";
import { addError, type Actor, type SetupErrors, type SetupOutcome } from "./setup-fields";

export type BranchRow = Selectable<FoodBranchTable>;
export type AreaRow = Selectable<FoodDeliveryAreaTable>;

/** Branches per page of the dashboard's list (spec §9). */
export const BRANCHES_PER_PAGE = 10;

/** Whether the branch takes orders now (Kuwait time) by its working hours. */
export function isOpenNow(hours: readonly Interval[], at: Date = now()) {
  return isOpenAt(hours, DateTime.fromJSDate(at));
}

/** Refusals of a week's intervals: each a real interval (opens before it closes), none overlapping another of its weekday. */
export function checkHours(hours: readonly HourInput[], errors: SetupErrors, field = "hours") {
  for (const [index, interval] of hours.entries()) {
    if (interval.opens >= interval.closes)
      addError(errors, `${field}.${index}.closes`, "food_setup.errors.closes_before_opens");
    const overlapping = hours.some(
      (other, otherIndex) =>
        otherIndex < index &&
        other.weekday === interval.weekday &&
        other.opens < interval.closes &&
        interval.opens < other.closes,
    );
    if (overlapping) addError(errors, `${field}.${index}.opens`, "food_setup.errors.hours_overlap");
  }
}

export async function listBranches(db: DB, merchantId: number, page?: { page: number; size: number }) {
  let query = db
    .selectFrom("food_branches")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("position")
    .orderBy("id");
  if (page) query = query.limit(page.size).offset((page.page - 1) * page.size);
  const [rows, total] = await Promise.all([
    query.execute(),
    db
      .selectFrom("food_branches")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

export function getBranch(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("food_branches")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export function loadBranchHours(db: DB, branchId: number) {
  return db
    .selectFrom("food_branch_hours")
    .select(["weekday", "opens", "closes"])
    .where("branch_id", "=", branchId)
    .orderBy("weekday")
    .orderBy("opens")
    .execute();
}

/** A branch as the API answers it: the spec's Branch (id, name, email, phone, address, image, minimum_order_sum, delivery_time) and what the merchant sets. */
export function serializeBranch(branch: BranchRow, hours: readonly Interval[], currency: string, lang: Language) {
  return {
    id: branch.id,
    name: lang === "ar" ? branch.name_ar : branch.name_en,
    name_en: branch.name_en,
    name_ar: branch.name_ar,
    email: branch.email,
    phone: branch.phone,
    address: branch.address_html,
    image: branch.image_path,
    minimum_order_sum: toDecimalString(Number(branch.min_order), currency),
    delivery_time: branch.delivery_minutes,
    lat: branch.lat,
    lng: branch.lng,
    offers_pickup: Boolean(branch.offers_pickup),
    offers_delivery: Boolean(branch.offers_delivery),
    offers_catering: Boolean(branch.offers_catering),
    is_active: Boolean(branch.is_active),
    position: branch.position,
    hours: hours.map((interval) => ({ weekday: interval.weekday, opens: interval.opens, closes: interval.closes })),
    is_open: isOpenNow(hours),
  };
}

/** Creates a branch (`id` absent) or changes the fields sent of one of the merchant's; `hours`, when sent, replaces the week. */
export async function saveBranch(
  db: DB,
  change: { merchantId: number; actor: Actor; input: BranchInput; id?: number; ip?: string | null },
): Promise<SetupOutcome<BranchRow>> {
  const { currency } = await loadMerchantDefaults(db, change.merchantId);
  const input = change.input;
  const errors: SetupErrors = {};
  const existing = change.id === undefined ? undefined : await getBranch(db, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing) {
    if (!input.name_en) addError(errors, "name_en", "errors.required");
    if (!input.name_ar) addError(errors, "name_ar", "errors.required");
  }
  const minOrder = minorOf(input.minimum_order_sum, currency, "minimum_order_sum", errors);
  if (input.hours) checkHours(input.hours, errors);
  if (Object.keys(errors).length) return { ok: false, errors };
  const at = nowIso();
  const flagOf = (value: boolean | undefined) => (value === undefined ? undefined : Number(value));
  const values = {
    name_en: input.name_en,
    name_ar: input.name_ar,
    email: input.email === "" ? null : input.email,
    phone: input.phone === "" ? null : input.phone,
    address_html: input.address === undefined ? undefined : sanitizeAddressHtml(input.address),
    image_path: input.image,
    min_order: minOrder,
    delivery_minutes: input.delivery_time,
    lat: input.lat,
    lng: input.lng,
    offers_pickup: flagOf(input.offers_pickup),
    offers_delivery: flagOf(input.offers_delivery),
    offers_catering: flagOf(input.offers_catering),
    is_active: flagOf(input.is_active),
    position: input.position,
    updated_at: at,
  };
  const row = await writeTransaction(db, async (trx) => {
    const saved = existing
      ? await trx
          .updateTable("food_branches")
          .set(values)
          .where("id", "=", existing.id)
          .where("merchant_id", "=", change.merchantId)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto("food_branches")
          .values({
            ...values,
            merchant_id: change.merchantId,
            name_en: input.name_en!,
            name_ar: input.name_ar!,
            offers_pickup: Number(input.offers_pickup ?? true),
            offers_delivery: Number(input.offers_delivery ?? true),
            offers_catering: Number(input.offers_catering ?? false),
            is_active: Number(input.is_active ?? true),
            created_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
    if (input.hours) {
      await trx.deleteFrom("food_branch_hours").where("branch_id", "=", saved.id).execute();
      if (input.hours.length)
        await trx
          .insertInto("food_branch_hours")
          .values(input.hours.map((interval) => ({ branch_id: saved.id, ...interval })))
          .execute();
    }
    await recordAudit(trx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: existing ? "food_branch_updated" : "food_branch_created",
      params: { name: saved.name_en },
      objectType: "food_branch",
      objectId: saved.id,
      ip: change.ip,
    });
    return saved;
  });
  return { ok: true, value: row };
}

/** A branch with orders is only deactivated; one without is deleted with its hours and areas. */
export async function deleteBranch(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<{ ok: true; deactivated: boolean } | { ok: false }> {
  const branch = await getBranch(db, input.merchantId, input.id);
  if (!branch) return { ok: false };
  return writeTransaction(db, async (trx) => {
    const ordered = await trx
      .selectFrom("food_orders")
      .select("id")
      .where("branch_id", "=", branch.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered) {
      await trx
        .updateTable("food_branches")
        .set({ is_active: 0, updated_at: nowIso() })
        .where("id", "=", branch.id)
        .execute();
    } else {
      await trx.deleteFrom("food_branch_hours").where("branch_id", "=", branch.id).execute();
      await trx.deleteFrom("food_delivery_areas").where("branch_id", "=", branch.id).execute();
      await trx.deleteFrom("food_branches").where("id", "=", branch.id).execute();
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? "food_branch_deactivated" : "food_branch_deleted",
      params: { name: branch.name_en },
      objectType: "food_branch",
      objectId: branch.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: Boolean(ordered) } as const;
  });
}

// ---- delivery areas ----

export function listAreas(db: DB, merchantId: number, options: { branchId?: number } = {}) {
  let query = db.selectFrom("food_delivery_areas").selectAll().where("merchant_id", "=", merchantId);
  if (options.branchId !== undefined) query = query.where("branch_id", "=", options.branchId);
  return query.orderBy("branch_id").orderBy("zone").orderBy("area").execute();
}

export function getArea(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("food_delivery_areas")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export function serializeArea(area: AreaRow, currency: string, lang: Language) {
  return {
    id: area.id,
    branch: area.branch_id,
    area: area.area,
    area_ar: kuwaitAreaIn(area.area, "ar"),
    name: kuwaitAreaIn(area.area, lang),
    zone: area.zone,
    charge: toDecimalString(Number(area.charge), currency),
    min_order: toDecimalString(Number(area.min_order), currency),
    is_active: Boolean(area.is_active),
  };
}

/** Adds an area to a branch (`id` absent) or changes one: a Kuwait area (by its English or Arabic name), once per branch. */
export async function saveArea(
  db: DB,
  change: { merchantId: number; actor: Actor; input: DeliveryAreaInput; id?: number; ip?: string | null },
): Promise<SetupOutcome<AreaRow>> {
  const { currency } = await loadMerchantDefaults(db, change.merchantId);
  const input = change.input;
  const errors: SetupErrors = {};
  const existing = change.id === undefined ? undefined : await getArea(db, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing) {
    if (input.branch === undefined) addError(errors, "branch", "errors.required");
    if (input.area === undefined) addError(errors, "area", "errors.required");
  }
  const branchId = input.branch ?? existing?.branch_id;
  if (input.branch !== undefined && !(await getBranch(db, change.merchantId, input.branch)))
    addError(errors, "branch", "food.errors.branch");
  const area =
    input.area === undefined ? undefined : isKuwaitArea(input.area) ? kuwaitAreaIn(input.area, "en") : undefined;
  if (input.area !== undefined && area === undefined) addError(errors, "area", "food_setup.errors.area");
  const charge = minorOf(input.charge, currency, "charge", errors);
  const minOrder = minorOf(input.min_order, currency, "min_order", errors);
  if (!errors.branch && !errors.area && branchId !== undefined && (area ?? existing?.area)) {
    const taken = await db
      .selectFrom("food_delivery_areas")
      .select("id")
      .where("branch_id", "=", branchId)
      .where("area", "=", (area ?? existing?.area)!)
      .where("id", "!=", existing?.id ?? 0)
      .executeTakeFirst();
    if (taken) addError(errors, "area", "food_setup.errors.area_taken");
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const values = {
    branch_id: input.branch,
    area,
    zone: input.zone,
    charge,
    min_order: minOrder,
    is_active: input.is_active === undefined ? undefined : Number(input.is_active),
  };
  try {
    const row = await writeTransaction(db, async (trx) => {
      const saved = existing
        ? await trx
            .updateTable("food_delivery_areas")
            .set(values)
            .where("id", "=", existing.id)
            .where("merchant_id", "=", change.merchantId)
            .returningAll()
            .executeTakeFirstOrThrow()
        : await trx
            .insertInto("food_delivery_areas")
            .values({
              ...values,
              merchant_id: change.merchantId,
              branch_id: input.branch!,
              area: area!,
              is_active: Number(input.is_active ?? true),
            })
            .returningAll()
            .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        merchantId: change.merchantId,
        actor: change.actor,
        action: existing ? "food_area_updated" : "food_area_created",
        params: { area: saved.area },
        objectType: "food_delivery_area",
        objectId: saved.id,
        ip: change.ip,
      });
      return saved;
    });
    return { ok: true, value: row };
  } catch (error) {
    // Two requests adding the same area at once: the unique constraint decides.
    if (/unique|duplicate/i.test(String(error)))
      return { ok: false, errors: { area: [{ code: "food_setup.errors.area_taken" }] } };
    throw error;
  }
}

/** An area orders went to is only deactivated; one without is deleted. */
export async function deleteArea(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<{ ok: true; deactivated: boolean } | { ok: false }> {
  const area = await getArea(db, input.merchantId, input.id);
  if (!area) return { ok: false };
  return writeTransaction(db, async (trx) => {
    const ordered = await trx
      .selectFrom("food_orders")
      .select("id")
      .where("delivery_area_id", "=", area.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered) await trx.updateTable("food_delivery_areas").set({ is_active: 0 }).where("id", "=", area.id).execute();
    else await trx.deleteFrom("food_delivery_areas").where("id", "=", area.id).execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? "food_area_deactivated" : "food_area_deleted",
      params: { area: area.area },
      objectType: "food_delivery_area",
      objectId: area.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: Boolean(ordered) } as const;
  });
}
