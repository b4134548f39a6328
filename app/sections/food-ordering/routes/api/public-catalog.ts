import type { Route } from "./+types/public-catalog";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { findCategory, findItem, listCategories, listItems } from "../../domain/public-menu.server";
import { idParam, notFound, requireMerchant, serializeCategory, serializeItem } from "./public-api.server";

/**
 * The menu, for anyone: GET product_categories[/{id}] (a category with its items), GET
 * menu-items?category=<id>, GET products/{id}, OPTIONS products (the fields an item has).
 * `?merchant=` names the merchant (default: the installation's first with branches).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const path = new URL(request.url).pathname;
  if (request.method === "OPTIONS") {
    if (!path.endsWith("/products")) return methodNotAllowed(request);
    return apiJson(
      {
        name: "Menu item",
        fields: [
          "id",
          "category_id",
          "name_en",
          "name_ar",
          "description_en",
          "description_ar",
          "image",
          "price",
          "discounted_price",
          "quantity",
          "is_sold_out",
          "is_promoted",
          "currency_code",
          "sizes",
          "add_ons",
          "options",
        ],
        line_fields: {
          menu_item: "integer",
          category_id: "integer",
          quantity: "integer 1–999",
          size: "size id",
          add_ons: "add-on ids",
          options: "{group id: choice id or ids}",
          special_instructions: "string ≤ 256",
        },
      },
      200,
      { Allow: "GET, OPTIONS" },
    );
  }
  if (request.method !== "GET") return methodNotAllowed(request);
  if (path.includes("/products/")) {
    const id = idParam(params.id);
    const item = id === undefined ? undefined : await findItem(db, id);
    if (!item) notFound(request);
    const { currency } = await loadMerchantDefaults(db, item.merchant_id);
    return apiJson(serializeItem(item, currency));
  }
  if (path.includes("/product_categories/")) {
    const id = idParam(params.id);
    const category = id === undefined ? undefined : await findCategory(db, id);
    if (!category) notFound(request);
    const [items, { currency }] = await Promise.all([
      listItems(db, category.merchant_id, { categoryId: category.id }),
      loadMerchantDefaults(db, category.merchant_id),
    ]);
    return apiJson({ ...serializeCategory(category), items: items.map((item) => serializeItem(item, currency)) });
  }
  const merchantId = await requireMerchant(db, request);
  if (path.endsWith("/menu-items")) {
    const category = new URL(request.url).searchParams.get("category");
    const categoryId = category ? idParam(category) : undefined;
    if (category && categoryId === undefined) notFound(request);
    const [items, { currency }] = await Promise.all([
      listItems(db, merchantId, { categoryId }),
      loadMerchantDefaults(db, merchantId),
    ]);
    return apiJson(items.map((item) => serializeItem(item, currency)));
  }
  if (path.endsWith("/products")) return methodNotAllowed(request);
  return apiJson((await listCategories(db, merchantId)).map(serializeCategory));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
