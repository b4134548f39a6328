import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/events-public.css";
import { useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/event";
import { useText } from "~/components/pay/use-text";
import { Card, LinkButton } from "~/components/pay/ui";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { publicEventView } from "../../domain/public-events.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { Amount } from "~/components/customer/price";
import { formatEventDate, formatSlot } from "../../components/public/public-format";
import { languageOf, requirePublishedEvent } from "./event-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page?.title ?? "Event" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { event, unit } = await requirePublishedEvent(db, params.slug, lang);
  const view = await publicEventView(db, event, lang);
  return {
    lang,
    unit,
    slug: event.slug,
    title: view.title,
    description: view.description,
    location: view.location,
    imageUrl: view.imageUrl,
    mapUrl: view.mapUrl,
    dates: view.dates.map((date) => formatEventDate(date, lang)),
    bookable: view.bookableDates.length > 0,
    tickets: view.tickets.map((ticket) => ({
      id: ticket.id,
      name: lang === "ar" ? ticket.name_ar : ticket.name_en,
      price:
        view.isFree || Number(ticket.price) === 0
          ? null
          : formatAmount(Number(ticket.price), event.currency_code, lang),
      slot: formatSlot(ticket.start_time, ticket.end_time, lang),
      dates: Object.entries(ticket.remaining_qty_per_date).map(([date, left]) => ({
        date: formatEventDate(date, lang),
        left: left.remaining_quantity,
      })),
    })),
  };
}

export default function EventDetails() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <div className="c-stack">
        {page.imageUrl ? <img className="event-hero" src={page.imageUrl} alt="" /> : null}
        <h1 className="c-title">{page.title}</h1>
        {page.description ? <p className="event-description">{page.description}</p> : null}
        {page.location || page.mapUrl ? (
          <Card>
            <h2 className="c-subtitle">{t("events_public.details.location")}</h2>
            {page.location ? <p>{page.location}</p> : null}
            {page.mapUrl ? (
              <a className="c-link" href={page.mapUrl} target="_blank" rel="noopener noreferrer">
                {t("events_public.details.open_map")}
              </a>
            ) : null}
          </Card>
        ) : null}
        <Card>
          <h2 className="c-subtitle">{t("events_public.details.dates")}</h2>
          {page.dates.length ? (
            <ul>
              {page.dates.map((date) => (
                <li key={date}>{date}</li>
              ))}
            </ul>
          ) : (
            <p className="c-dimmed">{t("events_public.details.no_dates")}</p>
          )}
        </Card>
        <Card>
          <div className="c-stack">
            <h2 className="c-subtitle">{t("events_public.details.tickets")}</h2>
            {page.tickets.map((ticket) => (
              <div key={ticket.id} className="c-stack c-stack--tight">
                <p className="c-strong">
                  {ticket.name} — <Amount className="event-price">{ticket.price ?? t("events_public.free")}</Amount>
                </p>
                <p className="c-small c-dimmed">{ticket.slot}</p>
                <ul className="c-small">
                  {ticket.dates.map((date) => (
                    <li key={date.date}>
                      {date.date}:{" "}
                      {date.left > 0 ? (
                        t("events_public.places_left", { count: date.left })
                      ) : (
                        <span className="event-sold-out">{t("events_public.sold_out")}</span>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </Card>
        {page.bookable ? (
          <LinkButton href={`/${page.lang}/events/register/${encodeURIComponent(page.slug)}`} fullWidth>
            {t("events_public.details.register")}
          </LinkButton>
        ) : (
          <p className="event-sold-out c-center">{t("events_public.details.all_sold_out")}</p>
        )}
        <a className="c-link c-center" href={`/${page.lang}/events/leave-feedback/${encodeURIComponent(page.slug)}`}>
          {t("events_public.details.leave_feedback")}
        </a>
      </div>
    </CustomerLayout>
  );
}
