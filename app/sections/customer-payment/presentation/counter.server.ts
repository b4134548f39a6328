import type { CollectorPaymentInput, CollectorPaymentResult, CounterCollector } from "../../contract";
import type { DB } from "~/db/database.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import { linkBaseUrl } from "~/web/sign-in.server";
import { issuesAsFieldErrors } from "../domain/collector-schema";
import { CollectPaymentSchema, createCollectorPayment, loadCollectForm } from "../domain/collect.server";
import { findPublicCollector, listCollectors } from "../domain/collectors.server";

/**
 * Collector pages at the point-of-sale counter (contract `collectorPayment`): staff take a payment
 * through one of the merchant's pages for the customer in front of them, under the page's own rules
 * (its fields, currencies, limits and daily cap), and the customer pays it on their phone.
 */

const hasCollectors = async (db: DB, merchantId: number) =>
  hasFeature(await loadAvailableSections(db, merchantId), "customer_payment");

/** One of the merchant's active collectors, when the merchant has the section; undefined otherwise. */
async function counterCollector(db: DB, merchantId: number, collectorId: string) {
  if (!(await hasCollectors(db, merchantId))) return undefined;
  const collector = await findPublicCollector(db, collectorId);
  return collector && collector.merchant_id === merchantId && collector.is_active ? collector : undefined;
}

/** The merchant's active collector pages, newest first, by title in the reader's language. */
export async function listCounterCollectors(db: DB, input: { merchantId: number; lang: Language }) {
  if (!(await hasCollectors(db, input.merchantId))) return [];
  const collectors = await listCollectors(db, input.merchantId);
  return collectors
    .filter((collector) => collector.is_active)
    .map((collector) => ({
      publicId: collector.public_id,
      title: (input.lang === "ar" ? collector.title_ar : collector.title_en) || collector.title_en,
    }));
}

/** A collector page's form as the counter shows it; null for one that is not the merchant's or not active. */
export async function counterForm(
  db: DB,
  input: { merchantId: number; collectorId: string; lang: Language },
): Promise<CounterCollector | null> {
  const collector = await counterCollector(db, input.merchantId, input.collectorId);
  if (!collector) return null;
  const form = await loadCollectForm(db, collector);
  const { restrictions } = form;
  const t = translator(input.lang);
  const money = (minor: number, currency: string) => formatAmount(minor, currency, input.lang);
  return {
    publicId: collector.public_id,
    title: (input.lang === "ar" ? collector.title_ar : collector.title_en) || collector.title_en,
    accepting: form.accepting,
    currencies: [...restrictions.currencies],
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
      label: field.label ? field.label[input.lang] || field.label.en : t(`collect_public.fields.${field.kind}`),
      required: field.required,
    })),
    gateways: restrictions.gateways.map((gateway) => ({
      code: gateway.code,
      name: input.lang === "ar" ? gateway.name_ar : gateway.name_en,
    })),
  };
}

/** Takes the payment as the collector's own form would, with the person at the counter as its initiator. */
export async function makeCounterPayment(db: DB, input: CollectorPaymentInput): Promise<CollectorPaymentResult> {
  const collector = await counterCollector(db, input.merchantId, input.collectorId);
  if (!collector) return { ok: false, closed: true };
  const extra: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.fields))
    if (name.startsWith("extra.")) extra[name.slice("extra.".length)] = value;
  const parsed = CollectPaymentSchema.safeParse({ ...input.fields, extra });
  if (!parsed.success)
    return { ok: false, closed: false, errors: issuesAsFieldErrors(parsed.error.issues), params: {} };
  const made = await createCollectorPayment(db, {
    collector,
    input: parsed.data,
    lang: input.lang,
    baseUrl: linkBaseUrl(),
    counter: { user: input.user, source: input.source },
  });
  if (!made.ok)
    return made.kind === "closed"
      ? { ok: false, closed: true }
      : { ok: false, closed: false, errors: made.errors, params: made.params };
  return { ok: true, transactionId: made.transaction.id, payUrl: made.transaction.payUrl };
}
