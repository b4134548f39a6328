import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/events-public.css";
import { IconCircleCheck, IconClockHour4 } from "@tabler/icons-react";
import { data, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/thanks-for-register";
import { useText } from "~/components/pay/use-text";
import { Card, LinkButton } from "~/components/pay/ui";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { getDbFrom } from "~/web/request-context.server";
import { findPublicBooking } from "../../domain/bookings.server";
import { ticketsPath } from "../../domain/booking-mail.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { formatEventDate, formatSlot } from "../../components/public/public-format";
import { languageOf } from "./event-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [
    { title: params.lang === "ar" ? "شكرًا لتسجيلك" : "Thank you for registering" },
    { name: "robots", content: "noindex" },
  ];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const query = new URL(request.url).searchParams;
  const id = query.get("booking") ?? "";
  const uuid = query.get("uuid") ?? "";
  const view = /^\d{1,12}$/.test(id) && uuid ? await findPublicBooking(db, Number(id), uuid.slice(0, 64)) : undefined;
  if (!view) throw data(null, { status: 404 });
  const unit = await loadUnitHeader(db, view.event, lang);
  const paid = view.members.filter((member) => member.is_purchased).length;
  return {
    lang,
    unit,
    bookingId: view.booking.id,
    event: lang === "ar" ? view.event.title_ar : view.event.title_en,
    slug: view.event.slug,
    date: formatEventDate(view.booking.event_date, lang),
    ticket: lang === "ar" ? view.ticket.name_ar : view.ticket.name_en,
    slot: formatSlot(view.ticket.start_time, view.ticket.end_time, lang),
    quantity: view.quantity,
    email: view.booking.email,
    confirmed: paid > 0,
    ticketsUrl: ticketsPath(lang, view.booking.id, view.booking.uuid),
  };
}

export default function ThanksForRegister() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  const Icon = page.confirmed ? IconCircleCheck : IconClockHour4;
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <Card padding="xl">
        <div className="c-stack c-center">
          <Icon size={56} color={`var(--mantine-color-${page.confirmed ? "green" : "orange"}-6)`} aria-hidden />
          <h1 className="c-title">
            {t(page.confirmed ? "events_public.thanks.title" : "events_public.thanks.pending_title")}
          </h1>
          <p className="c-dimmed">
            {t(page.confirmed ? "events_public.thanks.message" : "events_public.thanks.pending_message", {
              email: page.email,
            })}
          </p>
          <table className="c-table">
            <tbody>
              <tr>
                <th scope="row">{t("events_public.thanks.booking_no")}</th>
                <td>{page.bookingId}</td>
              </tr>
              <tr>
                <th scope="row">{t("events_public.thanks.event")}</th>
                <td>{page.event}</td>
              </tr>
              <tr>
                <th scope="row">{t("events_public.register.date")}</th>
                <td>{page.date}</td>
              </tr>
              <tr>
                <th scope="row">{t("events_public.register.ticket")}</th>
                <td>
                  {page.ticket} ({page.slot})
                </td>
              </tr>
              <tr>
                <th scope="row">{t("events_public.register.quantity")}</th>
                <td>{page.quantity}</td>
              </tr>
            </tbody>
          </table>
          {page.confirmed ? (
            <LinkButton href={page.ticketsUrl} fullWidth>
              {t("events_public.thanks.open_tickets")}
            </LinkButton>
          ) : null}
          <a className="c-link" href={`/${page.lang}/events/leave-feedback/${encodeURIComponent(page.slug)}`}>
            {t("events_public.details.leave_feedback")}
          </a>
        </div>
      </Card>
    </CustomerLayout>
  );
}
