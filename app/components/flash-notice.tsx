import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useRouteLoaderData } from "react-router";
import { Callout } from "~/components/callout";
import type { Flash } from "~/web/flash.server";

const colors = { success: "green", error: "red", info: "blue" } as const;
/** A confirmation closes itself after this long with JavaScript; an error stays while its page is open. */
const SHOWN_MS = 8_000;

/**
 * The one-time notice left by the previous request (a redirect after a form). It belongs to the
 * page it arrived with: the root's data outlives a client-side navigation, so the notice hides once
 * the user moves on, and it is never shown on a second page.
 */
export function FlashNotice() {
  const { t } = useTranslation();
  const root = useRouteLoaderData("root") as { flash: (Flash & { text?: string }) | null } | undefined;
  const flash = root?.flash ?? null;
  const location = useLocation();
  const arrivedAt = useRef({ flash, key: location.key });
  const [closed, setClosed] = useState(false);

  // A new flash (after another form) starts where it arrives.
  if (arrivedAt.current.flash !== flash) arrivedAt.current = { flash, key: location.key };

  useEffect(() => {
    if (!flash || flash.kind === "error") return;
    setClosed(false);
    const timer = setTimeout(() => setClosed(true), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [flash]);

  if (!flash || closed || arrivedAt.current.key !== location.key) return null;
  return (
    <div style={{ marginBottom: "var(--mantine-spacing-md)" }}>
      <Callout color={colors[flash.kind]} role="status">
        {flash.text ?? t(flash.message)}
      </Callout>
    </div>
  );
}
