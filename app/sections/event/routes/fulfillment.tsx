import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Card, Group, NativeSelect, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/fulfillment";
import { Callout } from "~/components/callout";
import { FormErrors, TextField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { readFormData } from "~/web/form-data.server";
import { can } from "~/domain/identity/permissions";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import {
  bookingStatistics,
  findCheckinEvent,
  listCheckinEvents,
  OTHER_DATE_PERMISSION,
  validateScan,
} from "../domain/checkin.server";
import { CheckinScanSchema } from "../domain/checkin-schema";
import { scanRefusalMessage, serializePlace } from "../presentation/checkin.server";
import { CheckinDoor } from "../components/checkin/checkin-door";
import { ScanResult, type ScanResultView } from "../components/checkin/scan-result";

async function guard({ context, request }: { context: Route.LoaderArgs["context"]; request: Request }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "event", "fulfillment");
  requirePermission(auth, "scan_booking");
  return auth;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard({ context, request });
  const db = getDbFrom(context);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const raw = new URL(request.url).searchParams.get("event") ?? "";
  const events = await listCheckinEvents(db, auth.user.merchantId);
  const event = /^\d{1,10}$/.test(raw) ? await findCheckinEvent(db, auth.user.merchantId, Number(raw)) : undefined;
  return {
    lang,
    events: events.map((row) => ({ value: String(row.id), label: lang === "ar" ? row.title_ar : row.title_en })),
    event: event ? { id: event.id, title: lang === "ar" ? event.title_ar : event.title_en } : null,
    statistics: event ? await bookingStatistics(db, auth.user.merchantId, { eventId: event.id }) : null,
    canAdmitOtherDate: can(auth.user, OTHER_DATE_PERMISSION),
  };
}

/** The typed-code form without JavaScript: checks the code at the door and answers the result on the page. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const submission = parseWithZod(await readFormData(request), { schema: CheckinScanSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), scan: null }, { status: 400 });
  const anyDate = submission.value.any_date === "1";
  if (anyDate) requirePermission(auth, OTHER_DATE_PERMISSION);
  const outcome = await validateScan(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    eventId: submission.value.event,
    code: submission.value.qrcode,
    actor: auth.user,
    anyDate,
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok && outcome.code === "no_event")
    return data(
      { result: submission.reply({ formErrors: ["checkin.reasons.no_event"] }), scan: null },
      { status: 400 },
    );
  const scan: ScanResultView = outcome.ok
    ? { ok: true, message: translator(lang)("checkin.granted"), place: serializePlace(outcome.place, lang) }
    : {
        ok: false,
        message: scanRefusalMessage(outcome, lang),
        place: outcome.place ? serializePlace(outcome.place, lang) : null,
        admitAnyway:
          outcome.code === "other_date" && can(auth.user, OTHER_DATE_PERMISSION) ? submission.value.qrcode : undefined,
      };
  return { result: submission.reply({ resetForm: true }), scan };
}

export default function EventFulfillment() {
  const { t } = useTranslation();
  const { events, event, statistics, lang, canAdmitOtherDate } = useLoaderData<typeof loader>();
  return (
    <Stack maw={760}>
      <PageHeader title={t("checkin.title")} description={t("checkin.subtitle")} />
      <Card withBorder padding="md">
        <Form method="get" role="search" aria-label={t("checkin.choose_event")}>
          <Group align="flex-end" gap="sm">
            <NativeSelect
              name="event"
              label={t("checkin.event")}
              defaultValue={event ? String(event.id) : ""}
              data={[{ value: "", label: t("checkin.pick") }, ...events]}
              style={{ flex: 1 }}
            />
            <Button type="submit">{t("checkin.choose")}</Button>
          </Group>
        </Form>
      </Card>
      {event && statistics ? (
        <CheckinDoor
          key={event.id}
          eventId={event.id}
          lang={lang}
          statistics={statistics}
          canAdmitOtherDate={canAdmitOtherDate}
        >
          {(onScan) => <TypedCodeForm eventId={event.id} onScan={onScan} />}
        </CheckinDoor>
      ) : (
        <Callout color="blue" role="status">
          {events.length ? t("checkin.select_event") : t("checkin.no_events")}
        </Callout>
      )}
    </Stack>
  );
}

/** The number under the QR code, typed when the camera cannot read it. */
function TypedCodeForm({ eventId, onScan }: { eventId: number; onScan: ((code: string) => void) | null }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "checkin-code",
    lastResult: actionData?.result,
    constraint: { qrcode: { required: true, maxLength: 200 } },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CheckinScanSchema }),
    shouldValidate: "onSubmit",
  });
  const formProps = getFormProps(form);
  return (
    <Card withBorder padding="md">
      <Form
        method="post"
        {...formProps}
        onSubmit={(submitEvent) => {
          formProps.onSubmit(submitEvent);
          if (submitEvent.defaultPrevented || !onScan) return;
          // With JavaScript the door checks the code itself: online through the API, offline against the list.
          submitEvent.preventDefault();
          const element = submitEvent.currentTarget;
          const code = String(new FormData(element).get("qrcode") ?? "").trim();
          element.reset();
          if (code) onScan(code);
        }}
      >
        <Stack gap="sm">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="event" value={eventId} />
          <TextField
            field={fields.qrcode}
            label={t("checkin.code_label")}
            description={t("checkin.code_hint")}
            autoComplete="off"
            dir="ltr"
            autoCapitalize="characters"
          />
          <Group>
            <Button type="submit" loading={busy}>
              {t("checkin.submit")}
            </Button>
          </Group>
          {actionData?.scan && !actionData.scan.admitAnyway ? <ScanResult result={actionData.scan} /> : null}
        </Stack>
      </Form>
      {actionData?.scan?.admitAnyway ? (
        <ScanResult result={actionData.scan}>
          <Form method="post">
            <input type="hidden" name="event" value={eventId} />
            <input type="hidden" name="qrcode" value={actionData.scan.admitAnyway} />
            <Button type="submit" name="any_date" value="1" color="orange" variant="light">
              {t("checkin.admit_anyway")}
            </Button>
          </Form>
        </ScanResult>
      ) : null}
    </Card>
  );
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "تسجيل الحضور" : "Event fulfilment" }];
}
