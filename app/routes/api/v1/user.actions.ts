import type { Route } from "./+types/user.actions";
import { auditActor, auditTitle, describeAuditEntry } from "~/presentation/audit.server";
import { listRecentActions } from "~/domain/statistics/statistics.server";
import { apiJson, apiLanguage, methodNotAllowed, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * GET user/actions (limit, 1–50, default 10): recent actions from the audit log, newest first —
 * the merchant's for a user who sees its statistics, otherwise the user's own. `display_name` is
 * the action in the Accept-Language; `description` the recorded detail.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  const text = new URL(request.url).searchParams.get("limit");
  const limit = text && /^\d{1,2}$/.test(text) ? Math.min(50, Math.max(1, Number(text))) : 10;
  const lang = apiLanguage(request);
  const entries = await listRecentActions(getDbFrom(context), user.merchantId, user, limit);
  return apiJson({
    results: entries.map((entry) => ({
      id: entry.id,
      actor: auditActor(entry, lang),
      action: entry.action,
      display_name: auditTitle(entry, lang),
      description: describeAuditEntry(entry, lang),
      timestamp: entry.created_at,
    })),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
