import type { Route } from "./+types/card-api-payment";
import { cardApiResponse } from "./components/card-api-answer.server";
import { authenticateCardMerchant, getCardPayment } from "~/domain/sandbox/card-payments.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

/** GET: the inquiry, the payment's current state as the acquirer knows it. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireSandbox();
  const db = getDbFrom(context);
  const merchant = await authenticateCardMerchant(db, request.headers.get("Authorization"));
  if (!merchant) return Response.json({ error: "Invalid API key" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const answer = await getCardPayment(db, merchant, params.id);
  return cardApiResponse(answer);
}
