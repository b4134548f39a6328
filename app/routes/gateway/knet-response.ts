import { redirectDocument } from "react-router";
import type { Route } from "./+types/knet-response";
import { findAttempt, handleKnetResponse, knetReceiptUrl } from "~/domain/payments/attempts.server";
import { knetRedirectLine } from "~/domain/payments/gateways/knet.server";
import { notFound } from "~/web/guards.server";
import { platformAddresses } from "~/web/addresses.server";
import { getDbFrom } from "~/web/request-context.server";

/** KNET's result is a short form; anything much longer is not KNET's. */
const MAX_BODY_BYTES = 32 * 1024;

function plainText(body: string, status: number) {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

async function readForm(request: Request): Promise<URLSearchParams | null> {
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_BODY_BYTES) return null;
  const text = await request.text().catch(() => null);
  return text === null || text.length > MAX_BODY_BYTES ? null : new URLSearchParams(text);
}

/**
 * responseURL: KNET's server posts the result here and reads the answer. The answer is one line,
 * `REDIRECT=<our result page>`, and nothing else: HTML, an HTTP redirect or an error makes KNET
 * void the payment (manual K-064 §5, §9.2.1). A refusal is plain text too, and KNET voids.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await readForm(request);
  if (!form) return plainText("Unreadable result", 400);
  const answer = await handleKnetResponse(getDbFrom(context), params.attemptId, form, platformAddresses(request));
  if (!answer.ok) return plainText(answer.reason, answer.code === "unknown_payment" ? 404 : 400);
  return plainText(knetRedirectLine(answer.receiptUrl), 200);
}

/** A browser that lands here shows the result page, which says only what was recorded. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const attempt = await findAttempt(getDbFrom(context), params.attemptId);
  if (!attempt || attempt.gateway_kind !== "knet") notFound();
  return redirectDocument(knetReceiptUrl(platformAddresses(request), attempt), 303);
}
