import type { Route } from "./+types/webhook";
import {
  checkWebhookInput,
  deleteWebhook,
  findWebhook,
  sendTestEvent,
  updateWebhook,
} from "~/domain/integrations/webhooks.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { recordId } from "~/web/record-id";
import { managerOf } from "~/domain/identity/users.server";

/** GET one webhook endpoint. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  const found = id === null ? undefined : await findWebhook(getDbFrom(context), user.merchantId, id);
  return found ? apiJson(found) : apiDetail(request, "api.not_found", 404);
}

/**
 * PATCH `{"url", "events", "enabled"}` (any of them) changes the endpoint; DELETE removes it (its
 * log stays); POST on `.../test` sends it a `webhook.test` event and answers 202 with its id.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) return apiDetail(request, "api.not_found", 404);
  const db = getDbFrom(context);
  const manager = managerOf(user);
  const ip = context.get(clientAddressContext);
  const testing = new URL(request.url).pathname.replace(/\/$/, "").endsWith("/test");
  if (testing) {
    if (request.method !== "POST") return methodNotAllowed(request);
    const sent = await sendTestEvent(db, { manager, id, ip });
    if (sent.ok) return apiJson({ event_id: sent.eventId }, 202);
    return sent.code === "admin.webhooks.errors.disabled"
      ? apiDetail(request, sent.code, 409)
      : apiDetail(request, "api.not_found", 404);
  }
  if (request.method === "DELETE") {
    const deleted = await deleteWebhook(db, { manager, id, ip });
    return deleted.ok
      ? new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } })
      : apiDetail(request, "api.not_found", 404);
  }
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const body = await readBody(request);
  const errors: Record<string, string[]> = {};
  for (const field of Object.keys(body))
    if (!["url", "events", "enabled"].includes(field)) errors[field] = ["api.read_only_field"];
  if ("enabled" in body && typeof body.enabled !== "boolean") errors.enabled = ["api.invalid_boolean"];
  const current = await findWebhook(db, user.merchantId, id);
  if (!current) return apiDetail(request, "api.not_found", 404);
  const checked = await checkWebhookInput({
    url: "url" in body ? body.url : current.url,
    events: "events" in body ? body.events : current.events,
  });
  if (!checked.ok) Object.assign(errors, checked.errors);
  if (Object.keys(errors).length || !checked.ok) return apiErrors(request, errors);
  const changes = {
    url: "url" in body ? checked.url : undefined,
    events: "events" in body ? checked.events : undefined,
    enabled: body.enabled as boolean | undefined,
  };
  const updated = await updateWebhook(db, { manager, id, changes, ip });
  return updated.ok ? apiJson(updated.webhook) : apiDetail(request, "api.not_found", 404);
}
