import type { Route } from "./+types/card-api-payments";
import { cardApiResponse } from "./components/card-api-answer.server";
import { authenticateCardMerchant, createCardPayment, listCardPayments } from "~/domain/sandbox/card-payments.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

/** POST: the merchant's server opens a payment (Bearer API key, JSON) and gets the hosted page's address. */
export async function action({ request, context }: Route.ActionArgs) {
  requireSandbox();
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405 });
  const db = getDbFrom(context);
  const merchant = await authenticateCardMerchant(db, request.headers.get("Authorization"));
  if (!merchant) return Response.json({ error: "Invalid API key" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const input = await request.json().catch(() => undefined);
  const answer = await createCardPayment(db, merchant, input, new URL(request.url).origin);
  return cardApiResponse(answer);
}

/** GET: the payments created in a period (`created_from`, `created_to`, `limit`, `starting_after`): the settlement report. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireSandbox();
  const db = getDbFrom(context);
  const merchant = await authenticateCardMerchant(db, request.headers.get("Authorization"));
  if (!merchant) return Response.json({ error: "Invalid API key" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  return cardApiResponse(await listCardPayments(db, merchant, new URL(request.url).searchParams));
}
