import type { Route } from "./+types/generated-reports.download";
import { openReportDownload } from "~/domain/reporting/exports.server";
import { fileResponse } from "~/web/file-response.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** A finished report's file, for the merchant's users who may export; anything else is 404. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "view_export_settings");
  const id = /^\d{1,12}$/.test(params.reportId) ? Number(params.reportId) : null;
  if (id === null) notFound();
  const file = await openReportDownload(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    user: auth.user,
    id,
    ip: context.get(clientAddressContext),
  });
  if (!file.ok) notFound();
  return fileResponse(file);
}
