/**
 * The sections the administration panel installs and configures, read from the registry for the
 * Sections page and its API (the domain is handed them: it never reads the sections itself), and
 * the merchant's settings of a section as its own pages and hooks read them.
 */
import type { DB } from "~/db/database.server";
import {
  loadSectionSettings,
  type InstallableSection,
  type SettingValues,
} from "~/domain/merchants/sections-admin.server";
import { translator } from "~/lib/i18n.server";
import { named } from "~/lib/outcome";
import type { SectionDeclaration } from "./contract";
import { findSection, MENU_SECTIONS } from "./registry";

export type AdminSection = InstallableSection & { settings: NonNullable<SectionDeclaration["settings"]> };

function adminSectionOf(section: SectionDeclaration): AdminSection {
  const key = `sections.${section.key}`;
  return {
    key: section.key,
    name: named(translator("en")(key), translator("ar")(key)),
    features: section.features.map((feature) => feature.key),
    settings: section.settings ?? [],
  };
}

/** Only built sections are offered: one not built yet has nothing to install. */
export const ADMIN_SECTIONS: readonly AdminSection[] = MENU_SECTIONS.map(adminSectionOf);

export function findAdminSection(key: string | undefined): AdminSection | undefined {
  return ADMIN_SECTIONS.find((section) => section.key === key);
}

/** A built section that has settings to choose. */
export function findConfigurableSection(key: string | undefined): AdminSection | undefined {
  const section = findAdminSection(key);
  return section?.settings.length ? section : undefined;
}

/**
 * A section's settings for the merchant, each field's default where they chose nothing. A section
 * reads them by its key (beside the registry, in the sections' index: never through app/web).
 */
export function loadSettingsOf(db: DB, merchantId: number, key: string): Promise<SettingValues> {
  const section = findSection(key);
  if (!section) throw new Error(`loadSettingsOf: no section ${key}`);
  return loadSectionSettings(db, merchantId, section);
}
