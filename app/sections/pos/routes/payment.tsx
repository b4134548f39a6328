import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/payment";
import { CopyField } from "~/components/copy-field";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { counterPaymentView, findCounterTransaction } from "../presentation/counter.server";
import { languageOf, requireCounter } from "./guard.server";
import "../components/pos.css";

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page ? `#${page.orderNo} · ${page.amount}` : "Point of sale" }];
}

/** How often the page asks where the payment stands, with JavaScript (milliseconds) and without (seconds). */
const POLL_MS = 2000;
const REFRESH_SECONDS = 3;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await requireCounter(context, request, "view");
  const transaction = await findCounterTransaction(getDbFrom(context), auth.user.merchantId, params.transactionId);
  if (!transaction) notFound();
  return counterPaymentView(transaction, languageOf(params));
}

type Live = { state: string; final: boolean; paid: boolean; attempt_url: string | null };

export default function PosPayment() {
  const { t } = useTranslation();
  const page = useLoaderData<typeof loader>();
  const [live, setLive] = useState<Live>(page);
  useEffect(() => setLive(page), [page]);
  // With JavaScript the page asks the server every two seconds until the payment is over.
  useEffect(() => {
    if (live.final) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      try {
        const answer = await fetch(`/${page.lang}/pos/pay/${page.id}/state`, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (!answer.ok || stopped) return;
        setLive((await answer.json()) as Live);
      } catch {
        // The next tick asks again.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [live.final, page.id, page.lang]);
  const newPayment = (
    <Button component={Link} to={`/${page.lang}/pos/pay`} size="lg" variant={live.final ? "filled" : "default"} fullWidth>
      {t("pos.new_payment")}
    </Button>
  );
  return (
    <Stack className="pos-page" gap="md">
      {/* Without JavaScript the page reloads itself until the payment is over. */}
      {live.final ? null : (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      )}
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text c="dimmed" size="sm">
            {t("pos.order_no", { number: page.orderNo })}
          </Text>
          <Title order={1} className="pos-total" dir="ltr">
            {page.amount}
          </Title>
          {page.description || page.customer ? (
            <Text size="sm" dir="auto">
              {[page.customer, page.description].filter(Boolean).join(" · ")}
            </Text>
          ) : null}
        </div>
        <Badge size="lg" variant="light" color={live.paid ? "green" : live.final ? "red" : "blue"} data-testid="pos-state" style={{ flexShrink: 0 }}>
          {t(`states.${live.state}`)}
        </Badge>
      </Group>
      {live.paid ? (
        <Card withBorder padding="xl" className="pos-paid" role="status">
          <Stack align="center" gap="sm">
            <IconCircleCheck size={72} color="var(--mantine-color-green-7)" aria-hidden />
            <Title order={2} fz="h1" c="green.8">
              {t("pos.paid")}
            </Title>
            <Text>{t("pos.paid_help")}</Text>
            {live.attempt_url ? (
              <Button component={Link} to={live.attempt_url} size="lg" variant="light" fullWidth>
                {t("pos.view_receipt")}
              </Button>
            ) : null}
            {newPayment}
          </Stack>
        </Card>
      ) : live.final ? (
        <Stack>
          <Alert color="red" role="status" title={t("pos.not_payable")}>
            {t("pos.not_payable_help")}
          </Alert>
          {newPayment}
        </Stack>
      ) : (
        <>
          <Card withBorder padding="md">
            <Stack align="center" gap="sm">
              <Text fw={600} ta="center">
                {t("pos.scan")}
              </Text>
              <img className="pos-qr" src={`data:image/svg+xml;utf8,${encodeURIComponent(page.qrSvg)}`} alt={t("pos.qr_alt", { amount: page.amount })} width={320} height={320} />
              <Group gap="xs" role="status" aria-live="polite">
                <Loader size="xs" type="dots" aria-hidden />
                <Text size="sm" c="dimmed">
                  {t("pos.waiting")}
                </Text>
              </Group>
            </Stack>
          </Card>
          <CopyField label={t("pos.link")} value={page.payUrl} />
          {newPayment}
        </>
      )}
    </Stack>
  );
}
