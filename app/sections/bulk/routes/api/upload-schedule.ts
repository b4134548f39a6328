import type { Route } from "./+types/upload-schedule";
import { isSchedule } from "../../domain/bulk-columns";
import { changeSchedule } from "../../domain/bulk-runs.server";
import { idOf, requireBulkApi } from "../../presentation/bulk-access.server";
import { apiDetail, apiErrors, apiJson, methodNotAllowed, readBody } from "~/web/api.server";

/** POST uploads/{id}/schedule {schedule: none|weekly|monthly}: the bulk recurs from now on, or stops; answers {schedule, next_run_at}. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, actor } = await requireBulkApi(request, context);
  const bulkId = idOf(params.bulkId);
  if (!bulkId) return apiDetail(request, "api.not_found", 404);
  const body = await readBody(request);
  if (!isSchedule(body.schedule)) return apiErrors(request, { schedule: ["bulk.errors.schedule"] });
  const outcome = await changeSchedule(db, { merchantId: user.merchantId, bulkId, schedule: body.schedule, actor });
  if (!outcome.ok) return apiDetail(request, outcome.code, outcome.code === "api.not_found" ? 404 : 400);
  const bulk = await db
    .selectFrom("bulk_uploads")
    .select(["schedule", "next_run_at"])
    .where("id", "=", bulkId)
    .executeTakeFirstOrThrow();
  return apiJson({ schedule: bulk.schedule, next_run_at: bulk.next_run_at });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
