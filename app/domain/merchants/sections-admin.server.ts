import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { list, word, type NameParam } from "~/lib/outcome";

/**
 * A setting a section declares for the merchant to choose on its administration page. `label` and
 * `hint` are translation keys. A `fixed` setting is shown and answered but keeps its default: the
 * platform does not offer the other value yet.
 */
export type SectionSetting = { name: string; label: string; hint?: string } & (
  | { type: "boolean"; default: boolean; fixed?: true }
  /** Whole hours from 1 to MAX_HOURS, or null for none. */
  | { type: "hours"; default: number | null }
  | { type: "choice"; default: string; choices: readonly { value: string; label: string }[] }
);

export type SettingValue = boolean | number | string | null;
export type SettingValues = Record<string, SettingValue>;

/** A year. */
export const MAX_HOURS = 8760;

/** A section as the administration installs it: its key, its name in both languages (for the audit), and all its features. */
export type InstallableSection = { key: string; name: NameParam; features: readonly string[] };

export type SectionState = { key: string; installed: boolean; features: string[] };

type Actor = { id: number; username: string };

/** Whether the merchant has each of these sections, and which of its features. */
export async function listSectionStates(
  db: DB,
  merchantId: number,
  sections: readonly Pick<InstallableSection, "key">[],
): Promise<SectionState[]> {
  if (!sections.length) return [];
  const rows = await db
    .selectFrom("merchant_features")
    .select(["section", "feature"])
    .where("merchant_id", "=", merchantId)
    .where(
      "section",
      "in",
      sections.map((section) => section.key),
    )
    .execute();
  return sections.map((section) => {
    const own = rows.filter((row) => row.section === section.key);
    return {
      key: section.key,
      installed: own.some((row) => row.feature === ""),
      features: own
        .map((row) => row.feature)
        .filter(Boolean)
        .sort(),
    };
  });
}

/**
 * Gives the merchant the section with every one of its features, audited. A section already
 * installed is left as it is. Nothing else is written: its transactions, table headers and
 * settings never left.
 */
export async function installSection(
  db: DB,
  input: { merchantId: number; actor: Actor; section: InstallableSection; ip?: string | null },
) {
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const [before] = await listSectionStates(trx, input.merchantId, [input.section]);
    if (before.installed) return { changed: false, state: before };
    const rows = ["", ...input.section.features].map((feature) => ({
      merchant_id: input.merchantId,
      section: input.section.key,
      feature,
    }));
    await trx
      .insertInto("merchant_features")
      .values(rows)
      .onConflict((conflict) => conflict.columns(["merchant_id", "section", "feature"]).doNothing())
      .execute();
    await trx
      .insertInto("merchant_plugins")
      .values({ merchant_id: input.merchantId, plugin: input.section.key, installed_at: nowIso() })
      .onConflict((conflict) => conflict.columns(["merchant_id", "plugin"]).doNothing())
      .execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "section_installed",
      params: { section: input.section.name },
      objectType: "section",
      objectId: input.section.key,
      ip: input.ip ?? null,
    });
    const [after] = await listSectionStates(trx, input.merchantId, [input.section]);
    return { changed: true, state: after };
  });
}

/**
 * Takes the section away from the merchant: its flags and its plugin row, audited. Whatever reads
 * the merchant's sections (menu, pages, API, exports) stops offering it. Its transactions, table
 * headers and settings stay in the database for a reinstall; public pay links do not depend on it.
 */
export async function uninstallSection(
  db: DB,
  input: { merchantId: number; actor: Actor; section: InstallableSection; ip?: string | null },
) {
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const removed = await trx
      .deleteFrom("merchant_features")
      .where("merchant_id", "=", input.merchantId)
      .where("section", "=", input.section.key)
      .executeTakeFirst();
    await trx
      .deleteFrom("merchant_plugins")
      .where("merchant_id", "=", input.merchantId)
      .where("plugin", "=", input.section.key)
      .execute();
    const changed = Number(removed.numDeletedRows) > 0;
    if (changed) {
      await recordAudit(trx, {
        merchantId: input.merchantId,
        actor: input.actor,
        action: "section_uninstalled",
        params: { section: input.section.name },
        objectType: "section",
        objectId: input.section.key,
        ip: input.ip ?? null,
      });
    }
    return { changed, state: { key: input.section.key, installed: false, features: [] } satisfies SectionState };
  });
}

/** The merchant's installed plugins, as the dashboard's shell asks for them. */
export async function listInstalledPlugins(db: DB, merchantId: number): Promise<string[]> {
  const rows = await db.selectFrom("merchant_plugins").select("plugin").where("merchant_id", "=", merchantId).execute();
  return rows.map((row) => row.plugin);
}

