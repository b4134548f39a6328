import { redirectDocument } from "react-router";
import type { Route } from "./+types/card-return";
import { handleCardReturn } from "~/domain/payments/attempts.server";
import { platformAddresses } from "~/web/addresses.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/** The customer's browser back from the card page; what it claims is ignored, the inquiry decides. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const attempt = await handleCardReturn(getDbFrom(context), params.attemptId, platformAddresses(request));
  if (!attempt) notFound();
  // A document load: the result page is plain HTML, never rendered by a client router of another page.
  return redirectDocument(`/${attempt.lang}/pay/attempt-detail/${attempt.id}`, 303);
}
