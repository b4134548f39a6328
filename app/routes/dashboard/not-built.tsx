import { Alert } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/not-built";
import { PageHeader } from "~/components/page-header";
import { SECTIONS } from "~/sections/registry";
import type { Permission } from "~/domain/identity/permissions";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";

/**
 * The pages of a section this platform does not serve yet. Unavailable sections and unknown
 * sub-pages answer 404; available ones say plainly that the page is not built yet.
 */
export async function loader({ context, request, params, pattern }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  // Each section has a catch-all route of its own, ":lang/<its path>/*": the pattern names the section.
  const section = SECTIONS.find((candidate) => pattern.replace(/^\/+/, "") === `:lang/${candidate.path}/*`);
  if (!section) notFound();
  const rest = params["*"] ?? "";
  const feature = rest
    ? section.features.find((candidate) => rest === candidate.path || rest.startsWith(`${candidate.path}/`))
    : undefined;
  if (rest && !feature) notFound();
  await requireSection(context, auth, section.key, feature?.key);
  if (feature?.permission) requirePermission(auth, feature.permission as Permission);
  const titleKey = feature ? `features.${section.key}.${feature.key}` : `sections.${section.key}`;
  return { titleKey, title: translator(isLanguage(params.lang) ? params.lang : "en")(titleKey) };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? [{ title: loaderData.title }] : [];
}

export default function NotBuilt({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(loaderData.titleKey)} />
      <Alert variant="light" color="gray" title={t("not_built.title")}>
        {t("not_built.message")}
      </Alert>
    </>
  );
}
