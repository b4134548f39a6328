import type { Route } from "./+types/checkout-field";
import { checkFieldSettings } from "~/domain/payments/checkout-fields";
import { findCheckoutField, updateCheckoutField } from "~/domain/payments/checkout-fields.server";
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
import { recordId } from "~/web/record-id";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** The merchant's field of a section that offers checkout fields; 404 for anything else (another merchant's field too). */
async function fieldFor(request: Request, context: Route.LoaderArgs["context"], params: Route.LoaderArgs["params"]) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const section = findAdminSection(params.key);
  const id = recordId(params.id);
  if (!section || !offersCheckoutFields(section.key) || id === null) throw apiDetail(request, "api.not_found", 404);
  const field = await findCheckoutField(getDbFrom(context), user.merchantId, section.key, id);
  if (!field) throw apiDetail(request, "api.not_found", 404);
  return { user, section: { key: section.key, name: section.name }, field };
}

/** GET one checkout field. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { field } = await fieldFor(request, context, params);
  return apiJson(field);
}

/**
 * PATCH changes only what it is sent: the labels and placeholders, `validator`, `required`,
 * `max_length`, `is_active` (false: no longer asked; values already given stay readable) and
 * `position` (1 is first). The name never changes: it keys the values stored on transactions.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const { user, section, field } = await fieldFor(request, context, params);
  const checked = checkFieldSettings(await readBody(request), "json", field);
  if (!checked.ok) return apiErrors(request, checked.errors);
  const updated = await updateCheckoutField(getDbFrom(context), {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    section,
    id: field.id,
    changes: checked.changes,
    ip: context.get(clientAddressContext),
  });
  return updated.ok ? apiJson(updated.field) : apiDetail(request, "api.not_found", 404);
}
