import { Anchor, Button, Group, Stack } from "@mantine/core";
import { IconPrinter } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/attempt-detail";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { NO_STORE, posTitle } from "../components/page";
import { findCounterAttempt, receiptView } from "../presentation/counter.server";
import { languageOf, requireCounter } from "./guard.server";
import "../components/pos.css";

export function meta({ matches }: Route.MetaArgs) {
  return posTitle(matches, "receipt");
}

export function headers() {
  return NO_STORE;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await requireCounter(context, request, "view");
  const db = getDbFrom(context);
  const found = await findCounterAttempt(db, auth.user.merchantId, params.attemptId);
  if (!found) notFound();
  return receiptView(db, found, languageOf(params));
}

/**
 * The attempt's result as a receipt: on screen inside the dashboard, and printed alone on an 80 mm
 * roll (pos.css: the page's frame is left out of print). Print asks the browser to print; without
 * JavaScript the browser's own Print gives the same receipt.
 */
export default function PosAttemptDetail() {
  const { t } = useTranslation();
  const receipt = useLoaderData<typeof loader>();
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  return (
    <Stack className="pos-page" gap="md">
      {/* An 80 mm roll as long as the receipt: CSS has no "as long as the content" page size. */}
      <style>{`@media print { @page { size: 80mm ${receipt.paperMm}mm; margin: 0; } }`}</style>
      <section className="pos-receipt" data-outcome={receipt.outcome} aria-labelledby="pos-receipt-title">
        <p className="pos-receipt__merchant" dir="auto">
          {receipt.merchant}
        </p>
        <h1 id="pos-receipt-title" className="pos-receipt__outcome">
          {t(`pos.outcomes.${receipt.outcome}`)}
        </h1>
        <p className="pos-receipt__amount" dir="ltr">
          {receipt.amount}
        </p>
        {receipt.description ? (
          <p className="pos-receipt__description" dir="auto">
            {receipt.description}
          </p>
        ) : null}
        <dl className="pos-receipt__rows">
          {receipt.rows.map(([label, value]) => (
            <div key={label} className="pos-receipt__row">
              <dt>{label}</dt>
              <dd dir="auto">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="pos-receipt__thanks">{t("pos.thanks")}</p>
      </section>
      <Group className="pos-no-print" grow preventGrowOverflow={false}>
        {scripted ? (
          <Button size="lg" leftSection={<IconPrinter size={20} aria-hidden />} onClick={() => window.print()}>
            {t("pos.print")}
          </Button>
        ) : null}
        <Button component={Link} to={`/${receipt.lang}/pos/pay`} size="lg" variant="default">
          {t("pos.new_payment")}
        </Button>
      </Group>
      <noscript>
        <p className="pos-no-print">{t("pos.print_without_js")}</p>
      </noscript>
      <Anchor
        className="pos-no-print"
        component={Link}
        to={`/${receipt.lang}/pos/pay/${receipt.transactionId}`}
        size="sm"
      >
        {t("pos.back_to_payment")}
      </Anchor>
    </Stack>
  );
}
