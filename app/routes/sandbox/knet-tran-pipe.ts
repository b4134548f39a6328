import type { Route } from "./+types/knet-tran-pipe";
import { KNET_XML_MAX_CHARS } from "~/domain/payments/gateways/knet/knet-protocol";
import { answerKnetTranPipe } from "~/domain/sandbox/knet-payments.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

function xml(body: string, status = 200) {
  return new Response(body, {
    status,
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** KNET's tranPipe.htm?param=tranInit: raw XML inquiry (action 8) and refund (action 2), answered in XML. */
export async function action({ request, context }: Route.ActionArgs) {
  requireSandbox();
  if (new URL(request.url).searchParams.get("param") !== "tranInit")
    return xml("<error_text>param must be tranInit</error_text>", 400);
  if (Number(request.headers.get("Content-Length") ?? "0") > KNET_XML_MAX_CHARS)
    return xml("<error_text>Too large</error_text>", 413);
  const body = await request.text().catch(() => "");
  if (body.length > KNET_XML_MAX_CHARS) return xml("<error_text>Too large</error_text>", 413);
  return xml(await answerKnetTranPipe(getDbFrom(context), body));
}
