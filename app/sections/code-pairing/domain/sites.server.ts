import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import type { Language } from "~/lib/i18n";
import { isPrivateHost } from "~/domain/integrations/webhook-targets.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { nowIso } from "~/lib/clock.server";
import { env } from "~/lib/env.server";
import { LABEL_MAX } from "./normalize";

/** The paired field's label when neither the site nor the merchant names it (texts in cpr_public). */
export const PLATFORM_LABEL = "cpr_public.default_label";
export { LABEL_MAX } from "./normalize";

/**
 * The site a Referer (or a `site` parameter, or the API's `referer`) names: its host in lower case,
 * its port kept, a leading "www." dropped (a merchant's site answers on both). A bare host is read
 * as one; anything else is no site.
 */
export function siteHost(referer: string | null | undefined): string | null {
  const text = (referer ?? "").trim();
  if (!text || text.length > 500) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.host.toLowerCase().replace(/^www\./, "");
  return /^[a-z0-9.-]+(?::\d{1,5})?$/.test(host) && host.includes(".")
    ? host
    : /^localhost(?::\d{1,5})?$/.test(host)
      ? host
      : null;
}

export type Site = { id: number; merchantId: number; host: string; labelEn: string; labelAr: string };

export async function findSite(db: DB, host: string | null): Promise<Site | null> {
  if (!host) return null;
  const row = await db.selectFrom("code_pairing_sites").selectAll().where("host", "=", host).executeTakeFirst();
  return row
    ? { id: row.id, merchantId: row.merchant_id, host: row.host, labelEn: row.label_en, labelAr: row.label_ar }
    : null;
}

/** Whether a merchant takes codes now: it is active and still has the code pairing section. */
export async function merchantTakesCodes(db: DB, merchantId: number): Promise<boolean> {
  const merchant = await db.selectFrom("merchants").select("is_active").where("id", "=", merchantId).executeTakeFirst();
  if (!merchant || !Number(merchant.is_active)) return false;
  return hasFeature(await loadAvailableSections(db, merchantId), "code_pairing");
}

/** The site customers come from, when its merchant takes codes now (else no site: the pages answer 404). */
export async function findOpenSite(db: DB, host: string | null): Promise<Site | null> {
  const site = await findSite(db, host);
  return site && (await merchantTakesCodes(db, site.merchantId)) ? site : null;
}

/**
 * A host no merchant may name as its site: this machine (localhost, *.localhost), an address of a
 * private range, or the platform's own host (its pages are no merchant's site).
 */
export function isRefusedHost(host: string, platformUrl = env().BASE_URL ?? ""): boolean {
  const name = host.replace(/:\d+$/, "");
  if (isPrivateHost(name)) return true;
  const own = siteHost(platformUrl);
  return own !== null && own.replace(/:\d+$/, "") === name;
}

export async function loadDefaultLabel(db: DB, merchantId: number) {
  const row = await db
    .selectFrom("code_pairing_settings")
    .select(["label_en", "label_ar"])
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return row ? { en: row.label_en, ar: row.label_ar } : { en: "", ar: "" };
}

/**
 * The paired field's label on a site in a language: the site's own, else the merchant's default,
 * else the platform's words (null: the caller translates PLATFORM_LABEL).
 */
export async function pairLabel(db: DB, site: Site, lang: Language): Promise<string | null> {
  const own = lang === "ar" ? site.labelAr || site.labelEn : site.labelEn || site.labelAr;
  if (own) return own;
  const fallback = await loadDefaultLabel(db, site.merchantId);
  return (lang === "ar" ? fallback.ar || fallback.en : fallback.en || fallback.ar) || null;
}

export async function listSites(db: DB, merchantId: number) {
  return db
    .selectFrom("code_pairing_sites")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("host")
    .execute();
}

type Actor = { id: number; username: string };

