import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Alert, Checkbox, Group, Input, NativeSelect, PasswordInput, Textarea, TextInput } from "@mantine/core";
import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import type { PhoneEnhancer } from "./phone-enhancer.client";
import "./forms.css";

/** Mantine's date-time picker, fetched only when a page shows a date-time field and JavaScript runs. */
const KuwaitDateTimePicker = lazy(() => import("./date-time-picker.client"));

/** True once the page runs JavaScript (after hydration), so the server's HTML and the first render agree. */
function useEnhanced() {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced;
}

/** Translates the first error of a field; errors are translation keys, `values` what their messages name. */
function useFieldError(errors: string[] | undefined, values?: Record<string, string>) {
  const { t } = useTranslation();
  const first = errors?.[0];
  return first ? t(first, values) : undefined;
}

type FieldProps<Input> = { field: FieldMetadata<any, any, string[]>; label: string } & Omit<Input, "name" | "error">;

export function TextField({
  field,
  label,
  errorValues,
  ...rest
}: FieldProps<ComponentProps<typeof TextInput>> & { errorValues?: Record<string, string> }) {
  const error = useFieldError(field.errors, errorValues);
  const { key, ...inputProps } = getInputProps(field, { type: "text" });
  return (
    <TextInput
      key={key}
      {...inputProps}
      label={label}
      error={error}
      errorProps={{ id: field.errorId, role: "alert" }}
      {...rest}
    />
  );
}

export function PasswordField({ field, label, ...rest }: FieldProps<ComponentProps<typeof PasswordInput>>) {
  const { t } = useTranslation();
  const error = useFieldError(field.errors);
  const { key, ...inputProps } = getInputProps(field, { type: "password" });
  return (
    <PasswordInput
      key={key}
      {...inputProps}
      label={label}
      visibilityToggleButtonProps={{ "aria-label": t("common.show_characters") }}
      error={error}
      errorProps={{ id: field.errorId, role: "alert" }}
      {...rest}
    />
  );
}

export function TextareaField({ field, label, ...rest }: FieldProps<ComponentProps<typeof Textarea>>) {
  const error = useFieldError(field.errors);
  return (
    <Textarea
      id={field.id}
      name={field.name}
      defaultValue={field.initialValue as string | undefined}
      required={field.required}
      maxLength={field.maxLength}
      aria-invalid={field.errors ? true : undefined}
      aria-describedby={field.errors ? field.errorId : undefined}
      label={label}
      error={error}
      errorProps={{ id: field.errorId, role: "alert" }}
      {...rest}
    />
  );
}

/** A native <select>, so the choice posts without JavaScript. */
export function SelectField({
  field,
  label,
  options,
  ...rest
}: FieldProps<ComponentProps<typeof NativeSelect>> & { options: { value: string; label: string }[] }) {
  const error = useFieldError(field.errors);
  return (
    <NativeSelect
      id={field.id}
      name={field.name}
      defaultValue={field.initialValue as string | undefined}
      data={options}
      label={label}
      error={error}
      required={field.required}
      aria-invalid={field.errors ? true : undefined}
      aria-describedby={field.errors ? field.errorId : undefined}
      errorProps={{ id: field.errorId, role: "alert" }}
      {...rest}
    />
  );
}

export function CheckboxField({ field, label, ...rest }: FieldProps<ComponentProps<typeof Checkbox>>) {
  const error = useFieldError(field.errors);
  return (
    <Checkbox
      id={field.id}
      name={field.name}
      value="on"
      defaultChecked={field.initialValue === "on"}
      label={label}
      error={error}
      {...rest}
    />
  );
}

/** Errors that belong to no single field, announced to screen readers. */
export function FormErrors({ errors, id }: { errors?: string[] | null; id?: string }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <Alert color="red" variant="light" role="alert" id={id}>
      {errors.map((error) => t(error)).join(" ")}
    </Alert>
  );
}

/**
 * A phone number. Without JavaScript: a country select and the number as typed (the server reads
 * both). With JavaScript: intl-tel-input (flags, search, the dialling code; KW and US first), loaded
 * only here, and the number sent in international form with its country.
 */
