import type { Route } from "./+types/checkout-fields";
import { checkFieldSettings } from "~/domain/payments/checkout-fields";
import { createCheckoutField, listCheckoutFields } from "~/domain/payments/checkout-fields.server";
import { offersCheckoutFields } from "~/sections/registry";
import { findAdminSection } from "~/sections/admin-sections.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** A built section whose declaration offers checkout fields; any other answers 404. */
async function sectionFor(request: Request, context: Route.LoaderArgs["context"], key: string | undefined) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const section = findAdminSection(key);
  if (!section || !offersCheckoutFields(section.key)) throw apiDetail(request, "api.not_found", 404);
  return { user, section: { key: section.key, name: section.name } };
}

/** GET the section's checkout fields in the order customers see them, turned-off ones included. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, section } = await sectionFor(request, context, params.key);
  return apiJson(await listCheckoutFields(getDbFrom(context), user.merchantId, section.key));
}

/**
 * POST `{"name", "label_en", "label_ar", "placeholder_en"?, "placeholder_ar"?, "validator"?,
 * "required"?, "max_length"?, "is_active"?, "position"?}` adds a field (last, unless a position is
 * given) and answers it with 201; 400 names each refused field in the caller's language.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, section } = await sectionFor(request, context, params.key);
  const checked = checkFieldSettings(await readBody(request), "json");
  if (!checked.ok) return apiErrors(request, checked.errors);
  const created = await createCheckoutField(getDbFrom(context), {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    section,
    settings: checked.changes,
    ip: context.get(clientAddressContext),
  });
  if (!created.ok) return apiErrors(request, { [created.field ?? "non_field_errors"]: [created.code] });
  return apiJson(created.field, 201);
}
