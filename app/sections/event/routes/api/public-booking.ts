import type { Route } from "./+types/public-booking";
import { COUNTRIES } from "~/lib/countries";
import { translator } from "~/lib/i18n.server";
import { apiDetail, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { PUBLIC_CALLER, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { eventFields } from "../../domain/bookings.server";
import { bookingThrottled, publicEventView, serializeTicket } from "../../domain/public-events.server";
import { registerForEvent } from "../../domain/registration.server";
import { hasWaitingZone, PASS_USED, validPassEntry } from "../../domain/waiting-zone.server";
import { apiFieldErrors } from "../public/event-page.server";
import { PASS_HEADER, readPass } from "../public/queue-cookies.server";
import { publicApiLanguage, requirePublicEvent } from "./public-api.server";

/**
 * POST booking {"event": slug, ...} and POST registration/{slug}: a customer's booking, answered 201
 * {id, uuid, state, checkout_url} or 400 with field errors in the caller's language (`quantity`
 * names what is left). While an event's waiting zone is on, only the holder of a valid pass (its
 * cookie, or the Event-Pass header) may book. Anonymous; an Idempotency-Key makes a retry book once.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const body = await readBody(request);
  const event = await requirePublicEvent(db, request, params.slug ?? body.event);
  let entryId: number | null = null;
  const needsPass = {
    detail: translator(lang)(PASS_USED),
    code: "waiting_zone",
    waiting_zone_url: `/${lang}/events/ticketwaitingzone?event=${encodeURIComponent(event.slug)}`,
  };
  if (hasWaitingZone(event)) {
    entryId = await validPassEntry(db, event, readPass(request, event.id));
    if (entryId === null) return apiJson(needsPass, 403);
  }
  if (await bookingThrottled(db, context.get(clientAddressContext)))
    return apiDetail(request, "events_public.errors.throttled", 429);
  return respondOnce(
    request,
    { db, merchantId: event.merchant_id, caller: PUBLIC_CALLER, scope: `event_booking:${event.id}`, body },
    async () => {
      const outcome = await registerForEvent(db, {
        event,
        body: { ...body, event: event.slug },
        lang,
        baseUrl: linkBaseUrl(),
        clientAddress: context.get(clientAddressContext),
        passEntryId: entryId,
      });
      // Another booking made at the same moment used the pass.
      if (!outcome.ok && outcome.errors.non_field_errors?.[0] === PASS_USED) return { status: 403, body: needsPass };
      if (!outcome.ok) return { status: 400, body: apiFieldErrors(outcome.errors, outcome.params, lang) };
      return { status: 201, body: outcome.booking };
    },
  );
}

/** OPTIONS registration/{slug}: the form's fields (built-in and the event's own), its tickets and dates. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (request.method !== "OPTIONS" || !params.slug) return methodNotAllowed(request);
  const db = getDbFrom(context);
  const event = await requirePublicEvent(db, request, params.slug);
  const lang = publicApiLanguage(request);
  const [view, fields] = await Promise.all([publicEventView(db, event, lang), eventFields(db, event.id)]);
  const builtIn = (name: string, type: string, required: boolean, extra: Record<string, unknown> = {}) => ({
    name,
    type,
    required,
    ...extra,
  });
  return apiJson(
    {
      event: event.slug,
      is_free: view.isFree,
      currency_code: event.currency_code,
      max_per_booking: event.max_per_booking,
      waiting_zone: hasWaitingZone(event)
        ? { pass_header: PASS_HEADER, url: `/${lang}/events/ticketwaitingzone?event=${encodeURIComponent(event.slug)}` }
        : null,
      fields: [
        builtIn("ticket", "choice", true, { choices: view.tickets.map((ticket) => ticket.id) }),
        builtIn("event_date", "date", true, { choices: view.bookableDates }),
        builtIn("quantity", "integer", true, { min: 1, max: event.max_per_booking }),
        builtIn("email", "email", true, { max_length: 254 }),
        builtIn("customer_first_name", "string", false, { max_length: 100 }),
        builtIn("customer_last_name", "string", false, { max_length: 100 }),
        builtIn("customer_phone", "phone", false, { max_length: 30 }),
        builtIn("customer_phone_country", "choice", false, { choices: COUNTRIES }),
        builtIn("gateway_code", "choice", !view.isFree, {}),
      ],
      extra_fields: fields.map((field) => ({
        name: field.name,
        label_en: field.label_en,
        label_ar: field.label_ar,
        type: field.type,
        required: Boolean(field.required),
      })),
      tickets: view.tickets.map((ticket) => serializeTicket(ticket, event.currency_code, view.isFree)),
      dates: view.bookableDates,
    },
    200,
    { Allow: "OPTIONS, POST" },
  );
}
