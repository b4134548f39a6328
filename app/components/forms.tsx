import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Alert, Checkbox, NativeSelect, PasswordInput, Textarea, TextInput } from "@mantine/core";
import type { ComponentProps } from "react";
import { useTranslation } from "react-i18next";

/** Translates the first error of a field; errors are translation keys, `values` what their messages name. */
function useFieldError(errors: string[] | undefined, values?: Record<string, string>) {
  const { t } = useTranslation();
  const first = errors?.[0];
  return first ? t(first, values) : undefined;
}

type FieldProps<Input> = { field: FieldMetadata<any, any, string[]>; label: string } & Omit<Input, "name" | "error">;

export function TextField({ field, label, errorValues, ...rest }: FieldProps<ComponentProps<typeof TextInput>> & { errorValues?: Record<string, string> }) {
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
