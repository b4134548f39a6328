import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  NativeSelect,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/bookings";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { can } from "~/domain/identity/permissions";
import { isLanguage } from "~/lib/i18n";
import { formatCount } from "~/lib/format";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { canExportBookings, requestBookingExport } from "../domain/booking-export.server";
import { ATTENDANCE, BOOKING_PAGE_SIZES } from "../domain/booking-filters";
import {
  ALL_CEILING,
  bookingFilterChoices,
  bookingStatistics,
  listBookings,
  merchantEventFields,
  parseBookingQuery,
} from "../domain/booking-list.server";
import { bookingView, resendBookingMail } from "../domain/bookings.server";
import { idOf, presentBookingRow } from "../presentation/bookings.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الحجوزات" : "Bookings" }];
}

async function guard({ context, request }: { context: Route.LoaderArgs["context"]; request: Request }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "event", "bookings");
  requirePermission(auth, "view_booking");
  return auth;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const url = new URL(request.url);
  const query = parseBookingQuery(url.searchParams);
  const merchantId = auth.user.merchantId;
  const eventId = query.filters.event;
  const [events, tickets, dates, fields] = await Promise.all([
    bookingFilterChoices(db, merchantId, "event", ""),
    eventId ? bookingFilterChoices(db, merchantId, "ticket", String(eventId)) : Promise.resolve([]),
    eventId ? bookingFilterChoices(db, merchantId, "event_date", String(eventId)) : Promise.resolve([]),
    eventId ? merchantEventFields(db, merchantId, eventId) : Promise.resolve([]),
  ]);
  // A ticket of another event (the event was changed) is no filter at all.
  if (query.filters.ticket !== undefined && !tickets.some((ticket) => ticket.value === String(query.filters.ticket))) {
    delete query.filters.ticket;
    delete query.raw.ticket;
  }
  const [list, tiles] = await Promise.all([
    listBookings(db, { merchantId, filters: query.filters, page: query.page, pageSize: query.pageSize }),
    bookingStatistics(db, merchantId, query.filters),
  ]);
  // After a paid booking is made, the link its customer pays with.
  const createdId = idOf(url.searchParams.get("created"));
  const created = createdId ? await bookingView(db, merchantId, createdId) : undefined;
  const pending = created?.items.find((item) => item.status === "pending" && item.transaction_id);
  const title = (choice: { title_en: string; title_ar: string }) => (lang === "ar" ? choice.title_ar : choice.title_en);
  return {
    lang,
    raw: query.raw,
    errors: query.errors,
    page: query.page,
    pageSize: query.pageSize,
    pages: query.pageSize === "all" ? 1 : Math.max(1, Math.ceil(list.count / query.pageSize)),
    count: list.count,
    // "All" shows at most this many: said beside the list rather than left for staff to find out.
    capped: query.pageSize === "all" && list.count > ALL_CEILING ? ALL_CEILING : null,
    tiles,
    events: events.map((choice) => ({ value: choice.value, label: title(choice) })),
    tickets: tickets.map((choice) => ({ value: choice.value, label: title(choice) })),
    dates: dates.map((choice) => choice.value),
    fields: fields.map((field) => ({ name: field.name, label: lang === "ar" ? field.label_ar : field.label_en })),
    rows: list.rows.map((row) => presentBookingRow(row, lang)),
    canExport: canExportBookings(auth.user),
    canCreate: can(auth.user, "add_booking"),
    canChange: can(auth.user, "change_booking"),
    created: created
      ? {
          id: created.booking.id,
          payLink: pending?.transaction_id
            ? payUrlOf(linkBaseUrl(), created.booking.lang, pending.transaction_id)
            : null,
        }
      : null,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const form = await readFormData(request);
  const back = String(form.get("query") ?? "").slice(0, 2000);
  const here = `/${lang}/event/bookings${back ? `?${back}` : ""}`;
  switch (form.get("intent")) {
    case "send_email": {
      // Mailing a customer is a change of the booking's, not a reading of it.
      if (!can(auth.user, "change_booking")) throw data({ reason: "forbidden" }, { status: 403 });
      const id = idOf(form.get("booking_id"));
      const sent = id
        ? await resendBookingMail(db, {
            merchantId: auth.user.merchantId,
            actor: { id: auth.user.id, username: auth.user.username },
            id,
          })
        : false;
      if (!sent) throw data({ reason: "not_found" }, { status: 404 });
      return redirect(here, {
        headers: { "Set-Cookie": flashCookie({ kind: "success", message: "bookings.email_sent" }) },
      });
    }
    case "export": {
      const outcome = await requestBookingExport(db, {
        merchantId: auth.user.merchantId,
        user: auth.user,
        query: back,
        fileFormat: String(form.get("file_format") ?? ""),
        language: lang,
        ip: context.get(clientAddressContext),
      });
      if (!outcome.ok && outcome.code === "forbidden") throw data({ reason: "forbidden" }, { status: 403 });
      if (!outcome.ok)
        return redirect(here, {
          headers: { "Set-Cookie": flashCookie({ kind: "error", message: "bookings.export_refused" }) },
        });
      return redirect(`/${lang}/generated-reports?id=${outcome.id}`);
    }
    default:
      throw data({ reason: "unknown_intent" }, { status: 400 });
  }
}

