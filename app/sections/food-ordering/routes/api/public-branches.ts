import type { Route } from "./+types/public-branches";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { toDecimalString } from "~/lib/money";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { findArea, findPublicBranch, listAreas, listBranches } from "../../domain/public-menu.server";
import {
  idParam,
  notFound,
  publicApiLanguage,
  requireMerchant,
  serializeArea,
  serializeBranch,
} from "./public-api.server";

/**
 * Branches and where they deliver, for anyone: GET branches (`?merchant=`), GET branches/{id},
 * OPTIONS branches, GET delivery_areas/{branch_id}, GET delivery_zones/{branch_id} (the areas by
 * zone), GET min-order?branch=&delivery_area=, GET is-branch-or-delivery-area-work?branch=&delivery_area=.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const url = new URL(request.url);
  const path = url.pathname;
  const lang = publicApiLanguage(request);
  if (request.method === "OPTIONS") {
    if (!path.endsWith("/branches")) return methodNotAllowed(request);
    return apiJson(
      {
        name: "Branch",
        fields: [
          "id",
          "name",
          "email",
          "phone",
          "address",
          "image",
          "minimum_order_sum",
          "delivery_time",
          "location",
          "delivery_types",
          "working_hours",
          "is_open",
        ],
      },
      200,
      { Allow: "GET, OPTIONS" },
    );
  }
  if (request.method !== "GET") return methodNotAllowed(request);
  const branchOf = async (value: unknown) => {
    const id = idParam(value);
    const branch = id === undefined ? undefined : await findPublicBranch(db, id);
    if (!branch) notFound(request);
    return { branch, currency: (await loadMerchantDefaults(db, branch.merchant_id)).currency };
  };
  if (params.branchId !== undefined) {
    const { branch, currency } = await branchOf(params.branchId);
    const areas = (await listAreas(db, branch.id)).map((area) => serializeArea(area, currency));
    if (path.includes("/delivery_zones/")) {
      const zones = [...new Set(areas.map((area) => area.zone))];
      return apiJson(zones.map((zone) => ({ zone, areas: areas.filter((area) => area.zone === zone) })));
    }
    return apiJson(areas);
  }
  if (params.id !== undefined) {
    const { branch, currency } = await branchOf(params.id);
    return apiJson(serializeBranch(branch, currency, lang));
  }
  if (path.endsWith("/min-order") || path.endsWith("/is-branch-or-delivery-area-work")) {
    if (!url.searchParams.get("branch")) return apiDetail(request, "food.errors.branch", 400);
    const { branch, currency } = await branchOf(url.searchParams.get("branch"));
    const areaParam = url.searchParams.get("delivery_area");
    const areaId = areaParam ? idParam(areaParam) : undefined;
    const area = areaId === undefined ? undefined : await findArea(db, branch.id, areaId);
    if (path.endsWith("/min-order")) {
      if (areaParam && !area) notFound(request);
      return apiJson({
        branch: branch.id,
        delivery_area: area?.id ?? null,
        min_order: toDecimalString(Math.max(branch.min_order, area?.min_order ?? 0), currency),
        delivery_charges: toDecimalString(area?.charge ?? 0, currency),
        currency_code: currency,
      });
    }
    const delivers = areaParam ? area !== undefined : true;
    return apiJson({
      branch: branch.id,
      delivery_area: area?.id ?? null,
      is_open: branch.is_open,
      delivers,
      is_working: branch.is_open && delivers,
    });
  }
  const merchantId = await requireMerchant(db, request);
  const [branches, { currency }] = await Promise.all([
    listBranches(db, merchantId),
    loadMerchantDefaults(db, merchantId),
  ]);
  return apiJson(branches.map((branch) => serializeBranch(branch, currency, lang)));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
