import type { Route } from "./+types/public-voucher";
import { offerDiscount } from "~/domain/commerce/offer-codes.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import { apiJson, methodNotAllowed, readBody, str } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { findBranch } from "../../domain/checkout.server";
import { checkVoucher, findVoucher } from "../../domain/pricing.server";
import { idParam, nestedErrors, publicApiLanguage } from "./public-api.server";

/**
 * POST voucher/activate/ {"code", "branch", "total"}: the voucher's discount on that total
 * {"code", "discount_type", "amount", "discount"} (a percentage as "10.00", a fixed amount in the
 * currency), or 400 with the reason in the caller's language. Uses are taken only when an order is placed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const body = await readBody(request);
  const code = str(body.code, 40).trim();
  const branchId = idParam(body.branch);
  const branch = branchId === undefined ? undefined : await findBranch(db, branchId);
  if (!code) return apiJson(nestedErrors({ code: ["errors.required"] }, undefined, lang), 400);
  if (!branch) return apiJson(nestedErrors({ branch: ["food.errors.branch"] }, undefined, lang), 400);
  const { currency } = await loadMerchantDefaults(db, branch.merchant_id);
  const total = parseAmount(str(body.total, 40).trim() || "0", currency);
  if (!total.ok) return apiJson(nestedErrors({ total: ["food_public.errors.invalid"] }, undefined, lang), 400);
  const voucher = await findVoucher(db, branch.merchant_id, code);
  const checked = await checkVoucher(db, voucher, total.minor, null);
  if (!checked.ok) {
    const params =
      checked.params?.minimum !== undefined
        ? { ...checked.params, minimum: toDecimalString(Number(checked.params.minimum), currency) }
        : checked.params;
    return apiJson(nestedErrors({ code: [checked.code] }, params, lang), 400);
  }
  return apiJson({
    code: voucher!.code,
    discount_type: voucher!.discount_type,
    amount:
      voucher!.discount_type === "percentage"
        ? (voucher!.amount / 100).toFixed(2)
        : toDecimalString(voucher!.amount, currency),
    discount: toDecimalString(offerDiscount(voucher!, total.minor), currency),
    currency_code: currency,
  });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
