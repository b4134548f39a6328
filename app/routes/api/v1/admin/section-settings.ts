import type { Route } from "./+types/section-settings";
import {
  checkSectionSettings,
  loadSectionSettings,
  updateSectionSettings,
} from "~/domain/merchants/sections-admin.server";
import { findConfigurableSection } from "~/sections/admin-sections.server";
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

async function sectionFor(request: Request, context: Route.LoaderArgs["context"], key: string | undefined) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const section = findConfigurableSection(key);
  if (!section) throw apiDetail(request, "api.not_found", 404);
  return { user, section };
}

/** GET a section's settings: every field it declares, with the merchant's value or its default. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, section } = await sectionFor(request, context, params.key);
  return apiJson(await loadSectionSettings(getDbFrom(context), user.merchantId, section));
}

/** PATCH changes only the fields it is sent; 400 names each refused field in the caller's language, and changes nothing. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const { user, section } = await sectionFor(request, context, params.key);
  const checked = checkSectionSettings(section.settings, await readBody(request), "json");
  if (!checked.ok) return apiErrors(request, checked.errors);
  const saved = await updateSectionSettings(getDbFrom(context), {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    section,
    changes: checked.changes,
    ip: context.get(clientAddressContext),
  });
  return apiJson(saved.settings);
}
