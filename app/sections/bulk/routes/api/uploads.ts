import type { Route } from "./+types/uploads";
import { listBulks } from "../../domain/bulk-queries.server";
import { requireBulkApi } from "../../presentation/bulk-access.server";
import { serializeBulk } from "../../presentation/bulk-api.server";
import { apiJson, methodNotAllowed } from "~/web/api.server";

/** GET uploads?limit=&offset=: the merchant's bulks, newest first, with their progress; answers {count, results}. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db } = await requireBulkApi(request, context);
  const params = new URL(request.url).searchParams;
  const limit = Math.min(
    100,
    Math.max(1, Number(/^\d{1,3}$/.test(params.get("limit") ?? "") ? params.get("limit") : 20)),
  );
  const offset = /^\d{1,7}$/.test(params.get("offset") ?? "") ? Number(params.get("offset")) : 0;
  const list = await listBulks(db, user.merchantId, { limit, offset });
  return apiJson({ count: list.count, results: list.results.map(serializeBulk) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
