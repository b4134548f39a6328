import type { Route } from "./+types/webhooks";
import { checkWebhookInput, createWebhook, listWebhooks } from "~/domain/integrations/webhooks.server";
import { apiErrors, apiJson, methodNotAllowed, readBody, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

/** GET the merchant's webhook endpoints (never their secrets). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listWebhooks(getDbFrom(context), user.merchantId));
}

/** POST `{"url", "events": [...]}` answers 201 with `{"id", "secret", "url", "events"}`: the only time the secret is shown. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const body = await readBody(request);
  const unknown = Object.keys(body).filter((field) => field !== "url" && field !== "events");
  if (unknown.length)
    return apiErrors(request, Object.fromEntries(unknown.map((field) => [field, ["api.read_only_field"]])));
  const checked = await checkWebhookInput({ url: body.url, events: body.events });
  if (!checked.ok) return apiErrors(request, checked.errors);
  const created = await createWebhook(getDbFrom(context), {
    manager: managerOf(user),
    url: checked.url,
    events: checked.events,
    ip: context.get(clientAddressContext),
  });
  if (!created.ok) return apiErrors(request, { non_field_errors: [created.code] });
  return apiJson({ id: created.id, secret: created.secret, url: checked.url, events: checked.events }, 201);
}