function defaultsOf(fields: readonly SectionSetting[]): SettingValues {
  return Object.fromEntries(fields.map((field) => [field.name, field.default]));
}

/** A stored value still valid for its field, else undefined (a field whose rules changed falls back to its default). */
function validStored(field: SectionSetting, value: unknown): SettingValue | undefined {
  if (field.type === "boolean")
    return typeof value === "boolean" && (!field.fixed || value === field.default) ? value : undefined;
  if (field.type === "hours")
    return value === null || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_HOURS)
      ? (value as number | null)
      : undefined;
  return field.choices.some((choice) => choice.value === value) ? (value as string) : undefined;
}

/** The merchant's settings of a section: what they chose, and each field's default for the rest. */
export async function loadSectionSettings(
  db: DB,
  merchantId: number,
  section: { key: string; settings?: readonly SectionSetting[] },
): Promise<SettingValues> {
  const fields = section.settings ?? [];
  const row = await db
    .selectFrom("section_settings")
    .select("settings")
    .where("merchant_id", "=", merchantId)
    .where("section", "=", section.key)
    .executeTakeFirst();
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = row ? JSON.parse(row.settings) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) stored = parsed as Record<string, unknown>;
  } catch {
    stored = {};
  }
  const values = defaultsOf(fields);
  for (const field of fields) {
    const value = validStored(field, stored[field.name]);
    if (value !== undefined) values[field.name] = value;
  }
  return values;
}

const TRUE_WORDS = ["on", "true", "1"];

/**
 * Checks changes to a section's settings. `json` is the API's body (changes only the fields it
 * sends; unknown fields refused by name); `form` the page's (every field that can change is sent, an
 * unticked box is off). Error codes are translation keys.
 */
export function checkSectionSettings(
  fields: readonly SectionSetting[],
  input: Record<string, unknown>,
  from: "json" | "form",
): { ok: true; changes: SettingValues } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const changes: SettingValues = {};
  const known = new Map(fields.map((field) => [field.name, field]));
  for (const name of Object.keys(input))
    if (!known.has(name) && from === "json") errors[name] = ["api.read_only_field"];
  for (const field of fields) {
    const sent = field.name in input;
    if (!sent && (from === "json" || field.type !== "boolean" || field.fixed)) continue;
    const raw = input[field.name];
    if (field.type === "boolean") {
      // A ticked box sends "on"; an unticked one sends nothing.
      const value = from === "form" ? sent && TRUE_WORDS.includes(String(raw)) : raw;
      if (typeof value !== "boolean") errors[field.name] = ["api.invalid_boolean"];
      else if (field.fixed && value !== field.default) errors[field.name] = ["admin.sections.errors.fixed"];
      else changes[field.name] = value;
    } else if (field.type === "hours") {
      const text =
        typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : raw === null ? "" : undefined;
      if (text === "") changes[field.name] = null;
      else if (text !== undefined && /^\d{1,4}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_HOURS)
        changes[field.name] = Number(text);
      else errors[field.name] = ["admin.sections.errors.hours"];
    } else if (typeof raw === "string" && field.choices.some((choice) => choice.value === raw)) {
      changes[field.name] = raw;
    } else {
      errors[field.name] = ["api.invalid_choice"];
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, changes };
}

/**
 * Saves checked changes to a section's settings; one audit entry names the fields that changed (in
 * the reader's language), in the same database transaction. Answers the settings as they are now.
 */
export async function updateSectionSettings(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    section: { key: string; name: NameParam; settings: readonly SectionSetting[] };
    changes: SettingValues;
    ip?: string | null;
  },
): Promise<{ changed: boolean; settings: SettingValues }> {
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const before = await loadSectionSettings(trx, input.merchantId, input.section);
    const changed = input.section.settings.filter(
      (field) => field.name in input.changes && input.changes[field.name] !== before[field.name],
    );
    if (!changed.length) return { changed: false, settings: before };
    const after = { ...before, ...Object.fromEntries(changed.map((field) => [field.name, input.changes[field.name]])) };
    const updatedAt = nowIso();
    await trx
      .insertInto("section_settings")
      .values({
        merchant_id: input.merchantId,
        section: input.section.key,
        settings: JSON.stringify(after),
        updated_at: updatedAt,
      })
      .onConflict((conflict) =>
        conflict
          .columns(["merchant_id", "section"])
          .doUpdateSet({ settings: JSON.stringify(after), updated_at: updatedAt }),
      )
      .execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "section_settings_changed",
      params: { section: input.section.name, fields: list(changed.map((field) => word(field.label))) },
      objectType: "section",
      objectId: input.section.key,
      ip: input.ip ?? null,
    });
    return { changed: true, settings: after };
  });
}
