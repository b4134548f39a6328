import type { Route } from "./+types/audit-log";
import { listAuditPage, readAuditQuery } from "~/domain/audit/audit-viewer.server";
import { auditActor, describeAuditEntry } from "~/presentation/audit.server";
import {
  apiErrors,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * GET the merchant's audit log (administration, manage_merchant), newest first, 50 a page: filters
 * `user` (a user id), `action` (a code), `created_after` and `created_before` (Kuwait days,
 * YYYY-MM-DD, both included), `page`. `next` and `previous` are page numbers, as in the
 * transactions API; a page past the end answers the last page. `text` is the entry in the
 * Accept-Language, `created` a UTC instant.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const db = getDbFrom(context);
  const query = await readAuditQuery(db, user.merchantId, new URL(request.url).searchParams);
  const refused = Object.entries(query.errors);
  if (refused.length) return apiErrors(request, Object.fromEntries(refused.map(([field, key]) => [field, [key]])));
  const lang = apiLanguage(request);
  const page = await listAuditPage(db, user.merchantId, query.filters, query.page);
  return apiJson({
    count: page.count,
    next: page.page < page.pageCount ? page.page + 1 : null,
    previous: page.page > 1 ? page.page - 1 : null,
    results: page.rows.map((entry) => ({
      id: entry.id,
      created: entry.created_at,
      actor: auditActor(entry, lang),
      action: entry.action,
      text: describeAuditEntry(entry, lang),
      ip: entry.ip,
    })),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
