import type { Route } from "./+types/card-notify";
import { handleCardNotification } from "~/domain/payments/attempts.server";
import { platformAddresses } from "~/web/addresses.server";
import { getDbFrom } from "~/web/request-context.server";

/** The card gateway's signed server-to-server notification. A refusal makes the gateway retry. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const rawBody = (await request.text()).slice(0, 64 * 1024);
  const result = await handleCardNotification(getDbFrom(context), params.attemptId, request.headers, rawBody, platformAddresses(request));
  if (!result.accepted) return Response.json({ accepted: false, reason: result.reason }, { status: 400 });
  return Response.json({ accepted: true });
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405 });
}
