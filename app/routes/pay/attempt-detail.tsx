import { data, redirect, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/attempt-detail";
import { AttemptResult } from "~/components/pay/attempt-result";
import { isLanguage } from "~/lib/i18n";
import { attemptResultView } from "~/presentation/attempt-result.server";
import { customerReturnUrl, transactionExtensions } from "~/sections/registry.server";
import { platformAddresses } from "~/web/addresses.server";
import { askedNext } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/** Served as plain HTML: no React on the client (see docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "نتيجة الدفع" : "Payment result" }, { name: "robots", content: "noindex" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  // A section with a result page of its own (the gateways return every customer here) shows it
  // there: looked up first, so the result (and its inquiry of the gateway) is made once, there.
  const owner = /^[0-9A-Za-z]{22}$/.test(params.attemptId)
    ? await db
        .selectFrom("payment_attempts")
        .innerJoin("transactions", "transactions.id", "payment_attempts.transaction_id")
        .select("transactions.plugin")
        .where("payment_attempts.id", "=", params.attemptId)
        .executeTakeFirst()
    : undefined;
  const own = owner ? transactionExtensions(owner.plugin)?.resultUrl?.(params.attemptId, lang) : undefined;
  if (own) throw redirect(own + new URL(request.url).search);
  const result = await attemptResultView(db, {
    attemptId: params.attemptId,
    lang,
    addresses: platformAddresses(request),
    next: askedNext(request),
    sections: { extensionsOf: transactionExtensions, customerReturnUrl },
  });
  if (!result.found) return data(result, { status: 404 });
  return result;
}

export default function AttemptDetail() {
  const location = useLocation();
  return <AttemptResult result={useLoaderData<typeof loader>()} path={location.pathname + location.search} />;
}
