import type { Route } from "./+types/public-checkout";
import { apiDetail, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { platformAddresses } from "~/web/addresses.server";
import { PUBLIC_CALLER, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { addressRules } from "../../domain/cart.server";
import { CheckoutSchema } from "../../domain/checkout-schema";
import { findBranch, placeOrder } from "../../domain/checkout.server";
import { checkoutThrottled } from "../../domain/feedback.server";
import { issuesAsErrors } from "../public/checkout-page.server";
import { idParam, nestedErrors, publicApiLanguage } from "./public-api.server";

/**
 * POST checkout and POST catering-checkout (which takes catering orders only): the issue's payload,
 * answered 201 {"id", "number", "total", "checkout_url"} (null checkout_url for cash on delivery) or
 * 400 with DRF-style errors naming the line ({"lines": [{}, {"quantity": [...]}]}), in the caller's
 * language. Anonymous, throttled per address; an Idempotency-Key makes a retry order once.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const body = await readBody(request);
  const catering = new URL(request.url).pathname.endsWith("/catering-checkout");
  if (await checkoutThrottled(db, context.get(clientAddressContext)))
    return apiDetail(request, "food_public.errors.throttled", 429);
  const run = async () => {
    if (catering && body.delivery_type !== undefined && body.delivery_type !== "catering")
      return {
        status: 400,
        body: nestedErrors({ delivery_type: ["food_public.errors.catering_checkout"] }, undefined, lang),
      };
    const parsed = CheckoutSchema.safeParse(catering ? { ...body, delivery_type: "catering" } : body);
    if (!parsed.success)
      return { status: 400, body: nestedErrors(issuesAsErrors(parsed.error.issues), undefined, lang) };
    const rules = addressRules(parsed.data.address);
    if (Object.keys(rules).length) return { status: 400, body: nestedErrors(rules, undefined, lang) };
    const placed = await placeOrder(db, {
      request: parsed.data,
      lang,
      baseUrl: linkBaseUrl(),
      addresses: platformAddresses(request),
      clientAddress: context.get(clientAddressContext),
    });
    if (!placed.ok) return { status: 400, body: nestedErrors(placed.errors, placed.params, lang) };
    const { id, number, order_no, total, checkout_url } = placed.order;
    return { status: 201, body: { id, number, order_no, total, checkout_url } };
  };
  const branchId = idParam(body.branch);
  const branch = branchId === undefined ? undefined : await findBranch(db, branchId);
  if (!branch) {
    const outcome = await run();
    return apiJson(outcome.body, outcome.status);
  }
  return respondOnce(
    request,
    {
      db,
      merchantId: branch.merchant_id,
      caller: PUBLIC_CALLER,
      scope: catering ? "food_catering_checkout" : "food_checkout",
      body,
    },
    run,
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
