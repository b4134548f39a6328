import "~/styles/customer.css";
import "~/styles/pay.css";
import { useText } from "~/components/pay/use-text";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/pay";
import { useNonce } from "~/components/nonce";
import { AmountForm } from "~/components/pay/amount-form";
import { DeliverySteps } from "~/components/pay/delivery-steps";
import { PAY_ENHANCER } from "~/components/pay/pay-enhancer";
import { PayChoices } from "~/components/pay/pay-choices";
import { WalletPay } from "~/components/pay/wallet-pay";
import { PayStatus } from "~/components/pay/pay-status";
import { PublicHeader } from "~/components/customer/public-header";
import { PaySummary } from "~/components/pay/pay-summary";
import { Terms } from "~/components/pay/terms";
import { Alert, Card, TextField } from "~/components/pay/ui";
import { startAttempt } from "~/domain/payments/attempts.server";
import { checkCheckoutValues } from "~/domain/payments/checkout-fields.server";
import { deliveryAction } from "./delivery-action.server";
import { payPageView, type PayPageData } from "~/presentation/pay-view.server";
import { platformAddresses } from "~/web/addresses.server";
import { formatParams } from "~/presentation/texts.server";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";
import { isPersonVisit } from "~/web/visitors.server";
import { CHECKOUT_FIELD_SECTIONS, PAYABLE_SECTIONS } from "~/sections/registry";

/** Served as plain HTML: no React on the client (see docs/decisions/0005). */
export const handle = { hydrate: false };

/** A checkout field's input is named `extra.<name>`, as the public pay API takes the values under `extra`. */
const EXTRA_PREFIX = "extra.";

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: payPageTitle(loaderData) }, { name: "robots", content: "noindex" }];
}

export function payPageTitle(page: PayPageData | undefined) {
  return page?.unit?.title ?? "Pay";
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const result = await payPageView(
    getDbFrom(context),
    { payable: PAYABLE_SECTIONS, checkoutFields: CHECKOUT_FIELD_SECTIONS },
    lang,
    params.transactionId ?? "",
    new URL(request.url).searchParams,
    { opens: isPersonVisit(request) },
    platformAddresses(request),
  );
  if (result.kind === "redirect") return redirect(result.location);
  return data(result.page, { status: result.httpStatus });
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: "pay.errors.unexpected", field: null }, { status: 400 });
  const intent = form.get("intent");
  if (intent && intent !== "pay") return deliveryAction(getDbFrom(context), params.transactionId, String(intent), form);
  // The checkout fields are checked before any attempt starts (refused, none starts) and kept with the attempt.
  const checkoutValues = Object.fromEntries(
    [...form]
      .filter((entry): entry is [string, string] => entry[0].startsWith(EXTRA_PREFIX) && typeof entry[1] === "string")
      .map(([name, value]) => [name.slice(EXTRA_PREFIX.length), value.slice(0, 1000)]),
  );
  const recorded = await checkCheckoutValues(getDbFrom(context), {
    transactionId: params.transactionId,
    sections: CHECKOUT_FIELD_SECTIONS,
    values: checkoutValues,
    refuseUnknown: false,
  });
  if (!recorded.ok) {
    const checkoutErrors = Object.fromEntries(
      Object.entries(recorded.errors).map(([name, [first]]) => [
        name,
        { key: first?.code ?? "checkout_fields.errors.invalid", values: formatParams(first?.params, lang) },
      ]),
    );
    return data(
      { error: "checkout_fields.errors.summary", field: "checkout", checkoutErrors, checkoutValues },
      { status: 400 },
    );
  }
  const outcome = await startAttempt(getDbFrom(context), {
    plugins: PAYABLE_SECTIONS,
    transactionId: params.transactionId,
    // The Pay button pressed names its method (decision 0017); the chosen radio is the fallback.
    gatewayCode: String(form.get("pay_with") ?? form.get("gateway_code") ?? ""),
    amountText: String(form.get("amount") ?? ""),
    submissionToken: String(form.get("submission_token") ?? ""),
    lang,
    addresses: platformAddresses(request),
    answers: recorded.answers,
  });
  if (!outcome.ok)
    return data(
      {
        error: outcome.error,
        field: outcome.field ?? null,
        values: formatParams(outcome.params, lang),
        checkoutValues,
      },
      { status: 400 },
    );
  return redirect(outcome.redirectUrl, 303);
}

export default function Pay() {
  const location = useLocation();
  return (
    <PayPage
      page={useLoaderData<typeof loader>() as PayPageData}
      actionData={useActionData<typeof action>()}
      path={location.pathname + location.search}
    />
  );
}

