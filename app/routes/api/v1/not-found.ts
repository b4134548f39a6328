import type { Route } from "./+types/not-found";
import { apiDetail } from "~/web/api.server";

export function loader({ request }: Route.LoaderArgs) {
  return apiDetail(request, "api.not_found", 404);
}

export function action({ request }: Route.ActionArgs) {
  return apiDetail(request, "api.not_found", 404);
}
