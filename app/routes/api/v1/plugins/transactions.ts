import type { Route } from "./+types/transactions";
import { methodNotAllowed } from "~/web/api.server";
import {
  isDeletedRoute,
  respondWithBulkAction,
  respondWithList,
  respondWithListConfig,
} from "~/sections/transaction-api.server";

/**
 * GET plugins/{plugin}/transaction (or deleted_transaction): the section's rows with every filter,
 * page and per_page. OPTIONS: the list's configuration. payment_request has its own module for
 * this path (it also creates), which answers the same through the same functions.
 */
export async function loader({ request, context, params, pattern }: Route.LoaderArgs) {
  if (request.method === "OPTIONS")
    return respondWithListConfig(request, context, params.plugin, isDeletedRoute(pattern));
  return respondWithList(request, context, params.plugin, isDeletedRoute(pattern));
}

/** DELETE {ids}: deletes the rows that may be deleted (200, or 207 with per-id results). */
export async function action({ request, context, params, pattern }: Route.ActionArgs) {
  if (request.method !== "DELETE" || isDeletedRoute(pattern)) return methodNotAllowed(request);
  return respondWithBulkAction(request, context, params.plugin, "delete");
}
