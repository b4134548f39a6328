import type { Route } from "./+types/dashboard-collection";
import { issuesByField } from "~/sections/catalogue/domain/fields";
import { fieldErrorMessages } from "~/sections/catalogue/presentation/errors.server";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext } from "~/web/request-context.server";
import { requireResourceApi } from "./access.server";

/**
 * `dashboard/products` (`?search=`, `?page=`, `?page_size=`), `dashboard/stores` and
 * `dashboard/discounts`: GET lists the merchant's as `{count, results}`; POST creates one and
 * answers 201 with it. Errors are DRF-style by field. Idempotency-Key honoured.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { resource, ctx } = await requireResourceApi(request, context, "view_product");
  return apiJson(await resource.list(ctx, new URL(request.url).searchParams));
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, name, resource, ctx, actor } = await requireResourceApi(request, context, "change_product");
  const body = await readBody(request);
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: `catalogue.${name}.create`, body },
    async () => {
      const parsed = resource.schema.safeParse(body);
      if (!parsed.success)
        return { status: 400, body: fieldErrorMessages(issuesByField(parsed.error.issues), ctx.lang) };
      const saved = await resource.save(db, {
        merchantId: user.merchantId,
        actor,
        input: parsed.data,
        ip: context.get(clientAddressContext),
      });
      if (!saved.ok) return { status: 400, body: fieldErrorMessages(saved.errors, ctx.lang) };
      return { status: 201, body: await resource.get(ctx, saved.value.id) };
    },
  );
}
