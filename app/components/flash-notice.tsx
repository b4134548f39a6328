import { Alert } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import type { Flash } from "~/web/flash.server";

const colors = { success: "green", error: "red", info: "blue" } as const;

/** The one-time notice left by the previous request (a redirect after a form). */
export function FlashNotice() {
  const { t } = useTranslation();
  const root = useRouteLoaderData("root") as { flash: Flash | null } | undefined;
  const flash = root?.flash;
  if (!flash) return null;
  return (
    <Alert color={colors[flash.kind]} variant="light" role="status" mb="md">
      {t(flash.message)}
    </Alert>
  );
}
