import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/event-edit";
import { can } from "~/domain/identity/permissions";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { EventForm, type EventFormDefaults } from "~/sections/event/components/event-form";
import { EventSchema, wholeEvent } from "~/sections/event/domain/event-schema";
import {
  createEvent,
  eventImageUrl,
  findMerchantEvent,
  loadEventDetails,
  putEventImage,
  serializeEvent,
  updateEvent,
  type EventErrors,
} from "~/sections/event/domain/events.server";
import { eventErrorMessages } from "~/sections/event/presentation/event-errors.server";
import { env } from "~/lib/env.server";
import { isLanguage } from "~/lib/i18n";
import { SUPPORTED_CURRENCIES } from "~/lib/money";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الفعالية" : "Event" }];
}

async function guard(
  context: Route.LoaderArgs["context"],
  request: Request,
  permission: "view_booking" | "change_booking",
) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "event", "bookings");
  requirePermission(auth, permission);
  return auth;
}

function eventIdOf(params: { id?: string }) {
  if (params.id === undefined) return null;
  return /^\d{1,12}$/.test(params.id) ? Number(params.id) : notFound();
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard(context, request, "view_booking");
  const db = getDbFrom(context);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const id = eventIdOf(params);
  const gateways = (await listMerchantGateways(db, auth.user.merchantId, { enabledOnly: true })).filter(
    (gateway) => gateway.kind !== "cod",
  );
  let defaults: EventFormDefaults;
  let imageUrl: string | null = null;
  if (id !== null) {
    const event = await findMerchantEvent(db, auth.user.merchantId, id);
    if (!event) notFound();
    const view = serializeEvent(await loadEventDetails(db, event), lang);
    imageUrl = eventImageUrl(event);
    defaults = {
      slug: view.slug,
      title_en: view.title_en,
      title_ar: view.title_ar,
      description_en: view.description_en,
      description_ar: view.description_ar,
      location_en: view.location_en,
      location_ar: view.location_ar,
      currency_code: view.currency_code,
      terms_en: view.terms_en,
      terms_ar: view.terms_ar,
      status: view.status,
      gateway_codes: view.gateway_codes,
      lat: view.lat === null ? "" : String(view.lat),
      lng: view.lng === null ? "" : String(view.lng),
      is_free: view.is_free ? "on" : undefined,
      hold_minutes: String(view.hold_minutes),
      max_per_booking: String(view.max_per_booking),
      queue_capacity: view.queue_capacity === null ? "" : String(view.queue_capacity),
      fields: view.fields.map((field) => ({
        name: field.name,
        label_en: field.label_en,
        label_ar: field.label_ar,
        type: field.type,
        required: field.required ? "on" : undefined,
      })),
      tickets: view.tickets.map((ticket) => ({
        id: String(ticket.id),
        name_en: ticket.name_en,
        name_ar: ticket.name_ar,
        price: ticket.price,
        start_time: ticket.start_time,
        end_time: ticket.end_time,
        quantity: String(ticket.quantity),
        dates: ticket.dates.join("\n"),
      })),
    };
  } else {
    const merchant = await loadMerchantDefaults(db, auth.user.merchantId);
    defaults = {
      currency_code: merchant.currency,
      status: "draft",
      hold_minutes: "15",
      max_per_booking: "10",
      gateway_codes: [],
      fields: [],
      tickets: [{ start_time: "18:00", end_time: "22:00", quantity: "10", dates: "" }],
    };
  }
  return {
    lang,
    id,
    defaults,
    imageUrl,
    canChange: can(auth.user, "change_booking"),
    currencies: [...SUPPORTED_CURRENCIES],
    gateways: gateways.map((gateway) => ({
      code: gateway.code,
      name: lang === "ar" ? gateway.name_ar : gateway.name_en,
      currencies: gateway.currencies,
    })),
    mapStyleUrl: env().MAP_STYLE_URL ?? null,
  };
}

/** "tickets.0.price" (the domain's, the API's) → "tickets[0].price" (the form's names). */
function formErrors(errors: EventErrors, lang: "en" | "ar") {
  const messages = eventErrorMessages(errors, lang);
  return Object.fromEntries(
    Object.entries(messages).map(([field, list]) => [field.replace(/\.(\d+)(?=\.|$)/g, "[$1]"), list]),
  );
}

/**
 * Saves the whole event: `status` is the button pressed (Save draft, Publish, Close). Conform's
 * list buttons (Add field, Add ticket, Remove) come back here too without JavaScript and answer the
 * form with one row more or less. A picture chosen is stored first and kept while errors are fixed.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard(context, request, "change_booking");
  const db = getDbFrom(context);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const id = eventIdOf(params);
  const form = await readFormData(request);
  let kept = String(form.get("image_kept") ?? "") || null;
  let imageError: string | null = null;
  const file = form.get("image");
  if (file instanceof File && file.size > 0) {
    const stored = await putEventImage(auth.user.merchantId, file);
    if (stored.ok) kept = stored.key;
    else imageError = eventErrorMessages({ image: [{ code: stored.error }] }, lang).image[0];
  }
  const submission = parseWithZod(form, { schema: EventSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data(
      { result: submission.reply(), kept, imageError },
      { status: submission.status === "error" ? 400 : 200 },
    );
  }
  if (imageError)
    return data(
      { result: submission.reply({ fieldErrors: { image: [imageError] } }), kept, imageError },
      { status: 400 },
    );
  const change = {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    event: wholeEvent(submission.value),
    imageKey: kept ?? undefined,
    ip: context.get(clientAddressContext),
  };
  const saved = id === null ? await createEvent(db, change) : await updateEvent(db, { ...change, eventId: id });
  if (!saved.ok) {
    if (saved.notFound) notFound();
    return data(
      { result: submission.reply({ fieldErrors: formErrors(saved.errors, lang) }), kept, imageError: null },
      { status: 400 },
    );
  }
  return redirect(`/${lang}/event/events/${saved.event.id}`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: `event_setup.saved_${saved.event.status}` }) },
  });
}

export default function EventEdit() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <EventForm
      {...loaded}
      lastResult={actionData?.result}
      kept={actionData?.kept ?? null}
      imageError={actionData?.imageError ?? null}
    />
  );
}
