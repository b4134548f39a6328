import type { CardApiAnswer } from "~/domain/sandbox/card-payments.server";

const STATUSES = { invalid: 400, not_found: 404, refused: 400 } as const;

/** The acquirer's API answer as HTTP: 201 for a payment made, 200 otherwise; a refusal with its status and words. */
export function cardApiResponse(answer: CardApiAnswer) {
  const headers = { "Cache-Control": "no-store" };
  if (answer.ok) return Response.json(answer.body, { status: answer.created ? 201 : 200, headers });
  return Response.json({ error: answer.error }, { status: STATUSES[answer.reason], headers });
}
