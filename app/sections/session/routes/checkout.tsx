import "~/styles/customer.css";
import "~/styles/pay.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/checkout";
import { PayChoices } from "~/components/pay/pay-choices";
import { PayStatus } from "~/components/pay/pay-status";
import { PaySummary } from "~/components/pay/pay-summary";
import { PublicHeader } from "~/components/customer/public-header";
import { Terms } from "~/components/pay/terms";
import { Alert } from "~/components/pay/ui";
import { useText } from "~/components/pay/use-text";
import { startAttempt } from "~/domain/payments/attempts.server";
import { isLanguage } from "~/lib/i18n";
import { formatParams } from "~/presentation/texts.server";
import { payPageView, type PayPageData } from "~/presentation/pay-view.server";
import { CHECKOUT_FIELD_SECTIONS, PAYABLE_SECTIONS } from "~/sections/registry";
import { platformAddresses } from "~/web/addresses.server";
import { getDbFrom } from "~/web/request-context.server";
import { isPersonVisit } from "~/web/visitors.server";
import { findPublicSession, offersSessions } from "../domain/sessions.server";

/** Served as plain HTML with no script at all (docs/decisions/0005): paying is a plain POST. */
export const handle = { hydrate: false };

const PAY_PAGE_SECTIONS = { payable: PAYABLE_SECTIONS, checkoutFields: CHECKOUT_FIELD_SECTIONS };

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page?.page.unit?.title ?? "Checkout" }, { name: "robots", content: "noindex" }];
}

/**
 * The hosted checkout page of a session: the merchant's header, its order number, the amount and
 * the payment methods, as the pay page shows them. A session that cannot be paid (paid, expired,
 * canceled) says so and offers no Pay button. A payment asking more than a method (a delivery
 * address, checkout fields) is paid on the pay page itself.
 */
/** A payment asking more than a method (a delivery address, checkout fields, an amount of the customer's) is paid on the pay page. */
function asksMore(view: PayPageData["view"]) {
  return Boolean(view && (view.delivery || view.checkoutFields.length || view.editable));
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const session = await findPublicSession(db, params.sessionId);
  if (!session || !(await offersSessions(db, session.merchant_id))) throw data(null, { status: 404 });
  const result = await payPageView(
    db,
    PAY_PAGE_SECTIONS,
    lang,
    session.transaction_id,
    new URL(request.url).searchParams,
    {
      opens: isPersonVisit(request),
    },
  );
  if (result.kind === "redirect") return redirect(result.location);
  if (asksMore(result.page.view)) return redirect(`/${lang}/pay/${session.transaction_id}`);
  return data({ page: result.page, orderNo: session.order_no }, { status: result.httpStatus });
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const session = await findPublicSession(db, params.sessionId);
  if (!session || !(await offersSessions(db, session.merchant_id))) throw data(null, { status: 404 });
  // The hosted page offers no field but the method: a payment asking more is paid where those fields are.
  const result = await payPageView(db, PAY_PAGE_SECTIONS, lang, session.transaction_id, new URLSearchParams(), {
    opens: isPersonVisit(request),
  });
  if (result.kind === "page" && asksMore(result.page.view))
    return redirect(`/${lang}/pay/${session.transaction_id}`, 303);
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: "pay.errors.unexpected", values: undefined }, { status: 400 });
  const outcome = await startAttempt(db, {
    plugins: PAYABLE_SECTIONS,
    transactionId: session.transaction_id,
    gatewayCode: String(form.get("pay_with") ?? form.get("gateway_code") ?? ""),
    amountText: "",
    submissionToken: String(form.get("submission_token") ?? ""),
    lang,
    addresses: platformAddresses(request),
  });
  if (!outcome.ok) return data({ error: outcome.error, values: formatParams(outcome.params, lang) }, { status: 400 });
  return redirect(outcome.redirectUrl, 303);
}

export default function Checkout() {
  const t = useText();
  const { page, orderNo } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const { status, lang, unit, view, settledLink } = page;
  return (
    <div className="pay-page">
      {unit ? <PublicHeader unit={unit} lang={lang} path={location.pathname + location.search} /> : null}
      <main className="c-main">
        {orderNo ? (
          <p className="c-dimmed c-small" data-merchant-order>
            {t("checkout_public.order_no")} <span dir="ltr">{orderNo}</span>
          </p>
        ) : null}
        {status !== "payable" || !view ? (
          <>
            {answer?.error ? (
              <Alert color="red" role="alert">
                {t(answer.error, answer.values)}
              </Alert>
            ) : null}
            <PayStatus status={status} settledLink={settledLink ?? null} contact={page.contact ?? null} />
          </>
        ) : (
          <>
            <PaySummary view={view} merchant={unit?.title ?? null} />
            {view.choices.length === 0 ? (
              <Alert color="orange">{t("pay.no_methods")}</Alert>
            ) : (
              <form method="post">
                <input type="hidden" name="submission_token" value={view.submissionToken} />
                <div className="c-stack">
                  {answer?.error ? (
                    <Alert color="red" role="alert">
                      {t(answer.error, answer.values)}
                    </Alert>
                  ) : null}
                  <PayChoices choices={view.choices} selected={view.selected} />
                </div>
              </form>
            )}
            {unit?.terms ? <Terms text={unit.terms} /> : null}
            <p className="c-dimmed c-xs" style={{ textAlign: "center" }}>
              {unit?.disclaimer ?? t("pay.disclaimer")}
            </p>
          </>
        )}
      </main>
    </div>
  );
}
