import type { DB } from "~/db/database.server";
import { authenticateMpgsMerchant, MPGS_UNAUTHORIZED, type MpgsAnswer } from "~/domain/sandbox/mpgs-gateway.server";

const STATUSES = { invalid: 400, unauthorized: 401 } as const;

/** The gateway's answer as HTTP: 201 for what a request created, 200 otherwise; its error document with 400 or 401. */
export function mpgsApiResponse(answer: MpgsAnswer) {
  const headers = { "Cache-Control": "no-store" };
  if (answer.ok) return Response.json(answer.body, { status: answer.created ? 201 : 200, headers });
  return Response.json(answer.body, { status: STATUSES[answer.reason], headers });
}

/** The merchant of the path, authenticated by Basic `merchant.<id>:<API password>`; or the gateway's 401. */
export async function mpgsMerchantOf(db: DB, request: Request, merchantId: string) {
  const merchant = await authenticateMpgsMerchant(db, merchantId, request.headers.get("Authorization"));
  return merchant ? { merchant } : { refused: mpgsApiResponse(MPGS_UNAUTHORIZED) };
}

/** A request's JSON body (the gateway also takes it sent as text/plain), or undefined. */
export async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text().catch(() => "");
  if (text.length > 64 * 1024) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
