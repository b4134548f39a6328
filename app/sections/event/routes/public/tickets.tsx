import "~/styles/customer.css";
import "~/styles/pay.css";
import "./tickets.css";
import { IconDownload } from "@tabler/icons-react";
import { data, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/tickets";
import { PublicHeader } from "~/components/customer/public-header";
import { Alert, Card, LinkButton } from "~/components/pay/ui";
import { useText } from "~/components/pay/use-text";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { getDbFrom } from "~/web/request-context.server";
import { loadTicketsView, qrDataUrl, ticketsPdfPath } from "../../presentation/tickets.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "" }, { name: "robots", content: "noindex" }];
}

/**
 * A booking's tickets, for whoever holds the link of its e-mail (the uuid is the key): its event,
 * date and slot, each paid place with its QR code and number, the places still waiting for payment
 * with where to pay them, and the PDF to download. A wrong id or uuid answers 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const t = translator(lang);
  const view = await loadTicketsView(getDbFrom(context), Number(params.bookingId), params.uuid, lang);
  if (!view) return data({ found: false as const, lang, title: t("event_tickets.not_found") }, { status: 404 });
  const places = await Promise.all(
    view.places.map(async (place) => ({ ...place, qr: await qrDataUrl(place.qrContent), qrContent: undefined })),
  );
  return {
    found: true as const,
    lang,
    title: `${t("event_tickets.title")} — ${view.event}`,
    view: { ...view, places },
    pdfUrl: view.places.length > 0 ? ticketsPdfPath(lang, view.bookingId, params.uuid) : null,
  };
}

export default function Tickets() {
  const t = useText();
  const result = useLoaderData<typeof loader>();
  const location = useLocation();
  if (!result.found) {
    return (
      <main className="c-main c-main--narrow">
        <Card padding="xl" style={{ textAlign: "center" }}>
          <h1 className="c-title">{t("event_tickets.not_found")}</h1>
        </Card>
      </main>
    );
  }
  const { view } = result;
  const pendingPlaces = view.pending.reduce((sum, group) => sum + group.quantity, 0);
  const payPath = view.pending.find((group) => group.payPath)?.payPath ?? null;
  return (
    <div className="pay-page">
      {view.unit ? (
        <PublicHeader unit={view.unit} lang={result.lang} path={location.pathname + location.search} />
      ) : null}
      <main className="c-main c-main--narrow">
        <Card>
          <div className="c-stack c-stack--tight">
            <p className="c-dimmed c-small">{t("event_tickets.title")}</p>
            <h1 className="c-title" dir="auto">
              {view.event}
            </h1>
            <dl className="tickets-facts">
              <dt>{t("event_tickets.date")}</dt>
              <dd>{view.date}</dd>
              <dt>{t("event_tickets.time")}</dt>
              <dd>
                <bdi dir="ltr">{view.slot}</bdi>
              </dd>
              <dt>{t("event_tickets.ticket")}</dt>
              <dd dir="auto">{view.ticket}</dd>
              {view.location ? (
                <>
                  <dt>{t("event_tickets.location")}</dt>
                  <dd dir="auto">{view.location}</dd>
                </>
              ) : null}
              {view.customer ? (
                <>
                  <dt>{t("event_tickets.name")}</dt>
                  <dd dir="auto">{view.customer}</dd>
                </>
              ) : null}
              <dt>{t("event_tickets.booking_no")}</dt>
              <dd>{view.bookingId}</dd>
            </dl>
            {result.pdfUrl ? (
              <LinkButton href={result.pdfUrl} download fullWidth>
                <IconDownload size={18} aria-hidden />
                {t("event_tickets.download")}
              </LinkButton>
            ) : null}
          </div>
        </Card>
        {pendingPlaces > 0 ? (
          <Alert color="orange" role="status">
            <p className="c-text">{t("event_tickets.pending", { count: pendingPlaces })}</p>
            {payPath ? (
              <p className="c-text">
                <a className="c-link" href={payPath}>
                  {t("event_tickets.pay")}
                </a>
              </p>
            ) : null}
          </Alert>
        ) : null}
        {view.places.length === 0 && pendingPlaces === 0 ? (
          <Card>
            <p className="c-text">{t("event_tickets.none")}</p>
          </Card>
        ) : null}
        {view.places.map((place) => (
          <Card key={place.number}>
            <section
              className="tickets-place"
              aria-label={t("event_tickets.place_of", { n: place.position, total: place.total })}
            >
              <h2 className="c-subtitle">{t("event_tickets.place_of", { n: place.position, total: place.total })}</h2>
              <img
                className="tickets-place__qr"
                src={place.qr}
                alt={t("event_tickets.qr_alt", { n: place.position })}
                width={300}
                height={300}
              />
              <p className="c-dimmed c-small">{t("event_tickets.number")}</p>
              <p className="tickets-place__number">{place.number}</p>
              {place.scanned ? <p className="tickets-place__used">{t("event_tickets.scanned")}</p> : null}
              <p className="c-dimmed c-small">{t("event_tickets.number_hint")}</p>
            </section>
          </Card>
        ))}
        {view.places.length > 0 ? (
          <p className="c-dimmed c-small c-center">{t("event_tickets.show_at_entrance")}</p>
        ) : null}
      </main>
    </div>
  );
}
