import { redirectDocument } from "react-router";
import type { Route } from "./+types/knet-return";
import { handleKnetReturn } from "~/domain/payments/attempts.server";
import { notFound } from "~/web/guards.server";
import { platformAddresses } from "~/web/addresses.server";
import { getDbFrom } from "~/web/request-context.server";

/** KNET's responseURL and errorURL: the customer's browser, carrying the encrypted result. */
async function handle(request: Request, context: Route.LoaderArgs["context"], attemptId: string) {
  const url = new URL(request.url);
  const query = new URLSearchParams(url.search);
  if (request.method === "POST") {
    const form = await request.formData().catch(() => null);
    for (const [key, value] of form ?? []) if (typeof value === "string") query.set(key, value);
  }
  const attempt = await handleKnetReturn(getDbFrom(context), attemptId, query, platformAddresses(request));
  if (!attempt) notFound();
  // A document load: the result page is plain HTML, never rendered by a client router of another page.
  return redirectDocument(`/${attempt.lang}/pay/attempt-detail/${attempt.id}`, 303);
}

export function loader({ request, context, params }: Route.LoaderArgs) {
  return handle(request, context, params.attemptId);
}

export function action({ request, context, params }: Route.ActionArgs) {
  return handle(request, context, params.attemptId);
}