export function PhoneField({
  field,
  countryField,
  label,
  countryLabel,
  countries,
  lang,
}: {
  field: FieldMetadata<any, any, string[]>;
  countryField: FieldMetadata<any, any, string[]>;
  label: string;
  countryLabel: string;
  countries: readonly string[];
  lang: "en" | "ar";
}) {
  const error = useFieldError(field.errors);
  const input = useRef<HTMLInputElement>(null);
  const enhancer = useRef<PhoneEnhancer | null>(null);
  const initialCountry = ((countryField.initialValue as string | undefined) ?? "KW").toUpperCase();
  const [phone, setPhone] = useState<{ number: string; country: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    const element = input.current;
    if (!element) return;
    void import("./phone-enhancer.client").then(async ({ enhancePhoneInput }) => {
      if (cancelled) return;
      const made = await enhancePhoneInput(element, {
        country: initialCountry,
        lang,
        onChange: () => setPhone({ number: made.number(), country: made.country() }),
      });
      if (cancelled) return made.destroy();
      enhancer.current = made;
      setPhone({ number: made.number(), country: made.country() });
    });
    return () => {
      cancelled = true;
      enhancer.current?.destroy();
      enhancer.current = null;
    };
  }, [initialCountry, lang]);
  const enhanced = phone !== null;
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap" className="phone-field-row">
      {enhanced ? (
        <>
          <input type="hidden" name={field.name} value={phone.number} />
          <input type="hidden" name={countryField.name} value={phone.country} />
        </>
      ) : (
        <NativeSelect
          id={countryField.id}
          name={countryField.name}
          defaultValue={initialCountry}
          label={countryLabel}
          data={countries.map((code) => ({ value: code, label: code }))}
          w={96}
        />
      )}
      <TextInput
        ref={input}
        id={field.id}
        // Once enhanced, the hidden inputs above carry the number; this one only shows it.
        name={enhanced ? undefined : field.name}
        defaultValue={field.initialValue as string | undefined}
        type="tel"
        dir="ltr"
        autoComplete="tel"
        label={label}
        error={error}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={field.errors ? field.errorId : undefined}
        errorProps={{ id: field.errorId, role: "alert" }}
        style={{ flex: 1 }}
      />
    </Group>
  );
}

/**
 * A date and time in Kuwait. Without JavaScript: the native datetime-local input. With JavaScript:
 * Mantine's DateTimePicker (loaded only here), posting the same "YYYY-MM-DDTHH:mm" value.
 */
export function DateTimeField({
  field,
  label,
  description,
  lang,
}: {
  field: FieldMetadata<any, any, string[]>;
  label: string;
  description?: string;
  lang: "en" | "ar";
}) {
  const { t } = useTranslation();
  const error = useFieldError(field.errors);
  const enhanced = useEnhanced();
  const native = (
    <TextInput
      id={field.id}
      name={field.name}
      type="datetime-local"
      defaultValue={field.initialValue as string | undefined}
      label={label}
      description={description}
      error={error}
      aria-invalid={field.errors ? true : undefined}
      aria-describedby={field.errors ? field.errorId : undefined}
      errorProps={{ id: field.errorId, role: "alert" }}
    />
  );
  if (!enhanced) return native;
  return (
    <Suspense fallback={native}>
      <KuwaitDateTimePicker
        id={field.id}
        name={field.name}
        label={label}
        description={description}
        defaultValue={field.initialValue as string | undefined}
        error={error}
        errorId={field.errorId}
        lang={lang}
        clearLabel={t("common.clear_date")}
      />
    </Suspense>
  );
}

/** A file chosen with the browser's own control (it posts without JavaScript), framed like the other inputs. */
export function FileField({
  field,
  label,
  description,
  accept,
  error,
  children,
}: {
  field: FieldMetadata<any, any, any>;
  label: string;
  description?: string;
  accept: string;
  error?: string;
  children?: React.ReactNode;
}) {
  return (
    <Input.Wrapper
      label={label}
      description={description}
      error={error}
      errorProps={{ id: field.errorId, role: "alert" }}
      id={field.id}
    >
      <Input
        component="input"
        type="file"
        id={field.id}
        name={field.name}
        accept={accept}
        classNames={{ input: "file-field" }}
        error={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? field.errorId : undefined}
      />
      {children}
    </Input.Wrapper>
  );
}
