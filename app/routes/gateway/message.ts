import { redirectDocument } from "react-router";
import type { Route } from "./+types/message";
import { findAttempt, handleGatewayMessage, resultPageUrl } from "~/domain/payments/attempts.server";
import type { GatewayLeg, LegHandled } from "~/domain/payments/gateways/gateway";
import { gatewayLeg } from "~/domain/payments/gateways/registry";
import { platformAddresses } from "~/web/addresses.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/** A gateway's messages are short forms and JSON documents; anything much longer is not a gateway's. */
const MAX_BODY_BYTES = 64 * 1024;

async function readBody(request: Request): Promise<string | null> {
  if (request.method === "GET") return "";
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_BODY_BYTES) return null;
  const text = await request.text().catch(() => null);
  return text === null || text.length > MAX_BODY_BYTES ? null : text;
}

/**
 * `/gateway/<kind>/<leg>/<attempt id>`: every address a gateway sends its messages or the customer's
 * browser to. The attempt's gateway reads the message (its adapter's leg); the payment core decides;
 * the leg answers a gateway's server as that gateway expects, and a browser is sent to the result
 * page, which says only what was recorded. A browser that lands on a server-to-server address is
 * sent to the result page as well.
 */
async function handle(request: Request, context: Route.LoaderArgs["context"], params: Route.LoaderArgs["params"]) {
  const leg = gatewayLeg(params.kind, params.leg);
  if (!leg) notFound();
  const db = getDbFrom(context);
  const addresses = platformAddresses(request);
  const method = request.method === "GET" || request.method === "HEAD" ? "GET" : "POST";
  if (!leg.methods.includes(method)) {
    if (method === "POST")
      return new Response("Method Not Allowed", { status: 405, headers: { Allow: leg.methods.join(", ") } });
    const attempt = await findAttempt(db, params.attemptId);
    if (!attempt || attempt.gateway_kind !== params.kind) notFound();
    return redirectDocument(resultPageUrl(addresses, attempt), 303);
  }
  const body = await readBody(request);
  if (body === null && leg.from === "gateway")
    return gatewayAnswer(leg, { accepted: false, unknownPayment: false, reason: "Unreadable message" }, 413);
  const url = new URL(request.url);
  const { attempt, handled } = await handleGatewayMessage(
    db,
    {
      kind: params.kind,
      leg: params.leg,
      attemptId: params.attemptId,
      message: { method, headers: request.headers, query: url.searchParams, body: body ?? "" },
    },
    addresses,
  );
  if (leg.from === "browser") {
    if (!attempt) notFound();
    // A document load: the result page is plain HTML, never rendered by a client router of another page.
    return redirectDocument(resultPageUrl(addresses, attempt), 303);
  }
  return gatewayAnswer(leg, handled, handled.accepted ? 200 : handled.unknownPayment ? 404 : 400);
}

/** The answer a gateway's server expects, with the status of what was decided (KNET reads only the body; others retry on anything but 200). */
function gatewayAnswer(leg: GatewayLeg, handled: LegHandled, status: number) {
  const answer = leg.answer?.(handled);
  if (!answer) return new Response(null, { status });
  const type = answer.format === "json" ? "application/json" : "text/plain; charset=utf-8";
  return new Response(answer.body, { status, headers: { "Content-Type": type, "Cache-Control": "no-store" } });
}

export function loader({ request, context, params }: Route.LoaderArgs) {
  return handle(request, context, params);
}

export function action({ request, context, params }: Route.ActionArgs) {
  return handle(request, context, params);
}
