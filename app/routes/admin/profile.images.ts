import { redirect } from "react-router";
import type { Route } from "./+types/profile.images";
import { storeBrandImage, type BrandImage } from "~/domain/merchants/brand-images.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** The profile page's upload form (multipart): `image` logo or favicon, and its `file`; back to the profile with what happened. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const form = await readFormData(request);
  const image = form.get("image") === "favicon" ? "favicon" : ("logo" satisfies BrandImage);
  const file = form.get("file");
  const back = (kind: "success" | "error", message: string) =>
    redirect(`/${params.lang}/admin/profile`, { headers: { "Set-Cookie": flashCookie({ kind, message }) } });
  if (!(file instanceof File)) return back("error", "admin.images.errors.empty");
  const stored = await storeBrandImage(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    image,
    file,
    ip: context.get(clientAddressContext),
  });
  return stored.ok ? back("success", `admin.images.saved_${image}`) : back("error", stored.error);
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${params.lang}/admin/profile`);
}
