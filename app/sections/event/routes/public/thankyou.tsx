import "~/styles/customer.css";
import "~/styles/pay.css";
import { IconCircleCheck } from "@tabler/icons-react";
import { useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/thankyou";
import { useText } from "~/components/pay/use-text";
import { Card, LinkButton } from "~/components/pay/ui";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { languageOf } from "./event-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "شكرًا لك" : "Thank you" }];
}

export function loader({ params }: Route.LoaderArgs) {
  return { lang: languageOf(params) };
}

/** The thanks after paying for a booking: the tickets come by e-mail once the payment is confirmed. */
export default function ThankYou() {
  const t = useText();
  const { lang } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <CustomerLayout unit={null} lang={lang} path={location.pathname + location.search} narrow>
      <Card padding="xl">
        <div className="c-stack c-center">
          <IconCircleCheck size={56} color="var(--mantine-color-green-6)" aria-hidden />
          <h1 className="c-title">{t("events_public.thankyou.title")}</h1>
          <p className="c-dimmed">{t("events_public.thankyou.message")}</p>
          <LinkButton href={`/${lang}/events`} variant="default">
            {t("events_public.thankyou.more_events")}
          </LinkButton>
        </div>
      </Card>
    </CustomerLayout>
  );
}