function readLabels(input: { label_en?: string; label_ar?: string }, errors: FieldErrors) {
  const en = (input.label_en ?? "").trim();
  const ar = (input.label_ar ?? "").trim();
  if (en.length > LABEL_MAX) errors.label_en = ["errors.too_long"];
  if (ar.length > LABEL_MAX) errors.label_ar = ["errors.too_long"];
  return { en, ar };
}

/** Adds a site of the merchant's, or changes the labels of one (by id, its own only). A host belongs to one merchant. */
export async function saveSite(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    id?: number;
    host?: string;
    label_en?: string;
    label_ar?: string;
    ip?: string | null;
  },
): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const labels = readLabels(input, errors);
  if (input.id !== undefined) {
    if (Object.keys(errors).length) return { ok: false, errors };
    const changed = await db
      .updateTable("code_pairing_sites")
      .set({ label_en: labels.en, label_ar: labels.ar, updated_at: nowIso() })
      .where("id", "=", input.id)
      .where("merchant_id", "=", input.merchantId)
      .returning("host")
      .executeTakeFirst();
    if (!changed) return { ok: false, errors: { non_field_errors: ["code_pairing.sites.not_found"] } };
    await recordAudit(db, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "cpr_site_changed",
      params: { host: changed.host },
      objectType: "code_pairing_site",
      objectId: input.id,
      ip: input.ip,
    });
    return { ok: true };
  }
  const host = siteHost(input.host);
  if (!(input.host ?? "").trim()) errors.host = ["errors.required"];
  else if (!host) errors.host = ["code_pairing.sites.invalid_host"];
  else if (isRefusedHost(host)) errors.host = ["code_pairing.sites.refused_host"];
  if (Object.keys(errors).length || !host) return { ok: false, errors };
  const taken = await db.selectFrom("code_pairing_sites").select("id").where("host", "=", host).executeTakeFirst();
  if (taken) return { ok: false, errors: { host: ["code_pairing.sites.taken"] } };
  const stamp = nowIso();
  try {
    const row = await db
      .insertInto("code_pairing_sites")
      .values({
        merchant_id: input.merchantId,
        host,
        label_en: labels.en,
        label_ar: labels.ar,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(db, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "cpr_site_added",
      params: { host },
      objectType: "code_pairing_site",
      objectId: row.id,
      ip: input.ip,
    });
  } catch {
    // Added by someone else at the same moment: the unique host says so.
    return { ok: false, errors: { host: ["code_pairing.sites.taken"] } };
  }
  return { ok: true };
}

export async function removeSite(db: DB, input: { merchantId: number; actor: Actor; id: number; ip?: string | null }) {
  const removed = await db
    .deleteFrom("code_pairing_sites")
    .where("id", "=", input.id)
    .where("merchant_id", "=", input.merchantId)
    .returning("host")
    .executeTakeFirst();
  if (!removed) return false;
  await recordAudit(db, {
    merchantId: input.merchantId,
    actor: input.actor,
    action: "cpr_site_removed",
    params: { host: removed.host },
    objectType: "code_pairing_site",
    objectId: input.id,
    ip: input.ip,
  });
  return true;
}

export async function saveDefaultLabel(
  db: DB,
  input: { merchantId: number; actor: Actor; label_en?: string; label_ar?: string; ip?: string | null },
): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const labels = readLabels(input, errors);
  if (Object.keys(errors).length) return { ok: false, errors };
  const stamp = nowIso();
  await db
    .insertInto("code_pairing_settings")
    .values({ merchant_id: input.merchantId, label_en: labels.en, label_ar: labels.ar, updated_at: stamp })
    .onConflict((oc) =>
      oc.column("merchant_id").doUpdateSet({ label_en: labels.en, label_ar: labels.ar, updated_at: stamp }),
    )
    .execute();
  await recordAudit(db, {
    merchantId: input.merchantId,
    actor: input.actor,
    action: "cpr_default_label_changed",
    params: { en: labels.en || "—", ar: labels.ar || "—" },
    objectType: "code_pairing_settings",
    objectId: input.merchantId,
    ip: input.ip,
  });
  return { ok: true };
}
