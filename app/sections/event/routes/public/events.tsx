import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/events-public.css";
import { useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/events";
import { useText } from "~/components/pay/use-text";
import { Card } from "~/components/pay/ui";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { listPublicEvents } from "../../domain/public-events.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { formatEventDate } from "../../components/public/public-format";
import { languageOf } from "./event-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الفعاليات" : "Events" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const merchant = new URL(request.url).searchParams.get("merchant");
  const merchantId = merchant && /^\d{1,10}$/.test(merchant) ? Number(merchant) : undefined;
  const [events, unit] = await Promise.all([
    listPublicEvents(db, { merchantId, lang }),
    merchantId === undefined ? null : loadUnitHeader(db, { merchant_id: merchantId, unit_id: null }, lang),
  ]);
  return {
    lang,
    unit,
    events: events.map((event) => ({
      slug: event.slug,
      title: event.title,
      location: event.location,
      imageUrl: event.imageUrl,
      price: event.isFree ? null : formatAmount(event.fromPrice, event.currency, lang),
      dates: event.dates.slice(0, 3).map((date) => formatEventDate(date, lang)),
      moreDates: Math.max(0, event.dates.length - 3),
    })),
  };
}

export default function Events() {
  const t = useText();
  const { lang, unit, events } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <CustomerLayout unit={unit} lang={lang} path={location.pathname + location.search}>
      <div className="c-stack">
        <h1 className="c-title">{t("events_public.list.title")}</h1>
        {events.length === 0 ? (
          <Card>
            <p className="c-dimmed">{t("events_public.list.empty")}</p>
          </Card>
        ) : (
          <div className="events-grid">
            {events.map((event) => (
              <a
                key={event.slug}
                className="c-card event-card"
                href={`/${lang}/events/${encodeURIComponent(event.slug)}`}
              >
                {event.imageUrl ? (
                  <img className="event-card__image" src={event.imageUrl} alt="" loading="lazy" />
                ) : null}
                <div className="event-card__body">
                  <h2 className="c-subtitle">{event.title}</h2>
                  <p className="c-small">
                    {event.dates.join(" · ")}
                    {event.moreDates ? ` ${t("events_public.list.more_dates", { count: event.moreDates })}` : ""}
                  </p>
                  {event.location ? <p className="c-small c-dimmed">{event.location}</p> : null}
                  <p className="event-price">
                    {event.price ? t("events_public.list.from_price", { price: event.price }) : t("events_public.free")}
                  </p>
                </div>
              </a>
            ))}
          </div>
        )}
      </div>
    </CustomerLayout>
  );
}
