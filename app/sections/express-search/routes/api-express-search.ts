import type { Route } from "./+types/api-express-search";
import { methodNotAllowed } from "~/web/api.server";
import { respondWithExpressSearch } from "~/sections/transaction-api.server";

/** GET and OPTIONS search/express (dashboard spec §7): one search across every section. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return respondWithExpressSearch(request, context);
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
