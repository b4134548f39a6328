import { Anchor, Badge, Button, Group, Stack, Tabs, Text, Textarea } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/reconciliation";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import {
  lastComparison,
  listDifferences,
  requestComparison,
  resolveDifference,
  settleDifferenceByHand,
} from "~/domain/payments/reconciliation.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage, PAGE_NAMESPACES } from "~/lib/i18n";
import { usePageTexts } from "~/lib/page-texts";
import { pageTexts } from "~/lib/page-texts.server";
import { formatAmount } from "~/lib/money";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requireSuperuser, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

const PAGE_SIZE = 25;

const Resolution = {
  id: z.coerce.number().int().positive(),
  note: z.string().trim().min(1, "reconciliation.errors.note_required").max(500, "reconciliation.errors.note_long"),
};

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("compare") }),
  z.object({ intent: z.literal("resolve"), ...Resolution }),
  // An operation the gateway never answered for, settled by a person who checked with the bank.
  z.object({
    intent: z.enum(["settle_done", "settle_not_done"]),
    ...Resolution,
  }),
]);

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "مطابقة الحسابات" : "Reconciliation" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requireSuperuser(auth);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const texts = pageTexts(lang, PAGE_NAMESPACES.reconciliation);
  const url = new URL(request.url);
  const resolved = url.searchParams.get("status") === "resolved";
  const page = Math.max(1, Math.min(10_000, Number(url.searchParams.get("page")) || 1));
  const db = getDbFrom(context);
  const [{ rows, count }, last] = await Promise.all([
    listDifferences(db, auth.user.merchantId, {
      resolved,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    }),
    lastComparison(db, auth.user.merchantId),
  ]);
  const amount = (value: number | null, currency: string | null) =>
    value === null || !currency ? "—" : formatAmount(value, currency, lang);
  return {
    texts,
    lang,
    resolved,
    page,
    pages: Math.max(1, Math.ceil(count / PAGE_SIZE)),
    count,
    last: last
      ? {
          at: formatDateTime(last.started_at, lang),
          finished: last.finished_at !== null,
          checked: last.checked,
          found: last.found,
          error: last.error,
        }
      : null,
    differences: rows.map((row) => ({
      id: row.id,
      gateway: row.gateway_code,
      kind: row.kind,
      reference: row.reference,
      transactionId: row.transaction_id,
      orderNo: row.order_no,
      platform: amount(row.platform_amount, row.currency_code),
      atGateway: amount(row.gateway_amount, row.currency_code),
      firstSeen: formatDateTime(row.first_seen_at, lang),
      lastSeen: formatDateTime(row.last_seen_at, lang),
      resolvedAt: row.resolved_at ? formatDateTime(row.resolved_at, lang) : null,
      resolvedBy: row.resolved_by,
      note: row.note,
      /** A person can say what the gateway could not: done or not. */
      settleable: row.kind === "operation_unresolved" && row.operation_state === "attention",
      /** Still being asked of the gateway: nothing for a person to do yet. */
      checking: row.kind === "operation_unresolved" && row.operation_state === "pending",
    })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requireSuperuser(auth);
  const db = getDbFrom(context);
  const form = Object.fromEntries(await readFormData(request));
  const parsed = ActionSchema.safeParse(form);
  const here = `/${params.lang}/reconciliation`;
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "";
    return data(
      {
        id: Number(form.id),
        error: message.startsWith("reconciliation.") ? message : "reconciliation.errors.invalid",
      },
      { status: 400 },
    );
  }
  if (parsed.data.intent === "compare") {
    // Asking a gateway about every payment of two days takes a while: the worker does it, once per merchant at a time.
    const queued = await requestComparison(db, auth.user.merchantId);
    return redirect(here, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: "success",
          message: queued ? "reconciliation.compare_queued" : "reconciliation.compare_waiting",
        }),
      },
    });
  }
  const { id, note } = parsed.data;
  const flash = (kind: "success" | "error", message: string) =>
    redirect(here, {
      headers: { "Set-Cookie": flashCookie({ kind, message }) },
    });
  if (parsed.data.intent === "resolve") {
    const resolved = await resolveDifference(db, {
      merchantId: auth.user.merchantId,
      id,
      actor: auth.user,
      note,
      ip: context.get(clientAddressContext),
    });
    if (resolved === "settle_instead") return flash("error", "reconciliation.errors.settle_instead");
    return resolved === "resolved"
      ? flash("success", "reconciliation.resolved_done")
      : flash("error", "reconciliation.errors.gone");
  }
  const done = parsed.data.intent === "settle_done";
  if (
    !(await settleDifferenceByHand(db, {
      merchantId: auth.user.merchantId,
      id,
      actor: auth.user,
      done,
      note,
    }))
  ) {
    return flash("error", "reconciliation.errors.gone");
  }
  return flash("success", done ? "reconciliation.settled_done" : "reconciliation.settled_not_done");
}

type Difference = Awaited<ReturnType<typeof loader>>["differences"][number];

