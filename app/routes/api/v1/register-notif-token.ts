import type { Route } from "./+types/register-notif-token";
import {
  readPushRegistration,
  removePushSubscription,
  savePushSubscription,
  vapidKeys,
} from "~/domain/messaging/web-push.server";
import { apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * POST register-notif-token/ (spec §7): registration_id, the browser's push subscription
 * (PushSubscription.toJSON(), as JSON text or an object), and type "web". The notices go to that
 * browser from now on, in the language of the request. DELETE with the same registration_id
 * stops them. GET answers the installation's public VAPID key, to subscribe with.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed(request);
  const { user, sessionId } = await requireApiUser(request, context);
  const body = await readBody(request);
  const type = body.type ?? "web";
  if (type !== "web") return apiErrors(request, { type: ["push.errors.type"] });
  const read = await readPushRegistration(body.registration_id);
  if (!read.ok) return apiErrors(request, { registration_id: [read.error] });
  const db = getDbFrom(context);
  if (request.method === "DELETE") {
    await removePushSubscription(db, user, read.registration.endpoint);
    return new Response(null, { status: 204 });
  }
  await savePushSubscription(db, user, read.registration, apiLanguage(request), sessionId);
  return apiJson({ registration_id: read.registration.endpoint, type: "web", active: true }, 201);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiUser(request, context);
  return apiJson({ type: "web", vapid_public_key: (await vapidKeys(getDbFrom(context))).publicKey });
}
