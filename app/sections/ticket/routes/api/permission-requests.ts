import type { Route } from "./+types/permission-requests";
import { GRANTABLE_PERMISSIONS, PermissionGrantSchema } from "~/domain/approvals/permission-grant-schema";
import {
  canHandlePermissionRequests,
  findPermissionRequest,
  listGrantCandidates,
  listPermissionRequests,
  requestPermissionGrant,
} from "~/domain/approvals/permission-requests.server";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { permissionRequestFilterChoices, serializePermissionRequest } from "../../presentation.server";
import { parseRequestQuery } from "~/domain/approvals/request-filters";
import { apiDetail, apiErrors, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { answerOnce, PERMISSION_REQUESTS_BASE, requireTicketApi } from "./access.server";
import { callerOf } from "~/web/idempotency.server";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

function boundedInt(value: string | null, fallback: number, max: number) {
  if (!value || !/^\d{1,9}$/.test(value)) return fallback;
  return Math.min(Number(value), max);
}

/**
 * GET: the merchant's permission requests, filtered by status (NEW = pending) or state, type
 * (the permission) and created_after/created_before, with limit (at most 100) and offset;
 * answers {count, results}. OPTIONS: the filters' choices and the create form's fields.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireTicketApi(request, context, "user_permission_changes");
  if (!canHandlePermissionRequests(user)) return apiDetail(request, "api.permission_denied", 403);
  const t = translator(lang);
  if (request.method === "OPTIONS") {
    const candidates = await listGrantCandidates(db, user.merchantId);
    return apiJson({
      name: t("features.ticket.user_permission_changes"),
      filters_data: permissionRequestFilterChoices(lang),
      actions: {
        POST: {
          user: {
            type: "choice",
            required: true,
            label: t("tickets.grant.user"),
            choices: candidates.map((candidate) => ({
              value: candidate.id,
              display_name: candidate.username,
              permissions: candidate.permissions,
            })),
          },
          permission: {
            type: "choice",
            required: true,
            label: t("tickets.grant.permission"),
            choices: GRANTABLE_PERMISSIONS.map((value) => ({
              value,
              display_name: t(`tickets.permission_names.${value}`),
            })),
          },
        },
      },
    });
  }
  const params = new URL(request.url).searchParams;
  const query = parseRequestQuery(params, GRANTABLE_PERMISSIONS);
  if (Object.keys(query.errors).length)
    return apiErrors(request, Object.fromEntries(Object.entries(query.errors).map(([field, key]) => [field, [key]])));
  const list = await listPermissionRequests(db, {
    merchantId: user.merchantId,
    filters: query.filters,
    limit: Math.max(1, boundedInt(params.get("limit"), DEFAULT_LIMIT, MAX_LIMIT)),
    offset: boundedInt(params.get("offset"), 0, 1_000_000_000),
  });
  return apiJson({
    count: list.count,
    results: list.rows.map((row) => serializePermissionRequest(row, user, lang, PERMISSION_REQUESTS_BASE)),
  });
}

/** POST {user, permission}: asks a checker to grant refund_paymenttransaction or void_paymenttransaction; 201 with the request. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireTicketApi(request, context, "user_permission_changes");
  const body = await readBody(request);
  return answerOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: "permission_request.create", body },
    async () => {
      const t = translator(lang);
      const parsed = PermissionGrantSchema.safeParse(body);
      if (!parsed.success) {
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues)
          (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(t(issue.message));
        return { status: 400, body: errors };
      }
      const outcome = await requestPermissionGrant(db, {
        merchantId: user.merchantId,
        actor: user,
        userId: parsed.data.user,
        permission: parsed.data.permission,
        lang,
      });
      if (!outcome.ok) {
        if (statusOf(outcome) === 403) return { status: 403, body: { detail: messageOf(outcome, lang) } };
        return {
          status: statusOf(outcome),
          body: { [outcome.field ?? "non_field_errors"]: [messageOf(outcome, lang)] },
        };
      }
      const row = await findPermissionRequest(db, user.merchantId, outcome.requestId!);
      return {
        status: 201,
        body: {
          message: messageOf(outcome, lang),
          ...serializePermissionRequest(row!, user, lang, PERMISSION_REQUESTS_BASE),
        },
      };
    },
  );
}
