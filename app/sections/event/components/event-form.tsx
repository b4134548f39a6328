import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Alert, Button, Card, Checkbox, Divider, Group, Image, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { CheckboxField, FileField, FormErrors, SelectField, TextareaField, TextField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { EVENT_FIELD_TYPES } from "~/sections/event/domain/event-schema";
import { LocationMap } from "./location-map";

/** The form's values as strings, as the page first shows them. */
type FormValue = string | null | undefined;
export type EventFormDefaults = { [name: string]: FormValue | FormValue[] | Record<string, FormValue>[] } & {
  status: string;
  gateway_codes: string[];
  fields: Record<string, FormValue>[];
  tickets: Record<string, FormValue>[];
};

type Props = {
  lang: "en" | "ar";
  id: number | null;
  defaults: EventFormDefaults;
  imageUrl: string | null;
  canChange: boolean;
  currencies: string[];
  gateways: { code: string; name: string; currencies: string }[];
  mapStyleUrl: string | null;
  lastResult?: SubmissionResult<string[]>;
  kept: string | null;
  imageError: string | null;
};

/** The whole event in one form that works without JavaScript: texts, place, money, fields and tickets. */
export function EventForm({
  id,
  defaults,
  imageUrl,
  canChange,
  currencies,
  gateways,
  mapStyleUrl,
  lastResult,
  kept,
  imageError,
}: Props) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: `event-${id ?? "new"}`,
    lastResult,
    defaultValue: defaults,
    shouldValidate: "onSubmit",
  });
  const chosen = new Set([fields.gateway_codes.initialValue ?? []].flat() as string[]);
  const status = String(defaults.status);
  const extraFields = fields.fields.getFieldList();
  const tickets = fields.tickets.getFieldList();
  return (
    <Stack maw={960}>
      <PageHeader
        title={id === null ? t("event_setup.new_title") : t("event_setup.edit_title")}
        description={id === null ? undefined : t(`event_setup.statuses.${status}`)}
      />
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <fieldset disabled={!canChange} className="plain-fieldset">
          <Stack gap="lg">
            <FormErrors errors={form.errors} id={form.errorId} />
            <Card withBorder padding="lg">
              <Stack gap="md">
                <Title order={2} fz="h4">
                  {t("event_setup.sections.about")}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextField field={fields.title_en} label={t("event_setup.fields.title_en")} dir="ltr" />
                  <TextField field={fields.title_ar} label={t("event_setup.fields.title_ar")} dir="rtl" />
                </SimpleGrid>
                <TextField
                  field={fields.slug}
                  label={t("event_setup.fields.slug")}
                  description={t("event_setup.fields.slug_help")}
                  dir="ltr"
                  maxLength={80}
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextareaField
                    field={fields.description_en}
                    label={t("event_setup.fields.description_en")}
                    autosize
                    minRows={3}
                    dir="ltr"
                  />
                  <TextareaField
                    field={fields.description_ar}
                    label={t("event_setup.fields.description_ar")}
                    autosize
                    minRows={3}
                    dir="rtl"
                  />
                </SimpleGrid>
                <FileField
                  field={fields.image}
                  label={t("event_setup.fields.image")}
                  description={kept ? t("event_setup.fields.image_kept") : t("event_setup.fields.image_help")}
                  accept="image/png,image/jpeg,image/webp"
                  error={imageError ?? undefined}
                >
                  {kept ? <input type="hidden" name="image_kept" value={kept} /> : null}
                </FileField>
                {imageUrl ? (
                  <Image src={imageUrl} alt={t("event_setup.fields.image_current")} maw={240} radius="sm" />
                ) : null}
              </Stack>
            </Card>

            <Card withBorder padding="lg">
              <Stack gap="md">
                <Title order={2} fz="h4">
                  {t("event_setup.sections.place")}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextField field={fields.location_en} label={t("event_setup.fields.location_en")} dir="ltr" />
                  <TextField field={fields.location_ar} label={t("event_setup.fields.location_ar")} dir="rtl" />
                  <TextField field={fields.lat} label={t("event_setup.fields.lat")} inputMode="decimal" dir="ltr" />
                  <TextField field={fields.lng} label={t("event_setup.fields.lng")} inputMode="decimal" dir="ltr" />
                </SimpleGrid>
                {mapStyleUrl ? (
                  <LocationMap
                    styleUrl={mapStyleUrl}
                    formId={form.id}
                    latName={fields.lat.name}
                    lngName={fields.lng.name}
                    label={t("event_setup.fields.map_help")}
                  />
                ) : null}
              </Stack>
            </Card>

            <Card withBorder padding="lg">
              <Stack gap="md">
                <Title order={2} fz="h4">
                  {t("event_setup.sections.sale")}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <SelectField
                    field={fields.currency_code}
                    label={t("event_setup.fields.currency_code")}
                    options={currencies.map((code) => ({ value: code, label: code }))}
                  />
                  <CheckboxField field={fields.is_free} label={t("event_setup.fields.is_free")} mt="lg" />
                </SimpleGrid>
                <fieldset
                  className="plain-fieldset"
                  aria-describedby={fields.gateway_codes.errors ? fields.gateway_codes.errorId : undefined}
                >
                  <legend>
                    <Text fw={600} size="sm">
                      {t("event_setup.fields.gateway_codes")}
                    </Text>
                  </legend>
                  <Group gap="lg" mt={4}>
                    {gateways.map((gateway) => (
                      <Checkbox
                        key={gateway.code}
                        name={fields.gateway_codes.name}
                        value={gateway.code}
                        defaultChecked={chosen.has(gateway.code)}
                        label={gateway.name}
                        description={gateway.currencies}
                      />
                    ))}
                  </Group>
                  {gateways.length === 0 ? (
                    <Alert color="orange" variant="light" mt="xs">
                      {t("event_setup.no_gateways")}
                    </Alert>
                  ) : null}
                  {fields.gateway_codes.errors ? (
                    <Text c="red" size="sm" mt={4} id={fields.gateway_codes.errorId} role="alert">
                      {t(fields.gateway_codes.errors[0])}
                    </Text>
                  ) : null}
                </fieldset>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <TextField
                    field={fields.hold_minutes}
                    label={t("event_setup.fields.hold_minutes")}
                    inputMode="numeric"
                    dir="ltr"
                  />
                  <TextField
                    field={fields.max_per_booking}
                    label={t("event_setup.fields.max_per_booking")}
                    inputMode="numeric"
                    dir="ltr"
                  />
                  <TextField
                    field={fields.queue_capacity}
                    label={t("event_setup.fields.queue_capacity")}
                    description={t("event_setup.fields.queue_capacity_help")}
                    inputMode="numeric"
                    dir="ltr"
                  />
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextareaField
                    field={fields.terms_en}
                    label={t("event_setup.fields.terms_en")}
                    autosize
                    minRows={3}
                    dir="ltr"
                  />
                  <TextareaField
                    field={fields.terms_ar}
                    label={t("event_setup.fields.terms_ar")}
                    autosize
                    minRows={3}
                    dir="rtl"
                  />
                </SimpleGrid>
              </Stack>
            </Card>

            <Card withBorder padding="lg">
              <Stack gap="md">
                <Title order={2} fz="h4">
                  {t("event_setup.sections.fields")}
                </Title>
                <Text size="sm" c="dimmed">
                  {t("event_setup.fields_help")}
                </Text>
                {extraFields.map((item, index) => {
                  const row = item.getFieldset();
                  return (
                    <Stack key={item.key ?? `row-${index}`} gap="xs">
                      {index > 0 ? <Divider /> : null}
                      <SimpleGrid cols={{ base: 1, sm: 3 }}>
                        <TextField field={row.name} label={t("event_setup.fields.field_name")} dir="ltr" />
                        <TextField field={row.label_en} label={t("event_setup.fields.label_en")} dir="ltr" />
                        <TextField field={row.label_ar} label={t("event_setup.fields.label_ar")} dir="rtl" />
                      </SimpleGrid>
                      <Group align="flex-end">
                        <SelectField
                          field={row.type}
                          label={t("event_setup.fields.field_type")}
                          options={EVENT_FIELD_TYPES.map((type) => ({
                            value: type,
                            label: t(`event_setup.field_types.${type}`),
                          }))}
                        />
                        <CheckboxField field={row.required} label={t("event_setup.fields.required")} mb={8} />
                        <Button
                          type="submit"
                          variant="subtle"
                          color="red"
                          {...form.remove.getButtonProps({ name: fields.fields.name, index })}
                        >
                          {t("event_setup.remove_field")}
                        </Button>
                      </Group>
                    </Stack>
                  );
                })}
                <Group>
                  <Button
                    type="submit"
                    variant="default"
                    {...form.insert.getButtonProps({ name: fields.fields.name, defaultValue: { type: "text" } })}
                  >
                    {t("event_setup.add_field")}
                  </Button>
                </Group>
              </Stack>
            </Card>

            <Card withBorder padding="lg">
              <Stack gap="md">
                <Title order={2} fz="h4">
                  {t("event_setup.sections.tickets")}
                </Title>
                {fields.tickets.errors ? (
                  <Alert color="red" variant="light" role="alert" id={fields.tickets.errorId}>
                    {fields.tickets.errors.map((error) => t(error)).join(" ")}
                  </Alert>
                ) : null}
                {tickets.map((item, index) => {
                  const row = item.getFieldset();
                  return (
                    <Stack key={item.key ?? `row-${index}`} gap="xs">
                      {index > 0 ? <Divider /> : null}
                      <input type="hidden" name={row.id.name} value={String(row.id.initialValue ?? "")} />
                      <SimpleGrid cols={{ base: 1, sm: 2 }}>
                        <TextField field={row.name_en} label={t("event_setup.fields.ticket_name_en")} dir="ltr" />
                        <TextField field={row.name_ar} label={t("event_setup.fields.ticket_name_ar")} dir="rtl" />
                      </SimpleGrid>
                      <SimpleGrid cols={{ base: 2, sm: 4 }}>
                        <TextField
                          field={row.price}
                          label={t("event_setup.fields.price")}
                          inputMode="decimal"
                          placeholder="5.000"
                          dir="ltr"
                        />
                        <TextField
                          field={row.start_time}
                          label={t("event_setup.fields.start_time")}
                          type="time"
                          dir="ltr"
                        />
                        <TextField
                          field={row.end_time}
                          label={t("event_setup.fields.end_time")}
                          type="time"
                          dir="ltr"
                        />
                        <TextField
                          field={row.quantity}
                          label={t("event_setup.fields.quantity")}
                          description={t("event_setup.fields.quantity_help")}
                          inputMode="numeric"
                          dir="ltr"
                        />
                      </SimpleGrid>
                      <TextareaField
                        field={row.dates}
                        label={t("event_setup.fields.dates")}
                        description={t("event_setup.fields.dates_help")}
                        autosize
                        minRows={2}
                        dir="ltr"
                        placeholder="2026-12-20"
                      />
                      <Group>
                        <Button
                          type="submit"
                          variant="subtle"
                          color="red"
                          {...form.remove.getButtonProps({ name: fields.tickets.name, index })}
                        >
                          {t("event_setup.remove_ticket")}
                        </Button>
                      </Group>
                    </Stack>
                  );
                })}
                <Group>
                  <Button
                    type="submit"
                    variant="default"
                    {...form.insert.getButtonProps({
                      name: fields.tickets.name,
                      defaultValue: { start_time: "18:00", end_time: "22:00", quantity: "10" },
                    })}
                  >
                    {t("event_setup.add_ticket")}
                  </Button>
                </Group>
              </Stack>
            </Card>

            {canChange ? (
              <Group>
                <Button type="submit" name="status" value="draft" variant="default" loading={busy}>
                  {t("event_setup.save_draft")}
                </Button>
                <Button type="submit" name="status" value="published" loading={busy}>
                  {t("event_setup.publish")}
                </Button>
                {id !== null ? (
                  <Button type="submit" name="status" value="closed" color="red" variant="light" loading={busy}>
                    {t("event_setup.close")}
                  </Button>
                ) : null}
              </Group>
            ) : null}
          </Stack>
        </fieldset>
      </Form>
    </Stack>
  );
}
