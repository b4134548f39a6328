import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/booking";
import { CopyField } from "~/components/copy-field";
import { PageHeader } from "~/components/page-header";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { can } from "~/domain/identity/permissions";
import { isLanguage } from "~/lib/i18n";
import { formatDateTime } from "~/lib/format";
import { formatAmount } from "~/lib/money";
import { platformAddresses } from "~/web/addresses.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { ticketAvailability } from "../domain/availability.server";
import { bookingView, cancelBooking, changeBookingEmail, changeBookingPlaces } from "../domain/bookings.server";
import { PaymentReturns } from "~/components/payment-returns";
import { paymentReturnsView } from "~/presentation/payment-returns.server";
import { BookingEmailSchema, BookingPlacesSchema, cancelNotice, fieldErrorsOf } from "../presentation/booking-forms";
import { idOf, refusalErrors } from "../presentation/bookings.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? `الحجز ${params.id}` : `Booking ${params.id}` }];
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
  const id = idOf(params.id);
  const view = id ? await bookingView(db, auth.user.merchantId, id) : undefined;
  if (!view) notFound();
  const { booking, event } = view;
  const tickets = await ticketAvailability(db, event.id);
  const name = (row: { name_en: string; name_ar: string }) => (lang === "ar" ? row.name_ar : row.name_en);
  return {
    lang,
    confirmCancel: new URL(request.url).searchParams.get("confirm") === "cancel",
    canChange: can(auth.user, "change_booking"),
    paymentReturns: await paymentReturnsView(
      db,
      auth.user.merchantId,
      view.items.map((item) => item.transaction_id),
      lang,
    ),
    booking: {
      id: booking.id,
      event: lang === "ar" ? event.title_ar : event.title_en,
      eventDate: booking.event_date,
      created: formatDateTime(booking.created_at, lang),
      email: booking.email,
      firstName: booking.customer_first_name,
      lastName: booking.customer_last_name,
      phone: booking.customer_phone,
      ticketId: booking.ticket_id,
      hasAttachment: Boolean(booking.attachment_path),
      live: view.quantity > 0,
      // Changes with every saved change: the edit forms then start over from the saved booking.
      version: booking.updated_at,
    },
    extra: view.fields.map((field) => ({
      name: field.name,
      label: lang === "ar" ? field.label_ar : field.label_en,
      value: view.extra[field.name] ?? "",
    })),
    items: view.items.map((item) => ({
      id: item.id,
      ticket: name(item),
      slot: `${item.start_time}–${item.end_time}`,
      date: item.event_date,
      quantity: item.quantity,
      status: item.status,
      transactionId: item.transaction_id,
      // Places waiting for payment: the link to give the customer (also in the booking e-mail).
      payUrl:
        item.status === "pending" && item.transaction_id ? payUrlOf(linkBaseUrl(), lang, item.transaction_id) : null,
    })),
    members: view.members
      .filter((member) => !member.canceled)
      .map((member) => ({ number: member.number, purchased: member.is_purchased, scanned: member.is_qr_scanned })),
    tickets: tickets.map((ticket) => ({
      id: ticket.id,
      name: name(ticket),
      price: formatAmount(ticket.price, event.currency_code, lang),
      slot: `${ticket.start_time}–${ticket.end_time}`,
      left: ticket.remaining_qty_per_date,
    })),
    dates: [...new Set(tickets.flatMap((ticket) => Object.keys(ticket.remaining_qty_per_date)))].sort(),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  requirePermission(auth, "change_booking");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const id = idOf(params.id);
  if (!id) notFound();
  const form = await readFormData(request);
  const actor = { id: auth.user.id, username: auth.user.username };
  const intent = form.get("intent");
  if (intent === "cancel") {
    const outcome = await cancelBooking(db, {
      merchantId: auth.user.merchantId,
      actor: auth.user,
      id,
      addresses: platformAddresses(request),
    });
    if (!outcome.ok) {
      if (outcome.errors.non_field_errors?.includes("api.not_found")) notFound();
      return data({ intent, errors: refusalErrors(outcome.errors, outcome.params, lang) }, { status: 400 });
    }
    return redirect(`/${lang}/event/bookings`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: cancelNotice(outcome.refunds) }) },
    });
  }
  if (intent === "email") {
    const parsed = BookingEmailSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      return data({ intent, errors: refusalErrors(fieldErrorsOf(parsed.error), undefined, lang) }, { status: 400 });
    const outcome = await changeBookingEmail(db, { merchantId: auth.user.merchantId, actor, id, ...parsed.data });
    if (!outcome.ok)
      return data({ intent, errors: refusalErrors(outcome.errors, outcome.params, lang) }, { status: 400 });
    return redirect(`/${lang}/event/bookings/${id}`, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: "success",
          message: parsed.data.resend_email ? "bookings.email_changed_sent" : "bookings.email_changed",
        }),
      },
    });
  }
  if (intent === "places") {
    const parsed = BookingPlacesSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      return data({ intent, errors: refusalErrors(fieldErrorsOf(parsed.error), undefined, lang) }, { status: 400 });
    const outcome = await changeBookingPlaces(db, {
      merchantId: auth.user.merchantId,
      actor,
      id,
      ...parsed.data,
      lang,
      baseUrl: linkBaseUrl(),
    });
    if (!outcome.ok)
      return data({ intent, errors: refusalErrors(outcome.errors, outcome.params, lang) }, { status: 400 });
    return redirect(`/${lang}/event/bookings/${id}`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "bookings.changed" }) },
    });
  }
  throw data({ reason: "unknown_intent" }, { status: 400 });
}

