import "~/styles/customer.css";
import "~/styles/pay.css";
import { IconCircleCheck } from "@tabler/icons-react";
import { useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/feedback-thanks";
import { useText } from "~/components/pay/use-text";
import { Card, LinkButton } from "~/components/pay/ui";
import { getDbFrom } from "~/web/request-context.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { languageOf, requirePublishedEvent } from "./event-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "شكرًا لملاحظاتك" : "Thank you for your feedback" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const { event, unit } = await requirePublishedEvent(getDbFrom(context), params.slug, lang);
  return { lang, unit, slug: event.slug };
}

export default function FeedbackThanks() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <Card padding="xl">
        <div className="c-stack c-center">
          <IconCircleCheck size={56} color="var(--mantine-color-green-6)" aria-hidden />
          <h1 className="c-title">{t("events_public.feedback.thanks_title")}</h1>
          <p className="c-dimmed">{t("events_public.feedback.thanks_message")}</p>
          <LinkButton href={`/${page.lang}/events/${encodeURIComponent(page.slug)}`} variant="default">
            {t("events_public.feedback.back")}
          </LinkButton>
        </div>
      </Card>
    </CustomerLayout>
  );
}
