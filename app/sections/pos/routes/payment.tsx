import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, redirect, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/payment";
import { CopyField } from "~/components/copy-field";
import { can } from "~/domain/identity/permissions";
import { runRowAction } from "~/domain/payments/transaction-actions.server";
import { platformAddresses } from "~/web/addresses.server";
import { flashCookie } from "~/web/flash.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { NO_STORE, posTitle } from "../components/page";
import { counterPaymentView, findCounterTransaction, loadCounterState } from "../presentation/counter.server";
import { languageOf, requireCounter } from "./guard.server";
import "../components/pos.css";

export function meta({ data: page, matches }: Route.MetaArgs) {
  return page
    ? posTitle(matches, "payment", { number: String(page.orderNo), amount: page.amount })
    : posTitle(matches, "section");
}

export function headers() {
  return NO_STORE;
}

/** How often the page asks where the payment stands, with JavaScript (milliseconds) and without (seconds). */
const POLL_MS = 2000;
const REFRESH_SECONDS = 3;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await requireCounter(context, request, "view");
  const db = getDbFrom(context);
  const transaction = await findCounterTransaction(db, auth.user.merchantId, params.transactionId);
  if (!transaction) notFound();
  // Cancel is the dashboard's own, under its permission.
  return {
    ...(await counterPaymentView(db, transaction, languageOf(params))),
    mayCancel: can(auth.user, "change_paymenttransaction"),
  };
}

/**
 * Cancel: the payment is withdrawn as the transactions list withdraws one (the core's cancel, its
 * permission and its audit), while nobody paid it and no attempt of the customer's is in flight
 * (that money may still come). Back to the page, which then says it can no longer be paid.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await requireCounter(context, request, "view");
  const db = getDbFrom(context);
  const lang = languageOf(params);
  const transaction = await findCounterTransaction(db, auth.user.merchantId, params.transactionId);
  if (!transaction) notFound();
  const back = `/${lang}/pos/pay/${transaction.id}`;
  const state = await loadCounterState(db, transaction);
  let message = "pos.errors.cancel_in_flight";
  let ok = false;
  if (!state.inFlight && !state.final) {
    const outcome = await runRowAction(db, {
      merchantId: auth.user.merchantId,
      user: auth.user,
      transactionId: transaction.id,
      action: "cancel",
      lang,
      baseUrl: linkBaseUrl(),
      addresses: platformAddresses(request),
    });
    ok = outcome.ok;
    message = outcome.ok
      ? outcome.code
      : outcome.code === "actions.not_available" && !can(auth.user, "change_paymenttransaction")
        ? "pos.errors.cancel_forbidden"
        : outcome.code;
  } else if (state.final) message = "pos.not_payable";
  return redirect(back, {
    status: 303,
    headers: { "Set-Cookie": flashCookie({ kind: ok ? "success" : "error", message }) },
  });
}

type Live = { state: string; final: boolean; paid: boolean; in_flight: boolean; attempt_url: string | null };

/** How the page says where a finished payment stands: only `paid` is a paid sale. */
function finishedTone(state: string) {
  return state === "paid"
    ? "green"
    : state === "authorized" || state === "cod" || state === "refunded"
      ? "orange"
      : "red";
}

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
        // Marked as background: following a payment does not keep an idle session alive.
        const answer = await fetch(`/${page.lang}/pos/pay/${page.id}/state`, {
          headers: { Accept: "application/json", "X-Background-Request": "1" },
          cache: "no-store",
        });
        if (stopped) return;
        const json =
          answer.ok && (answer.headers.get("Content-Type") ?? "").includes("application/json")
            ? ((await answer.json().catch(() => null)) as Live | null)
            : null;
        if (!json) {
          // Signed out, the section gone, or the server's error page: stop asking, and let the page
          // itself say what happened.
          stopped = true;
          window.clearInterval(timer);
          window.location.reload();
          return;
        }
        setLive(json);
      } catch {
        // Offline for a moment: the next tick asks again.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [live.final, page.id, page.lang]);
  const cancelling = useNavigation().state === "submitting";
  const newPayment = (
    <Button
      component={Link}
      to={`/${page.lang}/pos/pay`}
      size="lg"
      variant={live.final ? "filled" : "default"}
      fullWidth
    >
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
        <Badge
          size="lg"
          variant="light"
          color={live.final ? finishedTone(live.state) : "blue"}
          data-testid="pos-state"
          style={{ flexShrink: 0 }}
        >
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
      ) : live.final && (live.state === "authorized" || live.state === "cod" || live.state === "refunded") ? (
        <Stack>
          <Alert color="orange" role="status" title={t(`pos.finished.${live.state}`)}>
            {t(`pos.finished.${live.state}_help`)}
          </Alert>
          {live.attempt_url ? (
            <Button component={Link} to={live.attempt_url} size="lg" variant="light" fullWidth>
              {t("pos.view_receipt")}
            </Button>
          ) : null}
          {newPayment}
        </Stack>
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
              <img
                className="pos-qr"
                src={`data:image/svg+xml;utf8,${encodeURIComponent(page.qrSvg)}`}
                alt={t("pos.qr_alt", { amount: page.amount })}
                width={320}
                height={320}
              />
              <Group gap="xs" role="status" aria-live="polite">
                <Loader size="xs" type="dots" aria-hidden />
                <Text size="sm" c="dimmed">
                  {t(live.in_flight ? "pos.waiting_attempt" : "pos.waiting")}
                </Text>
              </Group>
            </Stack>
          </Card>
          <CopyField label={t("pos.link")} value={page.payUrl} />
          {newPayment}
          {page.mayCancel && !live.in_flight ? (
            <Form method="post" className="pos-cancel">
              <Button type="submit" size="md" variant="subtle" color="red" fullWidth loading={cancelling}>
                {t("pos.cancel")}
              </Button>
            </Form>
          ) : null}
        </>
      )}
    </Stack>
  );
}