const stateColors = { paid: "green", pending: "orange", cancel: "red" } as const;

export default function Booking() {
  const { t } = useTranslation();
  const { lang, booking, items, members, extra, canChange, confirmCancel, paymentReturns } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const row = (label: string, value: React.ReactNode) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || "—"}</Text>
    </div>
  );
  return (
    <Stack gap="md">
      <PageHeader title={t("bookings.details_title", { id: booking.id })}>
        <Anchor component={Link} to={`/${lang}/event/bookings`}>
          {t("bookings.back")}
        </Anchor>
      </PageHeader>
      {answer?.intent === "cancel" ? (
        <Alert color="red" role="alert">
          {Object.values(answer.errors).flat().join(" ")}
        </Alert>
      ) : null}
      <PaymentReturns returns={paymentReturns} />
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {row(t("bookings.columns.event"), booking.event)}
          {row(t("bookings.details.date"), <bdi dir="ltr">{booking.eventDate}</bdi>)}
          {row(t("bookings.columns.created"), booking.created)}
          {row(t("bookings.columns.email"), <bdi>{booking.email}</bdi>)}
          {row(t("bookings.details.first_name"), booking.firstName)}
          {row(t("bookings.details.last_name"), booking.lastName)}
          {row(t("bookings.columns.customer_phone"), booking.phone ? <bdi dir="ltr">{booking.phone}</bdi> : null)}
          {extra.map((field) => (
            <div key={field.name}>{row(field.label, field.value)}</div>
          ))}
        </SimpleGrid>
        <Group mt="md" gap="sm">
          {booking.hasAttachment ? (
            <Button component="a" href={`/${lang}/event/bookings/${booking.id}/attachment`} variant="default">
              {t("bookings.download_attachment")}
            </Button>
          ) : null}
          {canChange && booking.live && !confirmCancel ? (
            <Button component={Link} to="?confirm=cancel" color="red" variant="light">
              {t("bookings.cancel")}
            </Button>
          ) : null}
        </Group>
        {canChange && booking.live && confirmCancel ? (
          <Alert color="red" mt="md" title={t("bookings.cancel_confirm")}>
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <Group gap="sm">
                <Button type="submit" color="red">
                  {t("bookings.cancel_yes")}
                </Button>
                <Button component={Link} to="?" variant="default">
                  {t("bookings.cancel_no")}
                </Button>
              </Group>
            </Form>
          </Alert>
        ) : null}
      </Card>

      <Title order={2} size="h4">
        {t("bookings.details.purchases")}
      </Title>
      <Table withTableBorder striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("bookings.details.ticket")}</Table.Th>
            <Table.Th>{t("bookings.details.slot")}</Table.Th>
            <Table.Th>{t("bookings.columns.quantity")}</Table.Th>
            <Table.Th>{t("bookings.details.state")}</Table.Th>
            <Table.Th>{t("bookings.details.transaction")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>{item.ticket}</Table.Td>
              <Table.Td>
                <bdi dir="ltr">
                  {item.date} {item.slot}
                </bdi>
              </Table.Td>
              <Table.Td>{item.quantity}</Table.Td>
              <Table.Td>
                <Badge color={stateColors[item.status]} variant="light">
                  {t(`bookings.states.${item.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                {item.transactionId ? (
                  <Anchor component={Link} to={`/${lang}/event/transactions/${item.transactionId}`} dir="ltr">
                    {item.transactionId}
                  </Anchor>
                ) : (
                  "—"
                )}
                {item.payUrl ? <CopyField label={t("bookings.details.pay_link")} value={item.payUrl} /> : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>

      <Title order={2} size="h4">
        {t("bookings.details.places")}
      </Title>
      <Table withTableBorder striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("bookings.details.number")}</Table.Th>
            <Table.Th>{t("bookings.details.purchased")}</Table.Th>
            <Table.Th>{t("bookings.details.scanned")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((member) => (
            <Table.Tr key={member.number}>
              <Table.Td>
                <code>{member.number}</code>
              </Table.Td>
              <Table.Td>{t(member.purchased ? "bookings.yes" : "bookings.no")}</Table.Td>
              <Table.Td>{t(member.scanned ? "bookings.yes" : "bookings.no")}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canChange ? <EditForms /> : null}
    </Stack>
  );
}

/** Edit (date, added places, ticket) and Edit email, as plain forms that work without JavaScript. */
function EditForms() {
  const { t } = useTranslation();
  const { booking, tickets, dates } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const errors: Record<string, string[]> = answer?.errors ?? {};
  const placesErrors = answer?.intent === "places" ? errors : {};
  const emailErrors = answer?.intent === "email" ? errors : {};
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="sm">
          {t("bookings.edit")}
        </Title>
        <Form method="post" key={booking.version}>
          <input type="hidden" name="intent" value="places" />
          <input type="hidden" name="version" value={booking.version} />
          <Stack gap="sm">
            {placesErrors.non_field_errors ? (
              <Alert color="red" role="alert">
                {placesErrors.non_field_errors.join(" ")}
              </Alert>
            ) : null}
            <NativeSelect
              name="event_date"
              label={t("bookings.edit_form.event_date")}
              defaultValue={booking.eventDate}
              data={[...new Set([booking.eventDate, ...dates])].map((date) => ({ value: date, label: date }))}
              error={placesErrors.event_date?.join(" ")}
            />
            <TextInput
              name="quantity"
              label={t("bookings.edit_form.quantity")}
              inputMode="numeric"
              pattern="[0-9]*"
              defaultValue="0"
              required
              error={placesErrors.quantity?.join(" ")}
            />
            <Radio.Group
              name="ticket"
              label={t("bookings.edit_form.ticket")}
              defaultValue={String(booking.ticketId)}
              error={placesErrors.ticket?.join(" ")}
            >
              <Stack gap={6} mt={4}>
                {tickets.map((ticket) => {
                  const left = ticket.left[booking.eventDate];
                  return (
                    <Radio
                      key={ticket.id}
                      value={String(ticket.id)}
                      label={`${ticket.name} · ${ticket.price} · ${ticket.slot}`}
                      description={
                        Object.entries(ticket.left)
                          .map(
                            ([date, place]) =>
                              `${date}: ${place.status === "soldOut" ? t("bookings.sold_out") : t("bookings.left", { count: place.remaining_quantity })}`,
                          )
                          .join(" · ") || (left ? "" : t("bookings.sold_out"))
                      }
                    />
                  );
                })}
              </Stack>
            </Radio.Group>
            <Group>
              <Button type="submit">{t("bookings.edit_form.submit")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="sm">
          {t("bookings.edit_email")}
        </Title>
        <Form method="post" key={booking.version}>
          <input type="hidden" name="intent" value="email" />
          <Stack gap="sm">
            <TextInput
              name="new_email"
              type="email"
              label={t("bookings.columns.email")}
              defaultValue={booking.email}
              required
              error={emailErrors.new_email?.join(" ")}
            />
            <input type="hidden" name="resend_email" value="off" />
            <Checkbox name="resend_email" value="on" defaultChecked label={t("bookings.resend_email")} />
            <Group>
              <Button type="submit">{t("bookings.save_email")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </SimpleGrid>
  );
}
