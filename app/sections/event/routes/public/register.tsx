import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/events-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/register";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { COUNTRIES, countryName } from "~/lib/countries";
import { formatAmount } from "~/lib/money";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { bookingThrottled, eventPayChoices, eventTerms, publicEventView } from "../../domain/public-events.server";
import { registerForEvent } from "../../domain/registration.server";
import { eventFields } from "../../domain/bookings.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { formatEventDate, formatSlot } from "../../components/public/public-format";
import { RegistrationForm, type RegistrationPage } from "../../components/public/registration-form";
import { fieldMessages, languageOf, requirePublishedEvent } from "./event-page.server";
import { clearPassCookie } from "./queue-cookies.server";
import { requireRegistrationPass } from "./register-gate.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); the form is a plain POST. */
export const handle = { hydrate: false };

const EXTRA_PREFIX = "extra.";
const KEPT_PREFIX = "kept.";

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page && "title" in page ? page.title : "Register" }, { name: "robots", content: "noindex" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs): Promise<RegistrationPage> {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { event, unit } = await requirePublishedEvent(db, params.slug, lang);
  await requireRegistrationPass(db, event, request, lang);
  const [view, fields, defaults, choices, terms] = await Promise.all([
    publicEventView(db, event, lang),
    eventFields(db, event.id),
    loadMerchantDefaults(db, event.merchant_id),
    eventPayChoices(db, event, 0, lang),
    eventTerms(db, event, lang),
  ]);
  return {
    lang,
    unit,
    slug: event.slug,
    title: view.title,
    maxPerBooking: event.max_per_booking,
    dates: view.bookableDates.map((date) => ({ value: date, label: formatEventDate(date, lang) })),
    tickets: view.tickets.map((ticket) => ({
      id: ticket.id,
      name: lang === "ar" ? ticket.name_ar : ticket.name_en,
      price:
        view.isFree || Number(ticket.price) === 0
          ? null
          : formatAmount(Number(ticket.price), event.currency_code, lang),
      slot: formatSlot(ticket.start_time, ticket.end_time, lang),
      places: view.bookableDates.map((date) => ({
        date: formatEventDate(date, lang),
        left: ticket.remaining_qty_per_date[date]?.remaining_quantity ?? null,
      })),
      soldOut: !view.bookableDates.some((date) => (ticket.remaining_qty_per_date[date]?.remaining_quantity ?? 0) > 0),
    })),
    fields: fields.map((field) => ({
      name: field.name,
      label: lang === "ar" ? field.label_ar : field.label_en,
      type: field.type,
      required: Boolean(field.required),
    })),
    countries: COUNTRIES.map((code) => ({ value: code, label: countryName(code, lang) })),
    defaultCountry: defaults.country,
    gateways: choices.map((choice) => ({ code: choice.gateway_code, name: choice.gateway, logoUrl: choice.logo_url })),
    hasTerms: terms.length > 0,
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { event } = await requirePublishedEvent(db, params.slug, lang);
  const entryId = await requireRegistrationPass(db, event, request, lang);
  const form = await readFormData(request);
  const values: Record<string, string> = {};
  const extra: Record<string, string | File> = {};
  for (const [name, value] of form) {
    if (name.startsWith(EXTRA_PREFIX)) {
      const field = name.slice(EXTRA_PREFIX.length);
      if (value instanceof File) {
        if (value.size > 0) extra[field] = value;
      } else {
        extra[field] = value;
        values[name] = value.slice(0, 2000);
      }
    } else if (name.startsWith(KEPT_PREFIX) && typeof value === "string") {
      extra[name.slice(KEPT_PREFIX.length)] ??= value;
    } else if (typeof value === "string") values[name] = value.slice(0, 2000);
  }
  if (await bookingThrottled(db, context.get(clientAddressContext))) {
    return data(
      {
        errors: fieldMessages({ non_field_errors: ["events_public.errors.throttled"] }, undefined, lang),
        values,
        kept: {},
      },
      { status: 429 },
    );
  }
  const terms = await eventTerms(db, event, lang);
  const outcome = await registerForEvent(db, {
    event,
    body: { ...values, extra },
    lang,
    baseUrl: linkBaseUrl(),
    clientAddress: context.get(clientAddressContext),
    termsAccepted: terms ? form.get("accept_terms") === "on" : undefined,
    namesRequired: true,
    passEntryId: entryId,
  });
  if (!outcome.ok)
    return data(
      { errors: fieldMessages(outcome.errors, outcome.params, lang), values, kept: outcome.kept },
      { status: 400 },
    );
  const headers = entryId !== null ? { "Set-Cookie": clearPassCookie(request, event.id) } : undefined;
  const { booking } = outcome;
  if (booking.checkout_url) return redirect(booking.checkout_url, { status: 303, headers });
  return redirect(
    `/${lang}/events/thanks-for-register?booking=${booking.id}&uuid=${encodeURIComponent(booking.uuid)}`,
    { status: 303, headers },
  );
}

export default function Register() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <RegistrationForm page={page} answer={answer ?? null} action={location.pathname} />
    </CustomerLayout>
  );
}
