import type { Route } from "./+types/transaction-bulk-action";
import { methodNotAllowed } from "~/web/api.server";
import { respondWithBulkAction } from "~/sections/transaction-api.server";

/**
 * POST plugins/{plugin}/transaction/actions/bulk/{action}/ with {ids}: email, sms, cancel, delete
 * or restore on each row; 200 {message, results} when all succeed, 207 when some do ('Applied
 * partially'), 400 when none, 403 without the right to this action.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  return respondWithBulkAction(request, context, params.plugin, params.action);
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
