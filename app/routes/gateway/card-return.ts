import { redirect } from "react-router";
import type { Route } from "./+types/card-return";
import { handleCardReturn } from "~/domain/payments/attempts.server";
import { platformAddresses } from "~/lib/addresses.server";
import { notFound } from "~/lib/guards.server";
import { getDbFrom } from "~/lib/request-context.server";

/** The customer's browser back from the card page; what it claims is ignored, the inquiry decides. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const attempt = await handleCardReturn(getDbFrom(context), params.attemptId, platformAddresses(request));
  if (!attempt) notFound();
  return redirect(`/${attempt.lang}/pay/attempt-detail/${attempt.id}`, 303);
}
