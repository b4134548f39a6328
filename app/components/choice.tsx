import type { InputHTMLAttributes, ReactNode } from "react";

type ChoiceProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "size"> & {
  label?: ReactNode;
  size?: "xs" | "sm";
};

/**
 * A checkbox or a radio button as the browser draws it, in the brand colour, with its label beside
 * it (app.css .choice). Lists with many of them (a table's rows, an export's fields) use these rather
 * than Mantine's, which bring their own scripts for what the browser already does.
 */
function Choice({ type, label, size = "sm", className, ...input }: ChoiceProps & { type: "checkbox" | "radio" }) {
  const control = <input type={type} className={`choice__input choice__input--${size}`} {...input} />;
  if (label === undefined) return control;
  return (
    <label className={["choice", `choice--${size}`, className].filter(Boolean).join(" ")}>
      {control}
      <span>{label}</span>
    </label>
  );
}

export function CheckboxChoice(props: ChoiceProps) {
  return <Choice type="checkbox" {...props} />;
}

export function RadioChoice(props: ChoiceProps) {
  return <Choice type="radio" {...props} />;
}

/** Radio buttons under a legend, as one form field. */
export function RadioChoices({ legend, children }: { legend: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="plain-fieldset">
      <legend className="choice-legend">{legend}</legend>
      {children}
    </fieldset>
  );
}
