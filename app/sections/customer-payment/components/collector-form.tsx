import { Checkbox, Fieldset, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { FIELD_MODES, MAX_TEXT_FIELDS, STANDARD_FIELDS } from "../domain/collector-schema";

export type FormState = { values: Record<string, unknown>; errors: Record<string, string> };

type TextFieldRow = { name?: string; label_en?: string; label_ar?: string; required?: boolean | string };

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const checked = (value: unknown) => value === true || value === "on" || value === "true";

/** A collector's fields as its form shows them: titles, descriptions, unit, the standard fields' modes, free-text fields, active. */
export function CollectorFields({ state, units }: { state: FormState; units: { id: number; name: string }[] }) {
  const { t } = useTranslation();
  const { values, errors } = state;
  const field = (name: string) => ({ name, id: `f-${name}`, defaultValue: text(values[name]), error: errors[name] });
  const rows = (Array.isArray(values.text_fields) ? (values.text_fields as TextFieldRow[]) : []).slice(
    0,
    MAX_TEXT_FIELDS,
  );
  // Room for new fields below the existing ones, up to the limit, without JavaScript.
  const shown = [
    ...rows,
    ...Array.from({ length: Math.max(0, Math.min(2, MAX_TEXT_FIELDS - rows.length)) }, () => ({}) as TextFieldRow),
  ];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t("collectors.fields.title_en")} required maxLength={120} dir="ltr" {...field("title_en")} />
        <TextInput label={t("collectors.fields.title_ar")} required maxLength={120} dir="rtl" {...field("title_ar")} />
        <Textarea
          label={t("collectors.fields.description_en")}
          maxLength={1000}
          autosize
          minRows={2}
          dir="ltr"
          {...field("description_en")}
        />
        <Textarea
          label={t("collectors.fields.description_ar")}
          maxLength={1000}
          autosize
          minRows={2}
          dir="rtl"
          {...field("description_ar")}
        />
      </SimpleGrid>
      {units.length > 1 ? (
        <NativeSelect
          label={t("collectors.fields.unit")}
          description={t("collectors.fields.unit_hint")}
          data={[
            { value: "", label: t("collectors.fields.default_unit") },
            ...units.map((unit) => ({ value: String(unit.id), label: unit.name })),
          ]}
          {...field("unit")}
        />
      ) : null}
      <Fieldset legend={t("collectors.fields.asked")}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t("collectors.fields.asked_hint")}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            {STANDARD_FIELDS.map((name) => (
              <NativeSelect
                key={name}
                label={t(`collectors.standard.${name}`)}
                data={FIELD_MODES.map((mode) => ({ value: mode, label: t(`collectors.modes.${mode}`) }))}
                {...field(`${name}_field`)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Fieldset>
      <Fieldset legend={t("collectors.fields.text_fields")}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t("collectors.fields.text_fields_hint", { count: MAX_TEXT_FIELDS })}
          </Text>
          {shown.map((row, index) => (
            <SimpleGrid key={row.name ?? `new-${index}`} cols={{ base: 1, sm: 3 }} verticalSpacing="xs">
              {row.name ? <input type="hidden" name={`text_fields.${index}.name`} value={row.name} /> : null}
              <TextInput
                label={t("collectors.fields.label_en", { n: index + 1 })}
                name={`text_fields.${index}.label_en`}
                id={`f-text_fields.${index}.label_en`}
                defaultValue={text(row.label_en)}
                maxLength={80}
                dir="ltr"
                error={errors[`text_fields.${index}.label_en`]}
              />
              <TextInput
                label={t("collectors.fields.label_ar", { n: index + 1 })}
                name={`text_fields.${index}.label_ar`}
                id={`f-text_fields.${index}.label_ar`}
                defaultValue={text(row.label_ar)}
                maxLength={80}
                dir="rtl"
                error={errors[`text_fields.${index}.label_ar`] ?? errors[`text_fields.${index}.name`]}
              />
              <Checkbox
                mt={{ sm: 30 }}
                name={`text_fields.${index}.required`}
                value="on"
                label={t("collectors.fields.required")}
                defaultChecked={checked(row.required)}
              />
            </SimpleGrid>
          ))}
          {errors.text_fields ? (
            <Text size="sm" c="red">
              {errors.text_fields}
            </Text>
          ) : null}
        </Stack>
      </Fieldset>
      <Checkbox
        name="is_active"
        id="f-is_active"
        value="on"
        label={t("collectors.fields.is_active")}
        description={t("collectors.fields.is_active_hint")}
        defaultChecked={checked(values.is_active)}
      />
    </Stack>
  );
}
