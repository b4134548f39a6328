import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/collect-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/collect";
import { PublicHeader } from "~/components/customer/public-header";
import { Alert, Button, Card, SelectField, TextAreaField, TextField } from "~/components/pay/ui";
import { useText } from "~/components/pay/use-text";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { CollectPaymentSchema, createCollectorPayment, loadCollectForm } from "../../domain/collect.server";
import { issuesAsFieldErrors } from "../../domain/collector-schema";
import {
  collectPageView,
  collectThrottled,
  countCollectPayment,
  fieldMessages,
  languageOf,
  requireActiveCollector,
  type CollectPageView,
} from "./collect-view.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); paying is a plain POST. */
export const handle = { hydrate: false };

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page?.title ?? "Pay" }, { name: "robots", content: "noindex" }];
}

const STANDARD_FIELDS = [
  "amount",
  "currency_code",
  "gateway_code",
  "customer_name",
  "customer_email",
  "customer_phone",
  "reference",
  "submission_token",
] as const;

export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const collector = await requireActiveCollector(db, params.collectorId);
  const view = await collectPageView(db, await loadCollectForm(db, collector), lang);
  // Not taking payments today: the page says so (423 Locked, as the pay page when the merchant pauses).
  return data(view, { status: view.accepting ? 200 : 423 });
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const collector = await requireActiveCollector(db, params.collectorId);
  const form = await readFormData(request);
  const values: Record<string, string> = {};
  for (const name of STANDARD_FIELDS) values[name] = String(form.get(name) ?? "").slice(0, 600);
  const extra: Record<string, string> = {};
  for (const [name, value] of form.entries())
    if (name.startsWith("extra.") && typeof value === "string") extra[name.slice(6, 46)] = value.slice(0, 600);
  for (const [name, value] of Object.entries(extra)) values[`extra.${name}`] = value;
  const ip = context.get(clientAddressContext);
  if (await collectThrottled(db, ip, collector.id))
    return data(
      { values, errors: fieldMessages({ non_field_errors: ["collect_public.errors.throttled"] }, undefined, lang) },
      { status: 429 },
    );
  const parsed = CollectPaymentSchema.safeParse({ ...values, extra });
  if (!parsed.success)
    return data(
      { values, errors: fieldMessages(issuesAsFieldErrors(parsed.error.issues), undefined, lang) },
      { status: 400 },
    );
  const made = await createCollectorPayment(db, { collector, input: parsed.data, lang, baseUrl: linkBaseUrl() });
  if (!made.ok && made.kind === "closed") return redirect(`/${lang}/pay/collect/${collector.public_id}`, 303);
  if (!made.ok) return data({ values, errors: fieldMessages(made.errors, made.params, lang) }, { status: 400 });
  await countCollectPayment(db, ip, collector.id);
  return redirect(`/${lang}/pay/${made.transaction.id}`, 303);
}

