import { Alert, Button, Card, Group, NativeSelect, Radio, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/create";
import { PageHeader } from "~/components/page-header";
import { isLanguage } from "~/lib/i18n";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { BookingSchema } from "../domain/booking-schema";
import { createBooking } from "../domain/bookings.server";
import { fieldErrorsOf } from "../presentation/booking-forms";
import { bookingOptions } from "../presentation/booking-create.server";
import { idOf, refusalErrors } from "../presentation/bookings.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إنشاء حجز" : "Create booking" }];
}

async function guard({ context, request }: { context: Route.LoaderArgs["context"]; request: Request }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "event", "create");
  requirePermission(auth, "add_booking");
  return auth;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const url = new URL(request.url);
  const options = await bookingOptions(
    getDbFrom(context),
    auth.user.merchantId,
    idOf(url.searchParams.get("event")),
    lang,
  );
  return { lang, ...options, chosenDate: url.searchParams.get("event_date") ?? "" };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const form = await readFormData(request);
  const extra: Record<string, string | File> = {};
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form) {
    if (name.startsWith("extra.")) extra[name.slice(6)] = value;
    else if (typeof value === "string" && value.trim() !== "") fields[name] = value;
  }
  const parsed = BookingSchema.safeParse({ ...fields, extra });
  if (!parsed.success)
    return data({ errors: refusalErrors(fieldErrorsOf(parsed.error), undefined, lang) }, { status: 400 });
  const outcome = await createBooking(getDbFrom(context), {
    request: parsed.data,
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    lang,
    baseUrl: linkBaseUrl(),
  });
  if (!outcome.ok) return data({ errors: refusalErrors(outcome.errors, outcome.params, lang) }, { status: 400 });
  return redirect(`/${lang}/event/bookings?created=${outcome.booking.id}`, {
    headers: {
      "Set-Cookie": flashCookie({
        kind: "success",
        message: outcome.booking.state === "paid" ? "bookings.created" : "bookings.created_pending",
      }),
    },
  });
}

export default function CreateBooking() {
  const { t } = useTranslation();
  const { events, event, dates, tickets, gateways, fields, countryCode, chosenDate } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const errors: Record<string, string[]> = answer?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  const error = (name: string) => errors[name]?.join(" ");
  const date = dates.includes(chosenDate) ? chosenDate : dates.length === 1 ? dates[0] : "";
  return (
    <Stack maw={760}>
      <PageHeader title={t("bookings.create_title")} description={t("bookings.create_subtitle")} />
      <Card withBorder padding="lg">
        <Form method="get">
          <Group align="flex-end" gap="sm">
            <NativeSelect
              name="event"
              label={t("bookings.columns.event")}
              defaultValue={event ? String(event.id) : ""}
              data={[
                { value: "", label: t("bookings.choose_event") },
                ...events.map((row) => ({ value: String(row.id), label: row.title })),
              ]}
              style={{ flex: 1 }}
              onChange={(change) => change.currentTarget.form?.requestSubmit()}
            />
            <Button type="submit" variant="default">
              {t("bookings.continue")}
            </Button>
          </Group>
        </Form>
        {events.length === 0 ? (
          <Text size="sm" c="dimmed" mt="sm">
            {t("bookings.no_events")}
          </Text>
        ) : null}
      </Card>
      {event ? (
        <Card withBorder padding="lg">
          <Form method="post" encType="multipart/form-data">
            <input type="hidden" name="event" value={event.id} />
            <Stack gap="md">
              {errors.non_field_errors || errors.event ? (
                <Alert color="red" role="alert">
                  {[...(errors.non_field_errors ?? []), ...(errors.event ?? [])].join(" ")}
                </Alert>
              ) : null}
              {dates.length === 0 ? <Alert color="orange">{t("bookings.no_dates")}</Alert> : null}
              <NativeSelect
                name="event_date"
                label={t("bookings.columns.event_date")}
                defaultValue={date}
                required
                data={[
                  ...(dates.length > 1 ? [{ value: "", label: t("bookings.choose_date") }] : []),
                  ...dates.map((value) => ({ value, label: value })),
                ]}
                error={error("event_date")}
              />
              <Radio.Group
                name="ticket"
                label={t("bookings.edit_form.ticket")}
                required
                error={error("ticket")}
                defaultValue={tickets.length === 1 ? String(tickets[0].id) : undefined}
              >
                <Stack gap={6} mt={4}>
                  {tickets.map((ticket) => (
                    <Radio
                      key={ticket.id}
                      value={String(ticket.id)}
                      label={`${ticket.name} · ${event.isFree ? t("bookings.purchase_types.free") : ticket.price} · ${ticket.start_time}–${ticket.end_time}`}
                      description={Object.entries(ticket.remaining_qty_per_date)
                        .map(
                          ([day, left]) =>
                            `${day}: ${left.status === "soldOut" ? t("bookings.sold_out") : t("bookings.left", { count: left.remaining_quantity })}`,
                        )
                        .join(" · ")}
                    />
                  ))}
                </Stack>
              </Radio.Group>
              {!event.isFree ? (
                <NativeSelect
                  name="gateway_code"
                  label={t("bookings.gateway")}
                  data={[
                    { value: "", label: t("bookings.any_gateway") },
                    ...gateways.map((gateway) => ({ value: gateway.code, label: gateway.name })),
                  ]}
                  error={error("gateway_code")}
                />
              ) : null}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  name="quantity"
                  label={t("bookings.columns.quantity")}
                  inputMode="numeric"
                  pattern="[0-9]*"
                  required
                  defaultValue="1"
                  error={error("quantity")}
                />
                <TextInput
                  name="email"
                  type="email"
                  label={t("bookings.columns.email")}
                  required
                  error={error("email")}
                />
                <TextInput
                  name="customer_first_name"
                  label={t("bookings.details.first_name")}
                  error={error("customer_first_name")}
                />
                <TextInput
                  name="customer_last_name"
                  label={t("bookings.details.last_name")}
                  error={error("customer_last_name")}
                />
                <TextInput
                  name="customer_phone"
                  type="tel"
                  label={t("bookings.columns.customer_phone")}
                  description={t("bookings.phone_help", { country: countryCode })}
                  error={error("customer_phone")}
                />
                <input type="hidden" name="customer_phone_country" value={countryCode} />
              </SimpleGrid>
              {fields.map((field) =>
                field.type === "attachment" ? (
                  <Stack key={field.name} gap={4}>
                    <Text component="label" htmlFor={`extra-${field.name}`} size="sm" fw={500}>
                      {field.label}
                    </Text>
                    <input
                      id={`extra-${field.name}`}
                      type="file"
                      name={`extra.${field.name}`}
                      required={field.required}
                      accept="application/pdf,image/png,image/jpeg,image/webp"
                    />
                    {error(field.name) ? (
                      <Text size="sm" c="red" role="alert">
                        {error(field.name)}
                      </Text>
                    ) : null}
                  </Stack>
                ) : (
                  <TextInput
                    key={field.name}
                    name={`extra.${field.name}`}
                    label={field.label}
                    type={field.type === "phone" ? "tel" : "text"}
                    description={
                      field.type === "phone" ? t("bookings.phone_help", { country: countryCode }) : undefined
                    }
                    required={field.required}
                    error={error(field.name)}
                  />
                ),
              )}
              <Group>
                <Button type="submit" loading={busy}>
                  {t("bookings.submit")}
                </Button>
              </Group>
            </Stack>
          </Form>
        </Card>
      ) : null}
    </Stack>
  );
}
