import { useText } from "~/components/pay/use-text";
import type { UnitHeader } from "~/components/customer/public-header";
import { Alert, Button, Card, SelectField, TextField } from "~/components/pay/ui";
import { Amount } from "~/components/customer/price";
import type { Language } from "~/lib/i18n";

export type RegistrationPage = {
  lang: Language;
  unit: UnitHeader | null;
  slug: string;
  title: string;
  maxPerBooking: number;
  dates: { value: string; label: string }[];
  tickets: {
    id: number;
    name: string;
    price: string | null;
    slot: string;
    places: { date: string; left: number | null }[];
    soldOut: boolean;
  }[];
  fields: { name: string; label: string; type: string; required: boolean }[];
  countries: { value: string; label: string }[];
  defaultCountry: string;
  gateways: { code: string; name: string; logoUrl: string | null }[];
  hasTerms: boolean;
};

export type RegistrationAnswer = {
  errors: Record<string, string>;
  values: Record<string, string>;
  kept: Record<string, string>;
} | null;

/** The file name in a kept attachment's key (merchant/random/name). */
const keptName = (key: string) => key.split("/").pop() ?? key;

/**
 * The registration form: a plain multipart POST that works without JavaScript. After a refusal the
 * page comes back with every answer typed, files already sent kept, and each error under its field.
 */
