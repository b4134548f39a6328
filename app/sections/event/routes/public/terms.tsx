import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/events-public.css";
import { useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/terms";
import { useText } from "~/components/pay/use-text";
import { Card } from "~/components/pay/ui";
import { getDbFrom } from "~/web/request-context.server";
import { eventTerms } from "../../domain/public-events.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { languageOf, requirePublishedEvent } from "./event-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الشروط والأحكام" : "Terms and conditions" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { event, unit } = await requirePublishedEvent(db, new URL(request.url).searchParams.get("event"), lang);
  return {
    lang,
    unit,
    slug: event.slug,
    title: lang === "ar" ? event.title_ar : event.title_en,
    terms: await eventTerms(db, event, lang),
  };
}

export default function Terms() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <Card padding="xl">
        <div className="c-stack">
          <h1 className="c-title">{t("events_public.terms.title")}</h1>
          <p className="c-dimmed">{page.title}</p>
          <p className="event-terms">{page.terms || t("events_public.terms.none")}</p>
          <a className="c-link" href={`/${page.lang}/events/register/${encodeURIComponent(page.slug)}`}>
            {t("events_public.terms.back")}
          </a>
        </div>
      </Card>
    </CustomerLayout>
  );
}
