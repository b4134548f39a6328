import { redirect } from "react-router";
import type { Route } from "./+types/unit.logo";
import { setUnitLogo } from "~/domain/merchants/units-admin.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { recordId } from "~/web/record-id";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** The unit page's logo form (multipart, its `file`); back to the unit's page with what happened. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) notFound();
  const form = await readFormData(request);
  const file = form.get("file");
  const back = (kind: "success" | "error", message: string) =>
    redirect(`/${params.lang}/admin/units/${id}`, { headers: { "Set-Cookie": flashCookie({ kind, message }) } });
  if (!(file instanceof File)) return back("error", "admin.images.errors.empty");
  const stored = await setUnitLogo(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    id,
    file,
    ip: context.get(clientAddressContext),
  });
  if (!stored.ok && stored.code === "admin.units.errors.not_found") notFound();
  return stored.ok ? back("success", "admin.units.logo_saved") : back("error", stored.code);
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${params.lang}/admin/units/${encodeURIComponent(params.id)}`);
}
