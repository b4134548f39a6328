import { Anchor, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/upload";
import { PageHeader } from "~/components/page-header";
import { formatCount, formatDateTime } from "~/lib/format";
import { formatAmount } from "~/lib/money";
import { notFound } from "~/web/guards.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { isSchedule } from "../domain/bulk-columns";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { loadBulk } from "../domain/bulk-queries.server";
import { changeSchedule, countResendable, resendFailed } from "../domain/bulk-runs.server";
import { idOf, requireBulkPage } from "../presentation/bulk-access.server";
import { BulkTrail, RefreshLink, ScheduleLabel, SendProgress, useRefreshWhile } from "../components/bulk-parts";

export function meta({ data: page, params }: Route.MetaArgs) {
  return [{ title: page?.bulk.file_name ?? (params.lang === "ar" ? "رفع طلبات الدفع" : "Bulk upload") }];
}

async function loadPage({ context, request, params }: Route.LoaderArgs | Route.ActionArgs) {
  const page = await requireBulkPage(context, request, params);
  const bulkId = idOf(params.bulkId);
  const bulk = bulkId ? await loadBulk(page.db, page.merchantId, bulkId) : undefined;
  if (!bulk) notFound();
  return { ...page, bulk };
}

/** A bulk's figures (rows, requests created, messages sent, requests paid, amount collected), its schedule, and resending what failed. */
export async function loader(args: Route.LoaderArgs) {
  const { db, lang, merchantId, bulk } = await loadPage(args);
  const [resendable, defaults] = await Promise.all([
    countResendable(db, merchantId, bulk.id),
    loadMerchantDefaults(db, merchantId),
  ]);
  return { lang, bulk, resendable, currency: defaults.currency };
}

export async function action(args: Route.ActionArgs) {
  const { db, lang, merchantId, actor, bulk } = await loadPage(args);
  const form = await readFormData(args.request);
  const here = `/${lang}/bulk/uploads/${bulk.id}`;
  switch (form.get("intent")) {
    case "resend": {
      const outcome = await resendFailed(db, { merchantId, bulkId: bulk.id, actor });
      if (!outcome.ok) return data({ intent: "resend", error: outcome.code }, { status: 400 });
      return redirect(`${here}/dispatch-logs/${outcome.dispatchLogId}/transaction-logs`, {
        status: 303,
        headers: { "Set-Cookie": flashCookie({ kind: "success", message: "bulk.resend_started" }) },
      });
    }
    case "schedule": {
      const schedule = form.get("schedule");
      if (!isSchedule(schedule)) return data({ intent: "schedule", error: "bulk.errors.schedule" }, { status: 400 });
      const outcome = await changeSchedule(db, { merchantId, bulkId: bulk.id, schedule, actor });
      if (!outcome.ok) return data({ intent: "schedule", error: outcome.code }, { status: 400 });
      return redirect(here, {
        status: 303,
        headers: { "Set-Cookie": flashCookie({ kind: "success", message: outcome.code }) },
      });
    }
    default:
      return data({ intent: "unknown", error: "bulk.errors.unknown_intent" }, { status: 400 });
  }
}

export default function BulkSummary() {
  const { t } = useTranslation();
  const { lang, bulk, resendable, currency } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  useRefreshWhile(bulk.dispatching);
  const collected = bulk.collected.length
    ? bulk.collected.map((entry) => formatAmount(entry.amount, entry.currency, lang)).join(" · ")
    : formatAmount(0, currency, lang);
  const figures = [
    { key: "rows", value: formatCount(bulk.row_count, lang) },
    { key: "created", value: formatCount(bulk.created, lang) },
    { key: "sent", value: formatCount(bulk.sent, lang) },
    { key: "paid", value: formatCount(bulk.paid, lang) },
    { key: "collected", value: collected },
  ];
  return (
    <Stack maw={1100}>
      <BulkTrail lang={lang} />
      <PageHeader
        title={bulk.file_name}
        description={t("bulk.summary.description", {
          at: formatDateTime(bulk.created_at, lang),
          by: bulk.created_by_name,
        })}
      >
        <Group gap="sm">
          <Button component={Link} to={`/${lang}/bulk/uploads/${bulk.id}/dispatch-logs`} variant="light">
            {t("bulk.dispatch_logs.title")}
          </Button>
          <Button component={Link} to={`/${lang}/bulk/transactions?bulk=${bulk.id}`} variant="light">
            {t("bulk.summary.transactions")}
          </Button>
        </Group>
      </PageHeader>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }}>
        {figures.map((figure) => (
          <Card key={figure.key} withBorder padding="md">
            <Text size="sm" c="dimmed">
              {t(`bulk.summary.figures.${figure.key}`)}
            </Text>
            <Text fw={700} fz="xl" data-figure={figure.key}>
              {figure.value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} fz="h4" mb="xs">
              {t("bulk.summary.sending")}
            </Title>
            <SendProgress
              sent={bulk.sent}
              failed={bulk.failed}
              total={bulk.messages}
              dispatching={bulk.dispatching}
              lang={lang}
            />
            <Text size="sm" mt="xs">
              {t("bulk.summary.failed", { count: bulk.failed })}
            </Text>
          </div>
          <Stack gap="xs" align="flex-end">
            {bulk.dispatching ? <RefreshLink /> : null}
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <Button type="submit" color="orange" disabled={resendable === 0 || busy}>
                {t("bulk.resend_failed", { count: resendable })}
              </Button>
            </Form>
            {answer?.intent === "resend" ? (
              <Text c="red" size="sm" role="alert">
                {t(answer.error)}
              </Text>
            ) : null}
          </Stack>
        </Group>
      </Card>
      <Card withBorder padding="lg">
        <Title order={2} fz="h4" mb="xs">
          {t("bulk.summary.schedule_title")}
        </Title>
        <ScheduleLabel schedule={bulk.schedule} nextRunAt={bulk.next_run_at} endedAt={bulk.ended_at} lang={lang} />
        <Text size="sm" c="dimmed" mt="xs">
          {t("bulk.summary.schedule_hint", { runs: bulk.runs })}
        </Text>
        <Form method="post">
          <input type="hidden" name="intent" value="schedule" />
          <Group align="flex-end" mt="sm">
            <NativeSelect
              name="schedule"
              label={t("bulk.schedule_label")}
              defaultValue={bulk.schedule}
              error={answer?.intent === "schedule" ? t(answer.error) : undefined}
              data={(["none", "weekly", "monthly"] as const).map((schedule) => ({
                value: schedule,
                label: t(`bulk.schedule_choices.${schedule}`),
              }))}
            />
            <Button type="submit" variant="light" disabled={busy}>
              {t("bulk.save_schedule")}
            </Button>
          </Group>
        </Form>
        {bulk.schedule !== "none" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="schedule" />
            <input type="hidden" name="schedule" value="none" />
            <Button type="submit" color="red" variant="subtle" mt="sm" disabled={busy}>
              {t("bulk.stop_schedule")}
            </Button>
          </Form>
        ) : null}
      </Card>
      <Anchor component={Link} to={`/${lang}/bulk/uploads`} size="sm">
        {t("bulk.back_to_uploads")}
      </Anchor>
    </Stack>
  );
}
