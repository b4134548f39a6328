import type { DB } from "~/db/database.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { kuwaitAreaIn } from "~/domain/payments/kuwait-areas";
import { isLanguage, type Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { apiDetail, apiLanguage } from "~/web/api.server";
import { hoursView, imageUrl } from "../public/food-view.server";
import {
  defaultFoodMerchant,
  merchantExists,
  type PublicArea,
  type PublicBranch,
  type PublicCategory,
  type PublicItem,
} from "../../domain/public-menu.server";

/** The caller's language: `?lang=` when given, else Accept-Language. */
export function publicApiLanguage(request: Request): Language {
  const asked = new URL(request.url).searchParams.get("lang");
  return isLanguage(asked) ? asked : apiLanguage(request);
}

export const idParam = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value > 0
    ? value
    : typeof value === "string" && /^\d{1,10}$/.test(value.trim()) && Number(value) > 0
      ? Number(value)
      : undefined;

/** The merchant `?merchant=` names, else the installation's first with food-ordering branches; the API's 404 otherwise. */
export async function requireMerchant(db: DB, request: Request): Promise<number> {
  const asked = new URL(request.url).searchParams.get("merchant");
  if (asked !== null) {
    const id = idParam(asked);
    if (id === undefined || !(await merchantExists(db, id)))
      throw apiDetail(request, "food_public.errors.merchant_not_found", 404);
    return id;
  }
  const fallback = await defaultFoodMerchant(db);
  if (fallback === null) throw apiDetail(request, "food_public.errors.merchant_not_found", 404);
  return fallback;
}

export function notFound(request: Request): never {
  throw apiDetail(request, "food_public.errors.not_found", 404);
}

const image = (path: string | null) => imageUrl(path) ?? path;

export function serializeCategory(category: PublicCategory) {
  return {
    id: category.id,
    name_en: category.name_en,
    name_ar: category.name_ar,
    description_en: category.description_en,
    description_ar: category.description_ar,
    image: image(category.image_path),
    is_catering: Boolean(category.is_catering),
    minimum_number_of_plates: category.min_plates,
    service_charges: category.service_charge,
  };
}

export function serializeItem(item: PublicItem, currency: string) {
  const money = (minor: number) => toDecimalString(minor, currency);
  return {
    id: item.id,
    category_id: item.category_id,
    name_en: item.name_en,
    name_ar: item.name_ar,
    description_en: item.description_en,
    description_ar: item.description_ar,
    image: image(item.image_path),
    price: money(item.price),
    discounted_price: item.discounted_price === null ? null : money(item.discounted_price),
    quantity: item.quantity,
    is_sold_out: item.sold_out,
    is_promoted: Boolean(item.is_promoted),
    currency_code: currency,
    sizes: item.sizes.map((size) => ({
      id: size.id,
      name_en: size.name_en,
      name_ar: size.name_ar,
      price: money(size.price),
    })),
    add_ons: item.add_ons.map((addOn) => ({
      id: addOn.id,
      name_en: addOn.name_en,
      name_ar: addOn.name_ar,
      price: money(addOn.price),
    })),
    options: item.groups.map((group) => ({
      id: group.id,
      name_en: group.name_en,
      name_ar: group.name_ar,
      min_choices: group.min_choices,
      max_choices: group.max_choices,
      choices: group.choices.map((choice) => ({
        id: choice.id,
        name_en: choice.name_en,
        name_ar: choice.name_ar,
        price: money(choice.price),
      })),
    })),
  };
}

export function serializeBranch(branch: PublicBranch, currency: string, lang: Language) {
  return {
    id: branch.id,
    name: lang === "ar" ? branch.name_ar : branch.name_en,
    name_en: branch.name_en,
    name_ar: branch.name_ar,
    email: branch.email,
    phone: branch.phone,
    address: branch.address_html,
    image: image(branch.image_path),
    minimum_order_sum: toDecimalString(branch.min_order, currency),
    delivery_time: branch.delivery_minutes,
    location: branch.lat !== null && branch.lng !== null ? { lat: branch.lat, lng: branch.lng } : null,
    delivery_types: (["pickup", "delivery", "catering"] as const).filter(
      (type) =>
        ({ pickup: branch.offers_pickup, delivery: branch.offers_delivery, catering: branch.offers_catering })[type],
    ),
    working_hours: branch.hours.map((hour) => ({ weekday: hour.weekday, from: hour.opens, to: hour.closes })),
    working_hours_display: hoursView(branch.hours, lang),
    is_open: branch.is_open,
  };
}

export function serializeArea(area: PublicArea, currency: string) {
  return {
    id: area.id,
    branch: area.branch_id,
    area: area.area,
    name_en: kuwaitAreaIn(area.area, "en"),
    name_ar: kuwaitAreaIn(area.area, "ar"),
    zone: area.zone,
    delivery_charges: toDecimalString(area.charge, currency),
    min_order: toDecimalString(area.min_order, currency),
  };
}

type Nested = { [key: string]: string[] | Nested | Nested[] };

/**
 * The core's field errors in DRF's nested shape, each message in the caller's language:
 * `lines.1.quantity` becomes {"lines": [{}, {"quantity": [...]}]}, `address.area` {"address": {"area": [...]}}.
 * A message on the lines as a whole goes under non_field_errors when lines have their own.
 */
export function nestedErrors(
  errors: FieldErrors,
  params: TextParams | undefined,
  lang: Language,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const lineErrors: Nested[] = [];
  const general: string[] = [];
  for (const [key, codes] of Object.entries(errors)) {
    const messages = codes.map((code) => describe(code, params, lang));
    const line = /^lines\.(\d+)\.(\w+)$/.exec(key);
    if (line) {
      const index = Number(line[1]);
      while (lineErrors.length <= index) lineErrors.push({});
      lineErrors[index][line[2]] = messages;
      continue;
    }
    const dotted = /^(\w+)\.(\w+)$/.exec(key);
    if (dotted && dotted[1] !== "lines") {
      const group = (body[dotted[1]] ??= {}) as Record<string, string[]>;
      group[dotted[2]] = messages;
      continue;
    }
    if (key === "lines") general.push(...messages);
    else body[key] = messages;
  }
  if (lineErrors.length) {
    body.lines = lineErrors;
    if (general.length) body.non_field_errors = [...((body.non_field_errors as string[]) ?? []), ...general];
  } else if (general.length) body.lines = general;
  return body;
}