export default function Bookings() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const { lang, rows, fields, page, pages, count, tiles, created } = loaded;
  const { search } = useLocation();
  const query = new URLSearchParams(search);
  query.delete("created");
  const here = query.toString();
  return (
    <Stack gap="md">
      <PageHeader title={t("bookings.title")} description={t("bookings.subtitle")}>
        <Group gap="sm">
          <Anchor component={Link} to={`/${lang}/event/events`}>
            {t("bookings.manage_events")}
          </Anchor>
          {loaded.canCreate ? (
            <Button component={Link} to={`/${lang}/event/create`} size="sm">
              {t("bookings.create")}
            </Button>
          ) : null}
        </Group>
      </PageHeader>
      {created ? (
        <Alert color="green" role="status">
          <Text size="sm">{t("bookings.created_notice", { id: created.id })}</Text>
          {created.payLink ? (
            <Text size="sm" mt={4}>
              {t("bookings.pay_link")}{" "}
              <Anchor href={created.payLink} dir="ltr" style={{ overflowWrap: "anywhere" }}>
                {created.payLink}
              </Anchor>
            </Text>
          ) : null}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {(["booked", "attended", "not_attended"] as const).map((tile) => (
          <Paper key={tile} withBorder p="md" data-tile={tile}>
            <Text size="sm" c="dimmed">
              {t(`bookings.tiles.${tile}`)}
            </Text>
            <Text fw={700} size="xl">
              {formatCount(tiles[tile], lang)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <FilterForm />
      {loaded.canExport ? (
        <Form method="post">
          <input type="hidden" name="intent" value="export" />
          <input type="hidden" name="query" value={here} />
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {t("bookings.export")}
            </Text>
            <Button type="submit" name="file_format" value="csv" variant="default" size="xs">
              CSV
            </Button>
            <Button type="submit" name="file_format" value="xls" variant="default" size="xs">
              XLS
            </Button>
          </Group>
        </Form>
      ) : null}
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("bookings.empty")}
        minWidth={1100}
        columns={[
          {
            key: "event",
            header: t("bookings.columns.event"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/event/bookings/${row.id}`}>
                {row.event}
              </Anchor>
            ),
          },
          { key: "quantity", header: t("bookings.columns.quantity"), cell: (row) => formatCount(row.quantity, lang) },
          { key: "full_name", header: t("bookings.columns.full_name"), cell: (row) => row.fullName || "—" },
          {
            key: "purchase_type",
            header: t("bookings.columns.purchase_type"),
            cell: (row) => t(row.isFree ? "bookings.purchase_types.free" : "bookings.purchase_types.paid"),
          },
          { key: "email", header: t("bookings.columns.email"), cell: (row) => <bdi>{row.email}</bdi> },
          {
            key: "event_date",
            header: t("bookings.columns.event_date"),
            cell: (row) => <bdi dir="ltr">{row.eventDate}</bdi>,
            nowrap: true,
          },
          {
            key: "created",
            header: t("bookings.columns.created"),
            cell: (row) => <bdi dir="ltr">{row.created}</bdi>,
            nowrap: true,
          },
          {
            key: "customer_phone",
            header: t("bookings.columns.customer_phone"),
            cell: (row) => (row.phone ? <bdi dir="ltr">{row.phone}</bdi> : "—"),
            nowrap: true,
          },
          ...fields.map((field) => ({
            key: `extra-${field.name}`,
            header: field.label,
            cell: (row: (typeof rows)[number]) => row.extra[field.name] ?? "—",
          })),
          ...(loaded.canChange
            ? [
                {
                  key: "actions",
                  header: t("bookings.columns.actions"),
                  cell: (row: (typeof rows)[number]) => (
                    <Form method="post">
                      <input type="hidden" name="intent" value="send_email" />
                      <input type="hidden" name="booking_id" value={row.id} />
                      <input type="hidden" name="query" value={here} />
                      <Button type="submit" variant="subtle" size="compact-sm">
                        {t("bookings.send_email")}
                      </Button>
                    </Form>
                  ),
                },
              ]
            : []),
        ]}
      />
      {loaded.capped ? (
        <Text size="sm" c="dimmed" role="status">
          {t("bookings.all_capped", { count: loaded.capped })}
        </Text>
      ) : null}
      <ListPagination page={page} pages={pages} count={t("bookings.count", { total: count })} />
    </Stack>
  );
}

/** The filters, the search and the rows per page as one GET form: everything lands in the query string. */
function FilterForm() {
  const { t } = useTranslation();
  const { raw, errors, events, tickets, dates, count, pageSize } = useLoaderData<typeof loader>();
  const any = { value: "", label: t("bookings.filters.any") };
  const error = (name: string) => (errors[name] ? t(errors[name]) : undefined);
  const text = (name: string, label: string, type = "text") => (
    <TextInput
      name={name}
      label={label}
      type={type}
      defaultValue={raw[name] ?? ""}
      error={error(name)}
      aria-invalid={errors[name] ? true : undefined}
    />
  );
  return (
    <Card withBorder padding="md">
      <Form method="get" role="search" aria-label={t("bookings.filters.title")}>
        <Stack gap="sm">
          <TextInput
            name="q"
            type="search"
            label={t("bookings.filters.q")}
            description={t("bookings.filters.q_help")}
            defaultValue={raw.q ?? ""}
          />
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <NativeSelect
              name="event"
              label={t("bookings.filters.event")}
              defaultValue={raw.event ?? ""}
              data={[any, ...events]}
              onChange={(event) => {
                // The ticket and the date belong to the event: a new event starts without them.
                const form = event.currentTarget.form;
                for (const name of ["ticket", "event_date"]) {
                  const field = form?.elements.namedItem(name);
                  if (field instanceof HTMLSelectElement) field.value = "";
                }
              }}
            />
            {raw.event ? (
              <NativeSelect
                name="ticket"
                label={t("bookings.filters.ticket")}
                defaultValue={raw.ticket ?? ""}
                data={[any, ...tickets]}
              />
            ) : null}
            {raw.event ? (
              <NativeSelect
                name="event_date"
                label={t("bookings.filters.event_date")}
                defaultValue={raw.event_date ?? ""}
                data={[any, ...dates.map((date) => ({ value: date, label: date }))]}
              />
            ) : null}
            {text("email", t("bookings.filters.email"))}
            {text("customer_phone", t("bookings.filters.customer_phone"))}
            {text("full_name", t("bookings.filters.full_name"))}
            {text("created_after", t("bookings.filters.created_after"), "date")}
            {text("created_before", t("bookings.filters.created_before"), "date")}
            <NativeSelect
              name="attendance"
              label={t("bookings.filters.attendance")}
              defaultValue={raw.attendance ?? ""}
              data={[any, ...ATTENDANCE.map((value) => ({ value, label: t(`bookings.attendance.${value}`) }))]}
              error={error("attendance")}
            />
          </SimpleGrid>
          <Radio.Group name="page_size" label={t("bookings.filters.page_size")} defaultValue={String(pageSize)}>
            <Group gap="md" mt={4}>
              {BOOKING_PAGE_SIZES.filter((size) => count > size || size === pageSize).map((size) => (
                <Radio key={size} value={String(size)} label={String(size)} />
              ))}
              <Radio value="all" label={t("bookings.filters.all")} />
            </Group>
          </Radio.Group>
          <Group gap="sm">
            <Button type="submit">{t("bookings.filters.apply")}</Button>
            <Button component={Link} to="?" variant="subtle">
              {t("bookings.filters.clear")}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
