import { redirectDocument } from "react-router";
import type { Route } from "./+types/knet-error";
import { handleKnetError, knetReceiptUrl } from "~/domain/payments/attempts.server";
import { notFound } from "~/web/guards.server";
import { platformAddresses } from "~/web/addresses.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * errorURL: KNET sends the customer's browser here when it could not process the payment (or voided
 * it). What the browser carries is ignored; the attempt is asked about server-side, and the result
 * page shows what is recorded.
 */
async function handle(request: Request, context: Route.LoaderArgs["context"], attemptId: string) {
  const addresses = platformAddresses(request);
  const attempt = await handleKnetError(getDbFrom(context), attemptId, addresses);
  if (!attempt) notFound();
  return redirectDocument(knetReceiptUrl(addresses, attempt), 303);
}

export function loader({ request, context, params }: Route.LoaderArgs) {
  return handle(request, context, params.attemptId);
}

export function action({ request, context, params }: Route.ActionArgs) {
  return handle(request, context, params.attemptId);
}