/** The page itself, from its loader's data: rendered here and by the pay page's direct handler (pay-page-handler.server). */
export function PayPage({
  page,
  actionData,
  path,
}: {
  page: PayPageData;
  actionData?: ReturnType<typeof useActionData<typeof action>>;
  path: string;
}) {
  const t = useText();
  const { status, lang, unit, view, settledLink } = page;
  const nonce = useNonce();
  return (
    <div className="pay-page">
      {unit ? <PublicHeader unit={unit} lang={lang} path={path} /> : null}
      <main className="c-main">
        {status !== "payable" || !view ? (
          <>
            {actionData?.error ? (
              <Alert color="red" role="alert">
                {t(actionData.error)}
              </Alert>
            ) : null}
            <PayStatus
              status={status}
              settledLink={settledLink ?? null}
              contact={page.contact ?? null}
              returning={"returning" in page ? page.returning : null}
            />
          </>
        ) : (
          <>
            <PaySummary view={view} merchant={unit?.title ?? null} />
            {view.editable ? (
              <Card>
                <AmountForm
                  typedAmount={view.typedAmount}
                  selected={view.selected}
                  field={view.editable}
                  error={
                    view.amountError ??
                    (actionData?.field === "amount"
                      ? { key: actionData.error, values: "values" in actionData ? actionData.values : undefined }
                      : null)
                  }
                />
              </Card>
            ) : null}
            {view.delivery ? (
              <DeliverySteps
                view={{
                  ...view.delivery,
                  errors: actionData && "deliveryErrors" in actionData ? (actionData.deliveryErrors ?? null) : null,
                  values: actionData && "values" in actionData ? (actionData.values ?? null) : null,
                }}
              />
            ) : view.choices.length === 0 ? (
              <Alert color="orange">{t("pay.no_methods")}</Alert>
            ) : (
              <form
                method="post"
                data-pay-form
                data-choices-url={`/api/v1/plugins/payment_request/transaction/pay-choices/${view.id}`}
              >
                <input type="hidden" name="submission_token" value={view.submissionToken} />
                <input type="hidden" name="amount" value={view.typedAmount} />
                <div className="c-stack">
                  {actionData?.error && actionData.field !== "amount" ? (
                    <Alert color="red" role="alert">
                      {t(actionData.error)}
                    </Alert>
                  ) : null}
                  <CheckoutFields fields={view.checkoutFields} actionData={actionData} />
                  <PayChoices choices={view.choices} selected={view.selected} />
                  {view.wallets ? <WalletPay wallets={view.wallets} /> : null}
                </div>
              </form>
            )}
            {unit?.terms ? <Terms text={unit.terms} /> : null}
            <p className="c-dimmed c-xs" style={{ textAlign: "center" }}>
              {unit?.disclaimer ?? t("pay.disclaimer")}
            </p>
            <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PAY_ENHANCER }} />
          </>
        )}
      </main>
    </div>
  );
}

/** How each kind of value is typed on a phone: the keyboard it brings up, and what a browser may fill in. */
const INPUTS: Record<
  string,
  { type: string; inputMode?: "text" | "email" | "tel" | "numeric" | "decimal"; autoComplete?: string }
> = {
  text: { type: "text" },
  email: { type: "email", inputMode: "email", autoComplete: "email" },
  phone: { type: "tel", inputMode: "tel", autoComplete: "tel" },
  digits: { type: "text", inputMode: "numeric", autoComplete: "off" },
  civil_id: { type: "text", inputMode: "numeric", autoComplete: "off" },
  number: { type: "text", inputMode: "decimal", autoComplete: "off" },
};

/**
 * The merchant's checkout fields, inside the pay form: sent with whichever Pay button is pressed.
 * After a refused payment, what the customer typed is shown again with the error under its field.
 */
function CheckoutFields({
  fields,
  actionData,
}: {
  fields: NonNullable<PayPageData["view"]>["checkoutFields"];
  actionData?: ReturnType<typeof useActionData<typeof action>>;
}) {
  const t = useText();
  if (!fields.length) return null;
  const values = actionData && "checkoutValues" in actionData ? actionData.checkoutValues : undefined;
  const errors = actionData && "checkoutErrors" in actionData ? actionData.checkoutErrors : undefined;
  return (
    <fieldset className="plain-fieldset c-stack">
      <legend className="c-strong">{t("checkout_fields.legend")}</legend>
      {fields.map((field) => {
        const error = errors?.[field.name];
        return (
          <TextField
            key={field.name}
            id={`checkout-${field.name}`}
            name={`${EXTRA_PREFIX}${field.name}`}
            label={field.required ? field.label : t("checkout_fields.optional_label", { label: field.label })}
            placeholder={field.placeholder ?? undefined}
            required={field.required}
            // The server counts a civil ID's or a phone's digits without the spaces people type: the browser must not cut those.
            maxLength={field.validator === "text" || field.validator === "email" ? field.max_length : undefined}
            defaultValue={values && Object.hasOwn(values, field.name) ? values[field.name] : ""}
            error={error ? t(error.key, error.values) : null}
            dir="auto"
            {...INPUTS[field.validator]}
          />
        );
      })}
    </fieldset>
  );
}