export function RegistrationForm({
  page,
  answer,
  action,
}: {
  page: RegistrationPage;
  answer: RegistrationAnswer;
  action: string;
}) {
  const t = useText();
  const errors = answer?.errors ?? {};
  const values = answer?.values ?? {};
  const value = (name: string, fallback = "") => values[name] ?? fallback;
  const bookable = page.dates.length > 0;
  return (
    <div className="c-stack">
      <h1 className="c-title">{page.title}</h1>
      {!bookable ? (
        <Alert color="orange">{t("events_public.details.all_sold_out")}</Alert>
      ) : (
        <form method="post" action={action} encType="multipart/form-data" noValidate={false}>
          <div className="c-stack">
            {errors.non_field_errors || errors.event ? (
              <Alert color="red">{errors.non_field_errors ?? errors.event}</Alert>
            ) : null}
            <Card>
              <div className="c-stack">
                {page.dates.length === 1 ? (
                  <div className="c-field">
                    <p className="c-field__label">{t("events_public.register.date")}</p>
                    <p>{page.dates[0].label}</p>
                    <input type="hidden" name="event_date" value={page.dates[0].value} />
                    {errors.event_date ? <p className="c-field__error">{errors.event_date}</p> : null}
                  </div>
                ) : (
                  <Choices legend={t("events_public.register.date")} name="event_date" error={errors.event_date}>
                    {page.dates.map((date) => (
                      <label key={date.value} className="c-choice event-choice">
                        <input
                          type="radio"
                          name="event_date"
                          value={date.value}
                          defaultChecked={value("event_date") === date.value}
                          required
                        />
                        <span>{date.label}</span>
                      </label>
                    ))}
                  </Choices>
                )}
                <Choices legend={t("events_public.register.ticket")} name="ticket" error={errors.ticket}>
                  {page.tickets.map((ticket) => (
                    <label
                      key={ticket.id}
                      className={ticket.soldOut ? "c-choice event-choice event-choice--off" : "c-choice event-choice"}
                    >
                      <input
                        type="radio"
                        name="ticket"
                        value={ticket.id}
                        disabled={ticket.soldOut}
                        defaultChecked={
                          value(
                            "ticket",
                            page.tickets.filter((one) => !one.soldOut).length === 1
                              ? String(page.tickets.find((one) => !one.soldOut)?.id)
                              : "",
                          ) === String(ticket.id)
                        }
                        required
                      />
                      <span className="c-stack c-stack--tight">
                        <span className="c-strong">
                          {ticket.name} —{" "}
                          <Amount className="event-price">{ticket.price ?? t("events_public.free")}</Amount>
                        </span>
                        <span className="c-small c-dimmed">{ticket.slot}</span>
                        {ticket.places.map((place) => (
                          <span key={place.date} className="c-small">
                            {page.dates.length > 1 ? `${place.date}: ` : ""}
                            {place.left === null ? (
                              "—"
                            ) : place.left > 0 ? (
                              t("events_public.places_left", { count: place.left })
                            ) : (
                              <span className="event-sold-out">{t("events_public.sold_out")}</span>
                            )}
                          </span>
                        ))}
                      </span>
                    </label>
                  ))}
                </Choices>
                <TextField
                  name="quantity"
                  label={t("events_public.register.quantity")}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={page.maxPerBooking}
                  required
                  defaultValue={value("quantity", "1")}
                  error={errors.quantity}
                />
              </div>
            </Card>
            <Card>
              <div className="c-stack">
                <TextField
                  name="customer_first_name"
                  label={t("events_public.register.first_name")}
                  autoComplete="given-name"
                  maxLength={100}
                  required
                  defaultValue={value("customer_first_name")}
                  error={errors.customer_first_name}
                  dir="auto"
                />
                <TextField
                  name="customer_last_name"
                  label={t("events_public.register.last_name")}
                  autoComplete="family-name"
                  maxLength={100}
                  required
                  defaultValue={value("customer_last_name")}
                  error={errors.customer_last_name}
                  dir="auto"
                />
                <TextField
                  name="email"
                  label={t("events_public.register.email")}
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  maxLength={254}
                  required
                  defaultValue={value("email")}
                  error={errors.email}
                  dir="ltr"
                />
                <div className="event-phone">
                  <SelectField
                    name="customer_phone_country"
                    label={t("events_public.register.country_code")}
                    options={page.countries}
                    defaultValue={value("customer_phone_country", page.defaultCountry)}
                  />
                  <TextField
                    name="customer_phone"
                    label={t("events_public.register.phone")}
                    type="tel"
                    inputMode="tel"
                    autoComplete="tel-national"
                    maxLength={30}
                    defaultValue={value("customer_phone")}
                    error={errors.customer_phone}
                    dir="ltr"
                  />
                </div>
                {page.fields.map((field) =>
                  field.type === "attachment" ? (
                    <div key={field.name} className="c-stack c-stack--tight">
                      <TextField
                        name={`extra.${field.name}`}
                        label={
                          field.required ? field.label : t("events_public.register.optional", { label: field.label })
                        }
                        type="file"
                        accept="application/pdf,image/png,image/jpeg,image/webp"
                        required={field.required && !answer?.kept[field.name]}
                        error={errors[field.name]}
                      />
                      {answer?.kept[field.name] ? (
                        <p className="c-small">
                          <input type="hidden" name={`kept.${field.name}`} value={answer.kept[field.name]} />
                          {t("events_public.register.kept_file", { name: keptName(answer.kept[field.name]) })}
                        </p>
                      ) : null}
                    </div>
                  ) : (
                    <TextField
                      key={field.name}
                      name={`extra.${field.name}`}
                      label={
                        field.required ? field.label : t("events_public.register.optional", { label: field.label })
                      }
                      type={field.type === "phone" ? "tel" : "text"}
                      inputMode={field.type === "phone" ? "tel" : undefined}
                      maxLength={field.type === "phone" ? 30 : 500}
                      required={field.required}
                      defaultValue={value(`extra.${field.name}`)}
                      error={errors[field.name]}
                      dir="auto"
                    />
                  ),
                )}
              </div>
            </Card>
            {page.gateways.length ? (
              <Card>
                <Choices legend={t("events_public.register.pay_with")} name="gateway_code" error={errors.gateway_code}>
                  {page.gateways.map((gateway, index) => (
                    <label key={gateway.code} className="c-choice event-choice">
                      <input
                        type="radio"
                        name="gateway_code"
                        value={gateway.code}
                        defaultChecked={value("gateway_code") ? value("gateway_code") === gateway.code : index === 0}
                      />
                      {gateway.logoUrl ? <img src={gateway.logoUrl} alt="" /> : null}
                      <span>{gateway.name}</span>
                    </label>
                  ))}
                </Choices>
              </Card>
            ) : null}
            {page.hasTerms ? (
              <div className="c-field">
                <label className="c-choice event-choice">
                  <input
                    type="checkbox"
                    name="accept_terms"
                    defaultChecked={values.accept_terms === "on"}
                    required
                    aria-describedby={errors.accept_terms ? "accept-terms-error" : undefined}
                  />
                  <span>
                    {t("events_public.register.accept_terms")}{" "}
                    <a
                      className="c-link"
                      href={`/${page.lang}/events/terms-and-conditions?event=${encodeURIComponent(page.slug)}`}
                      target="_blank"
                      rel="noopener"
                    >
                      {t("events_public.terms.title")}
                    </a>
                  </span>
                </label>
                {errors.accept_terms ? (
                  <p className="c-field__error" id="accept-terms-error">
                    {errors.accept_terms}
                  </p>
                ) : null}
              </div>
            ) : null}
            <Button type="submit" size="lg" fullWidth>
              {page.gateways.length ? t("events_public.register.submit_pay") : t("events_public.register.submit")}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

function Choices({
  legend,
  name,
  error,
  children,
}: {
  legend: string;
  name: string;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <fieldset className="c-choices" aria-describedby={error ? `${name}-error` : undefined}>
      <legend>{legend}</legend>
      {children}
      {error ? (
        <p className="c-field__error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
