import type { Route } from "./+types/units";
import { checkUnitBody, NewUnitSchema } from "~/domain/merchants/unit-schema";
import { createUnit, listUnits } from "~/domain/merchants/units-admin.server";
import { apiErrors, apiJson, methodNotAllowed, readBody, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** GET the merchant's units, the default first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listUnits(getDbFrom(context), user.merchantId));
}

/** POST `{"name", "title_en", "title_ar", ...branding}` adds a unit (not the default) and answers 201 with it. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const checked = checkUnitBody(NewUnitSchema, await readBody(request));
  if (!checked.ok) return apiErrors(request, checked.errors);
  const created = await createUnit(getDbFrom(context), {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    unit: checked.value,
    ip: context.get(clientAddressContext),
  });
  if (!created.ok) return apiErrors(request, { [created.field ?? "non_field_errors"]: [created.code] });
  return apiJson(created.unit, 201);
}
