import type { Route } from "./+types/setup-collection";
import { issuesByField } from "~/sections/food-ordering/domain/setup-fields";
import { setupErrorMessages } from "~/sections/food-ordering/presentation/setup-errors.server";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext } from "~/web/request-context.server";
import { requireSetupApi } from "./setup-access.server";

/**
 * `dashboard/categories`, `menu-items` (`?category=`), `branches`, `delivery-areas` (`?branch=`) and
 * `vouchers`: GET lists the merchant's; POST creates one and answers 201 with it. Errors are
 * DRF-style by field, a row's by its place in the list sent (`sizes.0.price`, `hours.2.closes`).
 * Idempotency-Key honoured.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { resource, ctx } = await requireSetupApi(request, context, "view_order");
  const results = await resource.list(ctx, new URL(request.url).searchParams);
  return apiJson({ count: results.length, results });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, name, resource, ctx } = await requireSetupApi(request, context, "change_order");
  const body = await readBody(request);
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: `food_setup.${name}.create`, body },
    async () => {
      const parsed = resource.schema.safeParse(body);
      if (!parsed.success)
        return { status: 400, body: setupErrorMessages(issuesByField(parsed.error.issues), ctx.lang) };
      const saved = await resource.save(db, {
        merchantId: user.merchantId,
        actor: { id: user.id, username: user.username },
        input: parsed.data,
        ip: context.get(clientAddressContext),
      });
      if (!saved.ok) return { status: 400, body: setupErrorMessages(saved.errors, ctx.lang) };
      return { status: 201, body: await resource.get(ctx, saved.value.id) };
    },
  );
}
