import type { Route } from "./+types/card-api-operation";
import { cardApiResponse } from "./components/card-api-answer.server";
import { authenticateCardMerchant, operateOnCardPayment, type CardOperation } from "~/domain/sandbox/card-payments.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

const OPERATIONS: CardOperation[] = ["capture", "refund", "void"];

/** POST capture, refund or void (JSON {amount} in minor units where it applies; `Idempotency-Key` makes it happen once). */
export async function action({ request, params, context }: Route.ActionArgs) {
  requireSandbox();
  const operation = OPERATIONS.find((candidate) => candidate === params.operation);
  if (request.method !== "POST" || !operation) return Response.json({ error: "Not found" }, { status: 404 });
  const db = getDbFrom(context);
  const merchant = await authenticateCardMerchant(db, request.headers.get("Authorization"));
  if (!merchant) return Response.json({ error: "Invalid API key" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const text = await request.text();
  let input: unknown;
  try {
    input = text ? JSON.parse(text) : {};
  } catch {
    return Response.json({ error: "The body is not JSON" }, { status: 400 });
  }
  const answer = await operateOnCardPayment(db, merchant, params.id, operation, input, request.headers.get("Idempotency-Key"));
  return cardApiResponse(answer);
}
