import type { Route } from "./+types/dashboard-item";
import { issuesByField } from "~/sections/catalogue/domain/fields";
import { fieldErrorMessages } from "~/sections/catalogue/presentation/errors.server";
import { apiDetail, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext } from "~/web/request-context.server";
import { requireResourceApi } from "./access.server";

/** GET one of the merchant's: a product by its slug, a store or a discount by its id (another merchant's answers 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { resource, ctx } = await requireResourceApi(request, context, "view_product");
  const id = await resource.find(ctx, params.key);
  if (id === undefined) throw apiDetail(request, "api.not_found", 404);
  return apiJson(await resource.get(ctx, id));
}

/**
 * PATCH changes only the fields sent (a store's `products`, when sent, is the whole list). DELETE
 * answers 204; a product, store or discount that orders name is only deactivated and answers 200
 * with `{"deactivated": true}`.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "PUT" && request.method !== "DELETE")
    return methodNotAllowed(request);
  const { user, db, resource, ctx, actor } = await requireResourceApi(request, context, "change_product");
  const id = await resource.find(ctx, params.key);
  if (id === undefined) throw apiDetail(request, "api.not_found", 404);
  const ip = context.get(clientAddressContext);
  if (request.method === "DELETE") {
    const removed = await resource.remove(db, { merchantId: user.merchantId, actor, id, ip });
    if (!removed.ok) throw apiDetail(request, "api.not_found", 404);
    return removed.deactivated ? apiJson({ deactivated: true }) : new Response(null, { status: 204 });
  }
  const parsed = resource.schema.safeParse(await readBody(request));
  if (!parsed.success) return apiJson(fieldErrorMessages(issuesByField(parsed.error.issues), ctx.lang), 400);
  const saved = await resource.save(db, { merchantId: user.merchantId, actor, input: parsed.data, id, ip });
  if (!saved.ok) {
    if (saved.notFound) throw apiDetail(request, "api.not_found", 404);
    return apiJson(fieldErrorMessages(saved.errors, ctx.lang), 400);
  }
  return apiJson(await resource.get(ctx, id));
}
