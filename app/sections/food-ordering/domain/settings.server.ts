import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import type { FoodSettingsInput } from "./settings-schema";
import type { Actor } from "./setup-fields";

/**
 * The menu's settings held in food_settings.data (JSON): the menu page's configuration, the
 * header's and the banners. Promoted dishes are not here: they are the items marked promoted.
 */
export type FoodSettings = {
  menu_page: { title_en: string; title_ar: string; show_images: boolean };
  header: { banner_text_en: string; banner_text_ar: string };
  banners: { image: string | null; title_en: string; title_ar: string }[];
};

export const DEFAULT_FOOD_SETTINGS: FoodSettings = {
  menu_page: { title_en: "", title_ar: "", show_images: true },
  header: { banner_text_en: "", banner_text_ar: "" },
  banners: [],
};

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** The merchant's settings, with the defaults for what was never set (a stored value of the wrong shape counts as unset). */
export async function loadFoodSettings(db: DB, merchantId: number): Promise<FoodSettings> {
  const row = await db
    .selectFrom("food_settings")
    .select("data")
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  let data: Record<string, any> = {};
  try {
    const parsed = row ? JSON.parse(row.data) : {};
    if (parsed && typeof parsed === "object") data = parsed;
  } catch {}
  const menu = data.menu_page ?? {};
  const header = data.header ?? {};
  return {
    menu_page: {
      title_en: str(menu.title_en),
      title_ar: str(menu.title_ar),
      show_images: typeof menu.show_images === "boolean" ? menu.show_images : true,
    },
    header: { banner_text_en: str(header.banner_text_en), banner_text_ar: str(header.banner_text_ar) },
    banners: Array.isArray(data.banners)
      ? data.banners.map((banner: Record<string, unknown>) => ({
          image: typeof banner?.image === "string" ? banner.image : null,
          title_en: str(banner?.title_en),
          title_ar: str(banner?.title_ar),
        }))
      : [],
  };
}

/** Writes the settings sent (the fields left out keep their values), keeping the other keys others store in the same JSON. */
export async function saveFoodSettings(
  db: DB,
  change: { merchantId: number; actor: Actor; input: FoodSettingsInput; ip?: string | null },
): Promise<FoodSettings> {
  const input = change.input;
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("food_settings")
      .select("data")
      .where("merchant_id", "=", change.merchantId)
      .executeTakeFirst();
    let stored: Record<string, unknown> = {};
    try {
      const parsed = row ? JSON.parse(row.data) : {};
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) stored = parsed;
    } catch {}
    const current = await loadFoodSettings(trx, change.merchantId);
    const next: FoodSettings = {
      menu_page: {
        title_en: input.menu_title_en ?? current.menu_page.title_en,
        title_ar: input.menu_title_ar ?? current.menu_page.title_ar,
        show_images: input.show_images ?? current.menu_page.show_images,
      },
      header: {
        banner_text_en: input.banner_text_en ?? current.header.banner_text_en,
        banner_text_ar: input.banner_text_ar ?? current.header.banner_text_ar,
      },
      banners: input.banners
        ? input.banners.map((banner) => ({
            image: banner.image ?? null,
            title_en: banner.title_en ?? "",
            title_ar: banner.title_ar ?? "",
          }))
        : current.banners,
    };
    const data = JSON.stringify({ ...stored, ...next });
    const at = nowIso();
    if (row)
      await trx
        .updateTable("food_settings")
        .set({ data, updated_at: at })
        .where("merchant_id", "=", change.merchantId)
        .execute();
    else
      await trx.insertInto("food_settings").values({ merchant_id: change.merchantId, data, updated_at: at }).execute();
    await recordAudit(trx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: "food_settings_updated",
      objectType: "food_settings",
      objectId: change.merchantId,
      ip: change.ip,
    });
    return next;
  });
}
