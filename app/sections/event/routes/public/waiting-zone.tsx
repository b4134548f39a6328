import "~/styles/customer.css";
import "~/styles/pay.css";
import { IconHourglass } from "@tabler/icons-react";
import { data, redirect, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/waiting-zone";
import { useText } from "~/components/pay/use-text";
import { Card, LinkButton } from "~/components/pay/ui";
import { now } from "~/lib/clock.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { hasWaitingZone, standInQueue } from "../../domain/waiting-zone.server";
import { queueJoinThrottled } from "../../domain/public-events.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { languageOf, requirePublishedEvent } from "./event-page.server";
import { passCookie, queueCookie, readQueueToken } from "./queue-cookies.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); the page refreshes itself. */
export const handle = { hydrate: false };

const REFRESH_SECONDS = 10;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "منطقة الانتظار" : "Waiting zone" }, { name: "robots", content: "noindex" }];
}

/**
 * A customer's place in the event's queue: let in (a signed pass in a cookie, then on to the
 * registration), or the position and an estimate, looked at again every 10 seconds.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { event, unit } = await requirePublishedEvent(db, new URL(request.url).searchParams.get("event"), lang);
  const registerUrl = `/${lang}/events/register/${encodeURIComponent(event.slug)}`;
  const token = readQueueToken(request, event.id);
  // A new place in the queue each visit without its cookie: one address may not take many.
  if (!token && hasWaitingZone(event) && (await queueJoinThrottled(db, context.get(clientAddressContext))))
    throw data(null, { status: 429, headers: { "Retry-After": "600" } });
  const standing = await standInQueue(db, event, token);
  if (standing.kind === "open") throw redirect(registerUrl, 303);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", queueCookie(request, event.id, standing.token));
  if (standing.kind === "admitted") {
    headers.append("Set-Cookie", passCookie(request, event.id, standing.pass, standing.expiresAt, now()));
    throw redirect(registerUrl, { status: 303, headers });
  }
  return data(
    {
      lang,
      unit,
      title: lang === "ar" ? event.title_ar : event.title_en,
      position: standing.position,
      minutes: standing.estimateMinutes,
    },
    { headers },
  );
}

export default function WaitingZone() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
      <Card padding="xl">
        <div className="c-stack c-center" aria-live="polite">
          <IconHourglass size={56} color="var(--mantine-color-orange-6)" aria-hidden />
          <h1 className="c-title">{t("events_public.waiting.title")}</h1>
          <p className="c-dimmed">{page.title}</p>
          <p className="c-strong">{t("events_public.waiting.position", { position: page.position })}</p>
          <p>{t("events_public.waiting.estimate", { count: page.minutes })}</p>
          <p className="c-small c-dimmed">{t("events_public.waiting.explain")}</p>
          <LinkButton href={location.pathname + location.search} variant="default">
            {t("events_public.waiting.refresh")}
          </LinkButton>
        </div>
      </Card>
    </CustomerLayout>
  );
}
