import { Checkbox, Textarea, TextInput, type TextInputProps } from "@mantine/core";
import { useTranslation } from "react-i18next";

export type FormState = { values: Record<string, unknown>; errors: Record<string, string[]> };

/** The value at a form name ("sizes[0].price") in the object the page was given. */
export function valueAt(values: unknown, name: string): unknown {
  let node: any = values;
  for (const key of name.match(/[^[\].]+/g) ?? []) {
    if (node === null || node === undefined) return undefined;
    node = node[key];
  }
  return node;
}

const asText = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/** A text input named as the form sends it, its value and its errors read from the page's state. */
export function Field({
  state,
  name,
  label,
  ...rest
}: { state: FormState; name: string; label: string } & Omit<
  TextInputProps,
  "name" | "label" | "defaultValue" | "error"
>) {
  const { t } = useTranslation();
  const errors = state.errors[name];
  return (
    <TextInput
      name={name}
      id={`f-${name}`}
      label={label}
      defaultValue={asText(valueAt(state.values, name))}
      error={errors ? errors.map((error) => t(error)).join(" ") : undefined}
      {...rest}
    />
  );
}

export function AreaField({
  state,
  name,
  label,
  dir,
}: {
  state: FormState;
  name: string;
  label: string;
  dir?: "ltr" | "rtl";
}) {
  const { t } = useTranslation();
  const errors = state.errors[name];
  return (
    <Textarea
      name={name}
      id={`f-${name}`}
      label={label}
      dir={dir}
      autosize
      minRows={2}
      defaultValue={asText(valueAt(state.values, name))}
      error={errors ? errors.map((error) => t(error)).join(" ") : undefined}
    />
  );
}

export function Flag({ state, name, label }: { state: FormState; name: string; label: string }) {
  const value = valueAt(state.values, name);
  return (
    <Checkbox
      name={name}
      id={`f-${name}`}
      value="on"
      label={label}
      defaultChecked={value === true || value === "on" || value === "true"}
    />
  );
}
