import type { Route } from "./+types/operation-processes";
import {
  listOperationRequests,
  OPERATION_KINDS,
  operationRequestScope,
} from "~/domain/approvals/operation-requests.server";
import { operationRequestFilterChoices, serializeOperationRequest } from "../../presentation.server";
import { parseRequestQuery, REQUEST_PAGE_SIZES } from "~/domain/approvals/request-filters";
import { apiDetail, apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { OPERATIONS_BASE, requireTicketApi } from "./access.server";

/**
 * GET: the Operations Requests the user may see (a checker all, a maker their own), filtered by
 * state, type, created_after/created_before (Kuwait days), gateway_code, currency_code, with
 * page and per_page; answers {count, results}. OPTIONS: the filters' choices.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireTicketApi(request, context, "operations_approval");
  if (!operationRequestScope(user)) return apiDetail(request, "api.permission_denied", 403);
  if (request.method === "OPTIONS") {
    return apiJson({
      name: translator(lang)("features.ticket.operations_approval"),
      filters_data: await operationRequestFilterChoices(db, user.merchantId, lang),
      page_sizes: REQUEST_PAGE_SIZES,
    });
  }
  const query = parseRequestQuery(new URL(request.url).searchParams, OPERATION_KINDS);
  if (Object.keys(query.errors).length)
    return apiErrors(request, Object.fromEntries(Object.entries(query.errors).map(([field, key]) => [field, [key]])));
  const list = await listOperationRequests(db, {
    merchantId: user.merchantId,
    viewer: user,
    filters: query.filters,
    page: query.page,
    perPage: query.perPage,
  });
  return apiJson({
    count: list.count,
    results: list.rows.map((row) => serializeOperationRequest(row, user, lang, OPERATIONS_BASE)),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