export default function Reconciliation() {
  const { lang, resolved, page, pages, count, last, differences, texts } = useLoaderData<typeof loader>();
  usePageTexts(lang, texts, "reconciliation.title");
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  return (
    <Stack>
      <PageHeader title={t("reconciliation.title")} description={t("reconciliation.subtitle")}>
        <Form method="post">
          <input type="hidden" name="intent" value="compare" />
          <Button type="submit" variant="light" loading={busy}>
            {t("reconciliation.compare_now")}
          </Button>
        </Form>
      </PageHeader>
      <Text size="sm" c="dimmed" role="status">
        {last
          ? last.finished
            ? t("reconciliation.last_run", {
                at: last.at,
                checked: last.checked,
                found: last.found,
              })
            : t("reconciliation.running", { at: last.at })
          : t("reconciliation.never_run")}
        {last?.error ? ` ${t("reconciliation.not_compared")}` : null}
      </Text>
      <Tabs value={resolved ? "resolved" : "open"}>
        <Tabs.List>
          <Tabs.Tab value="open" renderRoot={(props) => <Link {...props} to={`/${lang}/reconciliation`} />}>
            {t("reconciliation.tab_open")}
          </Tabs.Tab>
          <Tabs.Tab
            value="resolved"
            renderRoot={(props) => <Link {...props} to={`/${lang}/reconciliation?status=resolved`} />}
          >
            {t("reconciliation.tab_resolved")}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Text size="sm">
        {t(resolved ? "reconciliation.count_resolved" : "reconciliation.count_open", { total: count })}
      </Text>
      <DifferenceTable differences={differences} lang={lang} resolved={resolved} />
      <ListPagination page={page} pages={pages} />
    </Stack>
  );
}

/** Each difference with both sides' amounts; open ones carry the form that resolves them with a note. */
function DifferenceTable({
  differences,
  lang,
  resolved,
}: {
  differences: Difference[];
  lang: string;
  resolved: boolean;
}) {
  const { t } = useTranslation();
  const failed = useActionData<typeof action>();
  return (
    <DataTable
      rows={differences}
      rowKey={(row) => row.id}
      empty={t(resolved ? "reconciliation.empty_resolved" : "reconciliation.empty")}
      minWidth={1000}
      columns={[
        {
          key: "seen",
          header: t("reconciliation.first_seen"),
          cell: (row) => row.firstSeen,
          nowrap: true,
        },
        {
          key: "gateway",
          header: t("reconciliation.gateway"),
          cell: (row) => <span dir="ltr">{row.gateway}</span>,
          nowrap: true,
        },
        {
          key: "kind",
          header: t("reconciliation.difference"),
          cell: (row) => (
            <Stack gap={2}>
              <Badge
                variant="light"
                color={row.kind.endsWith("unresolved") ? "orange" : "red"}
                tt="none"
                h="auto"
                py={2}
                styles={{
                  label: { whiteSpace: "normal", overflow: "visible" },
                }}
              >
                {t(`reconciliation.kinds.${row.kind}`)}
              </Badge>
              <Text size="xs" c="dimmed">
                {t(`reconciliation.explain.${row.kind}`)}
              </Text>
            </Stack>
          ),
        },
        {
          key: "reference",
          header: t("reconciliation.reference"),
          cell: (row) => <span dir="ltr">{row.reference}</span>,
        },
        {
          key: "transaction",
          header: t("reconciliation.transaction"),
          cell: (row) =>
            row.transactionId ? (
              <Anchor component={Link} to={`/${lang}/transactions/${row.transactionId}`}>
                {row.orderNo ?? row.transactionId}
              </Anchor>
            ) : (
              "—"
            ),
        },
        {
          key: "platform",
          header: t("reconciliation.platform_amount"),
          cell: (row) => <span dir="ltr">{row.platform}</span>,
          nowrap: true,
        },
        {
          key: "gateway_amount",
          header: t("reconciliation.gateway_amount"),
          cell: (row) => <span dir="ltr">{row.atGateway}</span>,
          nowrap: true,
        },
        resolved
          ? {
              key: "resolved",
              header: t("reconciliation.resolved_column"),
              cell: (row) => (
                <Stack gap={2}>
                  <Text size="sm">{row.resolvedAt}</Text>
                  <Text size="xs" c="dimmed">
                    {row.resolvedBy === "auto"
                      ? t("reconciliation.resolved_auto")
                      : t("reconciliation.resolved_by", {
                          username: row.resolvedBy,
                        })}
                  </Text>
                  {row.note ? <Text size="xs">{row.note}</Text> : null}
                </Stack>
              ),
            }
          : {
              key: "resolve",
              header: t("reconciliation.action"),
              cell: (row) =>
                row.checking ? (
                  <Text size="xs" c="dimmed">
                    {t("reconciliation.still_checking")}
                  </Text>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="id" value={row.id} />
                    <Stack gap="xs" miw={220}>
                      {/* A text area: Enter adds a line and never submits one of the buttons by accident. */}
                      <Textarea
                        name="note"
                        size="xs"
                        autosize
                        minRows={1}
                        required
                        maxLength={500}
                        aria-label={t("reconciliation.note")}
                        placeholder={t("reconciliation.note")}
                        error={failed && "id" in failed && failed.id === row.id ? t(failed.error) : undefined}
                      />
                      <Group gap="xs">
                        {row.settleable ? (
                          <>
                            <Button type="submit" size="xs" variant="default" name="intent" value="settle_done">
                              {t("reconciliation.settle_done")}
                            </Button>
                            <Button type="submit" size="xs" variant="default" name="intent" value="settle_not_done">
                              {t("reconciliation.settle_not_done")}
                            </Button>
                          </>
                        ) : (
                          <Button type="submit" size="xs" variant="default" name="intent" value="resolve">
                            {t("reconciliation.mark_resolved")}
                          </Button>
                        )}
                      </Group>
                    </Stack>
                  </Form>
                ),
            },
      ]}
    />
  );
}
