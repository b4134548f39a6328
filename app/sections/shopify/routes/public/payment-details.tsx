import { data, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/payment-details";
import { AttemptResult } from "~/components/pay/attempt-result";
import { isLanguage } from "~/lib/i18n";
import { attemptResultView } from "~/presentation/attempt-result.server";
import { customerReturnUrl, transactionExtensions } from "~/sections/registry.server";
import { platformAddresses } from "~/web/addresses.server";
import { askedNext } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { findSession, returnUrlOf } from "../../domain/sessions.server";

/** Served as plain HTML: no React on the client (decision 0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "نتيجة الدفع" : "Payment result" }, { name: "robots", content: "noindex" }];
}

/**
 * The Shopify flow's attempt result: the platform's result, with the note not to pay again in the
 * shop on success and the way back to it; a failure's Try again leads to the payment options.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const result = await attemptResultView(db, {
    attemptId: params.attemptId,
    lang,
    addresses: platformAddresses(request),
    next: askedNext(request),
    sections: { extensionsOf: transactionExtensions, customerReturnUrl },
    plugins: ["shopify"],
  });
  if (!result.found) return data(result, { status: 404 });
  const session = await findSession(db, result.transactionId);
  const success = result.state === "success" || result.state === "cod";
  const pending = result.state === "pending";
  return {
    ...result,
    tryAgainUrl: `/${lang}/spf/payment-options/${result.transactionId}`,
    note: success ? "shopify_public.do_not_pay_again" : null,
    backLink:
      !session || pending
        ? null
        : success
          ? { href: returnUrlOf(session), label: "shopify_public.return_to_shop" }
          : { href: session.cancel_url, label: "shopify_public.back_to_shop" },
  };
}

export default function PaymentDetails() {
  const location = useLocation();
  return <AttemptResult result={useLoaderData<typeof loader>()} path={location.pathname + location.search} />;
}
