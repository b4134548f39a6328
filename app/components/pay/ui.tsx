import type {
  AnchorHTMLAttributes,
  ButtonHTMLAttributes,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";

/*
 * The customer pages' building blocks: plain elements styled by customer.css. These pages are
 * served as HTML without React on the client (docs/decisions/0005) and rendered on every visit
 * of a pay link, so they avoid the per-render cost of a component library (docs/decisions/0011).
 */

type Variant = "filled" | "default" | "light" | "subtle";

const join = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(" ");

export function Card({
  children,
  padding = "lg",
  className,
  ...rest
}: { children: ReactNode; padding?: "lg" | "xl"; className?: string } & React.HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={join("c-card", padding === "xl" && "c-card--xl", className)} {...rest}>
      {children}
    </div>
  );
}

export function Button({
  variant = "filled",
  size,
  fullWidth,
  className,
  ...rest
}: { variant?: Variant; size?: "xs" | "lg"; fullWidth?: boolean } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className={join(
        "c-button",
        `c-button--${variant}`,
        size && `c-button--${size}`,
        fullWidth && "c-button--full",
        className,
      )}
      {...rest}
    />
  );
}

export function LinkButton({
  variant = "filled",
  fullWidth,
  className,
  ...rest
}: { variant?: Variant; fullWidth?: boolean } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return <a className={join("c-button", `c-button--${variant}`, fullWidth && "c-button--full", className)} {...rest} />;
}

export function Alert({
  color,
  children,
  role = "alert",
}: {
  color: "red" | "orange";
  children: ReactNode;
  role?: string;
}) {
  return (
    <div className={`c-alert c-alert--${color}`} role={role}>
      {children}
    </div>
  );
}

type FieldProps = { name: string; label: string; description?: string; error?: string | null; id?: string };

function FieldFrame({
  id,
  label,
  description,
  error,
  children,
}: {
  id: string;
  label: string;
  description?: string;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className="c-field">
      <label className="c-field__label" htmlFor={id}>
        {label}
      </label>
      {description ? (
        <p className="c-field__description" id={`${id}-description`}>
          {description}
        </p>
      ) : null}
      {children}
      {error ? (
        <p className="c-field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, description?: string, error?: string | null) {
  return (
    [description ? `${id}-description` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined
  );
}

export function TextField({
  name,
  label,
  description,
  error,
  id = `field-${name}`,
  ...rest
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame id={id} label={label} description={description} error={error}>
      <input
        id={id}
        name={name}
        className="c-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={rest["aria-describedby"] ?? describedBy(id, description, error)}
        {...rest}
      />
    </FieldFrame>
  );
}

export function TextAreaField({
  name,
  label,
  error,
  id = `field-${name}`,
  ...rest
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame id={id} label={label} error={error}>
      <textarea
        id={id}
        name={name}
        className="c-input c-input--area"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
        {...rest}
      />
    </FieldFrame>
  );
}

export function SelectField({
  name,
  label,
  error,
  options,
  id = `field-${name}`,
  ...rest
}: FieldProps & { options: { value: string; label: string }[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldFrame id={id} label={label} error={error}>
      <select
        id={id}
        name={name}
        className="c-input c-select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
