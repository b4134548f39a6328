import { Anchor, Badge, Group, Progress, Stack, Text } from "@mantine/core";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useRevalidator } from "react-router";
import { formatCount, formatListDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";

/** How often a page showing a run in progress reads it again (with JavaScript; without, its Refresh link does). */
const REFRESH_MS = 2_000;

/** While a bulk is being sent, its page follows the progress on its own. */
export function useRefreshWhile(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") void revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}

/** Sent out of all the messages of a bulk (or a run), as a bar and in words. */
export function SendProgress({
  sent,
  failed,
  total,
  dispatching,
  lang,
}: {
  sent: number;
  failed: number;
  total: number;
  dispatching: boolean;
  lang: Language;
}) {
  const { t } = useTranslation();
  const done = sent + failed;
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return (
    <Stack gap={4} miw={140}>
      <Progress.Root size="md" aria-hidden>
        <Progress.Section value={total === 0 ? 0 : (sent / total) * 100} color="teal" />
        <Progress.Section value={total === 0 ? 0 : (failed / total) * 100} color="red" />
      </Progress.Root>
      <Text size="xs" c="dimmed" role="status">
        {total === 0
          ? t("bulk.progress.nothing_to_send")
          : dispatching
            ? t("bulk.progress.sending", { done: formatCount(done, lang), total: formatCount(total, lang), percent })
            : t("bulk.progress.finished", { done: formatCount(done, lang), total: formatCount(total, lang) })}
      </Text>
    </Stack>
  );
}

/** A bulk's schedule: once, or weekly/monthly with its next run, or stopped. */
export function ScheduleLabel({
  schedule,
  nextRunAt,
  endedAt,
  lang,
}: {
  schedule: string;
  nextRunAt: string | null;
  endedAt: string | null;
  lang: Language;
}) {
  const { t } = useTranslation();
  if (schedule === "none")
    return (
      <Text size="sm">
        {endedAt ? t("bulk.schedule_ended", { at: formatListDateTime(endedAt, lang) }) : t("bulk.schedules.none")}
      </Text>
    );
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color="grape">
        {t(`bulk.schedules.${schedule}`)}
      </Badge>
      {nextRunAt ? <Text size="xs">{t("bulk.next_run", { at: formatListDateTime(nextRunAt, lang) })}</Text> : null}
    </Group>
  );
}

const RESULT_COLORS = { queued: "gray", sent: "teal", failed: "red" } as const;
const STATUS_COLORS = { queued: "gray", running: "blue", finished: "teal" } as const;

export function ResultBadge({ result }: { result: keyof typeof RESULT_COLORS }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={RESULT_COLORS[result]}>
      {t(`bulk.results.${result}`)}
    </Badge>
  );
}

export function RunStatusBadge({ status }: { status: keyof typeof STATUS_COLORS }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS[status]}>
      {t(`bulk.run_statuses.${status}`)}
    </Badge>
  );
}

/** A plain link to the same page: reads the progress again without JavaScript. */
export function RefreshLink() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Anchor component={Link} to={`${location.pathname}${location.search}`} size="sm" reloadDocument>
      {t("bulk.refresh")}
    </Anchor>
  );
}

/** The bulk's place in its pages: uploads › the bulk › its runs › one run. */
export function BulkTrail({
  lang,
  bulk,
  run,
}: {
  lang: Language;
  bulk?: { id: number; file_name: string };
  run?: { id: number };
}) {
  const { t } = useTranslation();
  return (
    <Group gap={6} mb="xs" aria-label={t("bulk.trail")} component="nav">
      <Anchor component={Link} to={`/${lang}/bulk/uploads`} size="sm">
        {t("bulk.uploads.title")}
      </Anchor>
      {bulk ? (
        <>
          <Text size="sm" c="dimmed" aria-hidden>
            ›
          </Text>
          <Anchor component={Link} to={`/${lang}/bulk/uploads/${bulk.id}`} size="sm">
            {bulk.file_name}
          </Anchor>
        </>
      ) : null}
      {bulk && run ? (
        <>
          <Text size="sm" c="dimmed" aria-hidden>
            ›
          </Text>
          <Anchor component={Link} to={`/${lang}/bulk/uploads/${bulk.id}/dispatch-logs`} size="sm">
            {t("bulk.dispatch_logs.title")}
          </Anchor>
        </>
      ) : null}
    </Group>
  );
}
