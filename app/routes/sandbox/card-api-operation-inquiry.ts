import type { Route } from "./+types/card-api-operation-inquiry";
import { cardApiResponse } from "./components/card-api-answer.server";
import { authenticateCardMerchant, getCardOperation } from "~/domain/sandbox/card-payments.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

/** GET: what became of the operation sent with this Idempotency-Key (404: it never arrived). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireSandbox();
  const db = getDbFrom(context);
  const merchant = await authenticateCardMerchant(db, request.headers.get("Authorization"));
  if (!merchant) return Response.json({ error: "Invalid API key" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  return cardApiResponse(await getCardOperation(db, merchant, params.id, params.reference));
}
