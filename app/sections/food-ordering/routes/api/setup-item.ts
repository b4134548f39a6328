import type { Route } from "./+types/setup-item";
import { idOf, issuesByField } from "~/sections/food-ordering/domain/setup-fields";
import { setupErrorMessages } from "~/sections/food-ordering/presentation/setup-errors.server";
import { apiDetail, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext } from "~/web/request-context.server";
import { requireSetupApi } from "./setup-access.server";

/** GET one of the merchant's (another merchant's answers 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { resource, ctx } = await requireSetupApi(request, context, "view_order");
  const id = idOf(params.id);
  const found = id === null ? undefined : await resource.get(ctx, id);
  if (!found) throw apiDetail(request, "api.not_found", 404);
  return apiJson(found);
}

/**
 * PATCH changes only the fields sent (a list sent — sizes, add-ons, option groups, hours — is the
 * whole list). DELETE answers 204; a category, dish, branch, area or voucher that orders name is
 * only deactivated and answers 200 with `{"deactivated": true}`.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "PUT" && request.method !== "DELETE")
    return methodNotAllowed(request);
  const { user, db, resource, ctx } = await requireSetupApi(request, context, "change_order");
  const id = idOf(params.id);
  if (id === null) throw apiDetail(request, "api.not_found", 404);
  const actor = { id: user.id, username: user.username };
  const ip = context.get(clientAddressContext);
  if (request.method === "DELETE") {
    const removed = await resource.remove(db, { merchantId: user.merchantId, actor, id, ip });
    if (!removed.ok) throw apiDetail(request, "api.not_found", 404);
    return removed.deactivated ? apiJson({ deactivated: true }) : new Response(null, { status: 204 });
  }
  const parsed = resource.schema.safeParse(await readBody(request));
  if (!parsed.success) return apiJson(setupErrorMessages(issuesByField(parsed.error.issues), ctx.lang), 400);
  const saved = await resource.save(db, { merchantId: user.merchantId, actor, input: parsed.data, id, ip });
  if (!saved.ok) {
    if (saved.notFound) throw apiDetail(request, "api.not_found", 404);
    return apiJson(setupErrorMessages(saved.errors, ctx.lang), 400);
  }
  return apiJson(await resource.get(ctx, id));
}
