import { data } from "react-router";
import type { DB } from "~/db/database.server";
import { addressGroup, isThrottled, recordHits } from "~/domain/identity/throttle.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { publicId } from "~/lib/ids.server";
import { formatAmount } from "~/lib/money";
import type { CollectForm } from "../../domain/collect.server";
import { findPublicCollector } from "../../domain/collectors.server";

export function languageOf(params: { lang?: string }): Language {
  return isLanguage(params.lang) ? params.lang : "en";
}

/** An active collector by the id in its link; the page's 404 otherwise (a deactivated one included). */
export async function requireActiveCollector(db: DB, publicId: string | undefined) {
  const collector = publicId ? await findPublicCollector(db, publicId) : undefined;
  if (!collector || !collector.is_active) throw data(null, { status: 404 });
  return collector;
}

/**
 * The limits on one address: payments made through one collector (a shop's Wi-Fi or a carrier's
 * shared address pays many customers, each once), and every submission to any collector, refusals
 * included, so that nobody probes customers' phone numbers against the daily cap or floods the form.
 */
const createdRule = (collectorId: number, ip: string | null) => ({
  bucket: `collect:${collectorId}:${addressGroup(ip)}`,
  limit: 30,
  windowMs: 10 * 60_000,
});
const triedRule = (ip: string | null) => ({
  bucket: `collect-try:${addressGroup(ip)}`,
  limit: 200,
  windowMs: 10 * 60_000,
});

/** Whether this address has paid through this collector, or sent collector forms, too often lately; counts this submission. */
export async function collectThrottled(db: DB, ip: string | null, collectorId: number) {
  if (await isThrottled(db, [createdRule(collectorId, ip), triedRule(ip)])) return true;
  await recordHits(db, [triedRule(ip)]);
  return false;
}

/** Counts a payment this address made through this collector. */
export async function countCollectPayment(db: DB, ip: string | null, collectorId: number) {
  await recordHits(db, [createdRule(collectorId, ip)]);
}

/** A collector's page as it is written out, every word in the page's language. */
export async function collectPageView(db: DB, form: CollectForm, lang: Language) {
  const t = translator(lang);
  const { collector, restrictions } = form;
  const unit = await loadUnitHeader(db, collector, lang);
  const money = (minor: number, currency: string) => formatAmount(minor, currency, lang);
  return {
    lang,
    unit,
    publicId: collector.public_id,
    // A new one each time the form is shown: sent twice, one payment.
    submissionToken: publicId(),
    accepting: form.accepting,
    title: lang === "ar" ? collector.title_ar : collector.title_en,
    description: lang === "ar" ? collector.description_ar : collector.description_en,
    currencies: restrictions.currencies,
    defaultCurrency: restrictions.defaultCurrency,
    ranges: restrictions.currencies.map((currency) => {
      const limit = restrictions.limits[currency];
      return {
        currency,
        text: t("collect_public.range", { min: money(limit.min, currency), max: money(limit.max, currency) }),
        cap: limit.dailyCap === null ? null : t("collect_public.cap_hint", { cap: money(limit.dailyCap, currency) }),
      };
    }),
    fields: form.fields.map((field) => ({
      name: field.name,
      kind: field.kind,
      label: field.label ? field.label[lang] || field.label.en : t(`collect_public.fields.${field.kind}`),
      required: field.required,
    })),
    gateways: restrictions.gateways.map((gateway) => ({
      code: gateway.code,
      name: lang === "ar" ? gateway.name_ar : gateway.name_en,
      logoUrl: gateway.logo_url,
      // Named only when the page takes several currencies and this method not all of them.
      currencies:
        restrictions.currencies.length > 1
          ? gateway.currencies
              .split(",")
              .map((code) => code.trim().toUpperCase())
              .filter((code) => restrictions.currencies.includes(code))
          : [],
    })),
  };
}

export type CollectPageView = Awaited<ReturnType<typeof collectPageView>>;

export { fieldMessages } from "../../presentation/messages.server";
