import { Anchor, Badge, Button, Group, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/codes";
import { DataTable } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { StateBadge } from "~/components/state-badge";
import { formatDateTime } from "~/lib/format";
import { formatAmount } from "~/lib/money";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { PairingNav } from "../components/pairing-nav";
import { deactivateCode, listCodes, revealPair } from "../domain/codes.server";
import { displayCode, maskPair } from "../domain/normalize";
import { guardPairingPage, REVEAL_PERMISSION } from "../presentation/guard.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "رموز الربط" : "Pairing codes" }];
}

const STATE_COLORS = { active: "green", used_up: "gray", expired: "orange", inactive: "red" } as const;

/** The merchant's codes: the code and its paired value (masked), what it leads to, its uses and their payments, its state. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange, canReveal } = await guardPairingPage(context, request, params, "codes");
  const rows = await listCodes(getDbFrom(context), auth.user.merchantId);
  return {
    lang,
    canChange,
    canReveal,
    rows: rows.map((row) => ({
      id: row.id,
      code: displayCode(row.code),
      pair: maskPair(row.pair),
      amount: formatAmount(row.amount, row.currency_code, lang),
      description: row.description,
      uses: row.uses,
      maxUses: row.max_uses,
      paid: row.paid,
      payments: row.payments.slice(0, 5),
      more: Math.max(0, row.payments.length - 5),
      expires: row.expires_at ? formatDateTime(row.expires_at, lang) : null,
      state: row.state,
    })),
  };
}

/**
 * Reveal: one code's paired value in full, for staff who may (audited each time). Deactivate: the
 * code is refused from now on; the payments it made stay.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardPairingPage(context, request, params, "codes");
  const form = await readFormData(request);
  const id = /^\d{1,10}$/.test(String(form.get("id") ?? "")) ? Number(form.get("id")) : null;
  const actor = { id: auth.user.id, username: auth.user.username };
  const intent = form.get("intent");
  if (intent === "reveal") {
    requirePermission(auth, REVEAL_PERMISSION);
    const revealed =
      id === null
        ? undefined
        : await revealPair(getDbFrom(context), {
            merchantId: auth.user.merchantId,
            actor,
            id,
            ip: context.get(clientAddressContext),
          });
    if (!revealed) notFound();
    return { revealed };
  }
  if (intent !== "deactivate") throw new Response(null, { status: 400 });
  requirePermission(auth, "add_paymenttransaction");
  const done =
    id !== null &&
    (await deactivateCode(getDbFrom(context), {
      merchantId: auth.user.merchantId,
      actor,
      id,
      ip: context.get(clientAddressContext),
    }));
  const flash = done
    ? { kind: "success" as const, message: "code_pairing.codes.deactivated" }
    : { kind: "error" as const, message: "code_pairing.codes.not_deactivated" };
  return redirect(`/${lang}/code-pairing/codes`, { status: 303, headers: { "Set-Cookie": flashCookie(flash) } });
}

export default function Codes() {
  const { t } = useTranslation();
  const { lang, canChange, canReveal, rows } = useLoaderData<typeof loader>();
  const revealed = useActionData<typeof action>()?.revealed;
  return (
    <Stack gap="md">
      <PageHeader title={t("code_pairing.codes.title")} description={t("code_pairing.codes.intro")}>
        <Group gap="sm">
          <Button component="a" href={`/${lang}/code-pairing/codes/export.csv`} variant="default">
            {t("code_pairing.codes.export")}
          </Button>
          {canChange ? (
            <Button component={Link} to={`/${lang}/code-pairing/codes/new`}>
              {t("code_pairing.codes.new")}
            </Button>
          ) : null}
        </Group>
      </PageHeader>
      <PairingNav lang={lang} current="codes" />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("code_pairing.codes.empty")}
        minWidth={980}
        columns={[
          {
            key: "code",
            header: t("code_pairing.fields.code"),
            cell: (row) => (
              <Text size="sm" ff="monospace" dir="ltr">
                {row.code}
              </Text>
            ),
            nowrap: true,
          },
          {
            key: "pair",
            header: t("code_pairing.fields.pair"),
            cell: (row) =>
              revealed?.id === row.id ? (
                <Text size="sm" dir="ltr" data-revealed="true">
                  {revealed.pair}
                </Text>
              ) : (
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" dir="ltr">
                    {row.pair}
                  </Text>
                  {canReveal ? (
                    <Form method="post">
                      <input type="hidden" name="id" value={row.id} />
                      <Button
                        type="submit"
                        name="intent"
                        value="reveal"
                        size="compact-xs"
                        variant="subtle"
                        aria-label={t("code_pairing.codes.reveal_code", { code: row.code })}
                      >
                        {t("code_pairing.codes.reveal")}
                      </Button>
                    </Form>
                  ) : null}
                </Group>
              ),
            nowrap: true,
          },
          {
            key: "leads",
            header: t("code_pairing.codes.leads_to"),
            cell: (row) => (
              <Stack gap={0}>
                <Text size="sm" dir="ltr" style={{ unicodeBidi: "isolate" }}>
                  {row.amount}
                </Text>
                {row.description ? (
                  <Text size="xs" c="dimmed" dir="auto">
                    {row.description}
                  </Text>
                ) : null}
              </Stack>
            ),
          },
          {
            key: "uses",
            header: t("code_pairing.codes.uses"),
            cell: (row) => (
              <Text size="sm">{t("code_pairing.codes.uses_count", { uses: row.uses, max: row.maxUses })}</Text>
            ),
            nowrap: true,
          },
          {
            key: "payments",
            header: t("code_pairing.codes.payments"),
            cell: (row) =>
              row.payments.length ? (
                <Stack gap={4}>
                  <Text size="xs" c="dimmed">
                    {t("code_pairing.codes.paid_count", { paid: row.paid, total: row.payments.length + row.more })}
                  </Text>
                  {row.payments.map((payment) => (
                    <Group key={payment.id} gap={6} wrap="nowrap">
                      <Anchor component={Link} to={`/${lang}/payment-request/transactions/${payment.id}`} size="sm">
                        #{payment.orderNo}
                      </Anchor>
                      <StateBadge state={payment.state} />
                    </Group>
                  ))}
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  —
                </Text>
              ),
          },
          {
            key: "expires",
            header: t("code_pairing.fields.expires_at"),
            cell: (row) => <Text size="sm">{row.expires ?? t("code_pairing.codes.no_expiry")}</Text>,
            nowrap: true,
          },
          {
            key: "state",
            header: t("code_pairing.codes.state"),
            cell: (row) => (
              <Badge color={STATE_COLORS[row.state]} variant="light">
                {t(`code_pairing.states.${row.state}`)}
              </Badge>
            ),
            nowrap: true,
          },
          {
            key: "actions",
            header: "",
            cell: (row) =>
              canChange && row.state !== "inactive" ? (
                <Form method="post">
                  <input type="hidden" name="id" value={row.id} />
                  <Button
                    type="submit"
                    name="intent"
                    value="deactivate"
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={t("code_pairing.codes.deactivate_code", { code: row.code })}
                  >
                    {t("code_pairing.codes.deactivate")}
                  </Button>
                </Form>
              ) : null,
            nowrap: true,
          },
        ]}
      />
    </Stack>
  );
}