export default function CollectPage() {
  const t = useText();
  const page = useLoaderData<typeof loader>() as CollectPageView;
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const errors: Record<string, string> = answer?.errors ?? {};
  const value = (name: string, fallback = "") => answer?.values?.[name] ?? fallback;
  return (
    <div className="pay-page collect-page">
      {page.unit ? <PublicHeader unit={page.unit} lang={page.lang} path={location.pathname + location.search} /> : null}
      <main className="c-main c-main--narrow">
        <div className="c-stack">
          <h1 className="c-title collect-title" dir="auto">
            {page.title}
          </h1>
          {page.description ? (
            <p className="collect-description" dir="auto">
              {page.description}
            </p>
          ) : null}
          {!page.accepting ? (
            <Alert color="orange" role="status">
              {t("collect_public.closed")}
            </Alert>
          ) : (
            <form method="post" className="c-stack" noValidate={false}>
              <input type="hidden" name="submission_token" value={value("submission_token", page.submissionToken)} />
              {errors.non_field_errors ? <Alert color="red">{errors.non_field_errors}</Alert> : null}
              <Card>
                <div className="c-stack">
                  <div className="collect-amount">
                    <TextField
                      name="amount"
                      label={
                        page.currencies.length > 1
                          ? t("collect_public.amount")
                          : `${t("collect_public.amount")} (${page.defaultCurrency})`
                      }
                      description={page.ranges
                        .map((range) => [range.text, range.cap].filter(Boolean).join(" · "))
                        .join(" — ")}
                      inputMode="decimal"
                      autoComplete="off"
                      maxLength={20}
                      required
                      defaultValue={value("amount")}
                      error={errors.amount}
                      dir="ltr"
                    />
                    {page.currencies.length > 1 ? (
                      <SelectField
                        name="currency_code"
                        label={t("collect_public.currency")}
                        options={page.currencies.map((code) => ({ value: code, label: code }))}
                        defaultValue={value("currency_code", page.defaultCurrency)}
                        error={errors.currency_code}
                      />
                    ) : (
                      <input type="hidden" name="currency_code" value={page.defaultCurrency} />
                    )}
                  </div>
                  {page.currencies.length <= 1 && errors.currency_code ? (
                    <p className="c-field__error" id="field-currency_code-error">
                      {errors.currency_code}
                    </p>
                  ) : null}
                </div>
              </Card>
              {page.fields.length ? (
                <Card>
                  <div className="c-stack">
                    <h2 className="c-subtitle">{t("collect_public.your_details")}</h2>
                    {page.fields.map((field) =>
                      field.kind === "text" ? (
                        <TextAreaField
                          key={field.name}
                          name={field.name}
                          label={field.label}
                          required={field.required}
                          maxLength={500}
                          rows={2}
                          defaultValue={value(field.name)}
                          error={errors[field.name]}
                          dir="auto"
                        />
                      ) : (
                        <TextField
                          key={field.name}
                          name={field.name}
                          label={field.label}
                          required={field.required}
                          defaultValue={value(field.name)}
                          error={errors[field.name]}
                          {...(field.kind === "email"
                            ? {
                                type: "email",
                                inputMode: "email" as const,
                                autoComplete: "email",
                                maxLength: 254,
                                dir: "ltr",
                              }
                            : field.kind === "phone"
                              ? {
                                  type: "tel",
                                  inputMode: "tel" as const,
                                  autoComplete: "tel",
                                  maxLength: 30,
                                  dir: "ltr",
                                  description: t("collect_public.phone_hint"),
                                }
                              : field.kind === "name"
                                ? { autoComplete: "name", maxLength: 100, dir: "auto" }
                                : { maxLength: 100, dir: "auto" })}
                        />
                      ),
                    )}
                  </div>
                </Card>
              ) : null}
              <Card>
                <fieldset
                  className="collect-choices"
                  aria-describedby={errors.gateway_code ? "field-gateway_code-error" : undefined}
                >
                  <legend>{t("pay.choose_method")}</legend>
                  {page.gateways.map((gateway, index) => (
                    <label key={gateway.code} className="collect-choice">
                      <input
                        type="radio"
                        name="gateway_code"
                        value={gateway.code}
                        required
                        defaultChecked={answer?.values ? answer.values.gateway_code === gateway.code : index === 0}
                      />
                      {gateway.logoUrl ? <img src={gateway.logoUrl} alt="" width={48} height={24} /> : null}
                      <span>{gateway.name}</span>
                      {gateway.currencies.length ? (
                        <span className="collect-choice__currencies">{gateway.currencies.join(" · ")}</span>
                      ) : null}
                    </label>
                  ))}
                  {errors.gateway_code ? (
                    <p className="c-field__error" id="field-gateway_code-error">
                      {errors.gateway_code}
                    </p>
                  ) : null}
                </fieldset>
              </Card>
              <Button type="submit" fullWidth size="lg">
                {t("collect_public.continue")}
              </Button>
            </form>
          )}
        </div>
      </main>
    </div>
  );
}
