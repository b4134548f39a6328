import type { ReactNode } from "react";

type Color = "green" | "red" | "blue" | "orange" | "yellow" | "gray";

/**
 * A message in a tinted box (what Mantine's light Alert draws, without its script): a confirmation,
 * a refusal, a notice at the top of a page. `role` says how a screen reader hears it.
 */
export function Callout({
  color,
  role,
  compact = false,
  children,
}: {
  color: Color;
  role?: "status" | "alert";
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      role={role}
      className={compact ? "callout callout--compact" : "callout"}
      style={
        {
          "--callout-bg": `var(--mantine-color-${color}-light)`,
          "--callout-color": `var(--mantine-color-${color}-light-color)`,
        } as React.CSSProperties
      }
    >
      {children}
    </div>
  );
}
