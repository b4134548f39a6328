import type { Route } from "./+types/create";
import { translator } from "~/lib/i18n.server";
import { toDecimalString } from "~/lib/money";
import { apiDetail, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { PUBLIC_CALLER, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { CollectPaymentSchema, createCollectorPayment, loadCollectForm } from "../../domain/collect.server";
import { issuesAsFieldErrors } from "../../domain/collector-schema";
import { collectorUrl, findPublicCollector } from "../../domain/collectors.server";
import { collectThrottled, countCollectPayment } from "../public/collect-view.server";
import { apiFieldErrors, collectApiLanguage } from "./collect-api.server";

async function requireCollector(request: Request, db: ReturnType<typeof getDbFrom>, publicId: string | undefined) {
  const collector = publicId ? await findPublicCollector(db, publicId) : undefined;
  if (!collector || !collector.is_active) throw apiDetail(request, "collect_public.errors.not_found", 404);
  return collector;
}

/**
 * OPTIONS create/{collector_id}: what the collector's form needs — its titles, the fields it asks
 * (name, kind, labels, required), the currencies with their limits, the gateways, and whether it takes
 * payments today. Anonymous.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (request.method !== "OPTIONS") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const collector = await requireCollector(request, db, params.collectorId);
  const form = await loadCollectForm(db, collector);
  const { restrictions } = form;
  const en = translator("en");
  const ar = translator("ar");
  return apiJson({
    id: collector.public_id,
    title_en: collector.title_en,
    title_ar: collector.title_ar,
    description_en: collector.description_en,
    description_ar: collector.description_ar,
    url: collectorUrl(linkBaseUrl(), collectApiLanguage(request), collector.public_id),
    accepting_payments: form.accepting,
    active_from: restrictions.activeFrom,
    active_to: restrictions.activeTo,
    fields: form.fields.map((field) => ({
      name: field.name,
      type: field.kind,
      label_en: field.label?.en ?? en(`collect_public.fields.${field.kind}`),
      label_ar: field.label?.ar ?? ar(`collect_public.fields.${field.kind}`),
      required: field.required,
    })),
    amount: { required: true, label_en: en("collect_public.amount"), label_ar: ar("collect_public.amount") },
    currencies: restrictions.currencies.map((currency) => {
      const limit = restrictions.limits[currency];
      return {
        currency_code: currency,
        min_amount: toDecimalString(limit.min, currency),
        max_amount: toDecimalString(limit.max, currency),
        daily_cap: limit.dailyCap === null ? null : toDecimalString(limit.dailyCap, currency),
      };
    }),
    default_currency: restrictions.defaultCurrency,
    gateways: restrictions.gateways.map((gateway) => ({
      gateway_code: gateway.code,
      gateway_en: gateway.name_en,
      gateway_ar: gateway.name_ar,
      logo_url: gateway.logo_url,
      currencies: gateway.currencies
        .split(",")
        .map((code) => code.trim().toUpperCase())
        .filter((code) => restrictions.currencies.includes(code)),
    })),
    daily_cap_key: form.identity,
  });
}

/**
 * POST create/{collector_id} {"amount", "currency_code"?, "gateway_code", "customer_name", "customer_email",
 * "customer_phone", "reference", "extra": {…}}: 201 {"id", "order_no", "amount", "currency_code",
 * "state", "pay_url"}, or 400 with the fields' errors in the caller's language (423 when the collector
 * is not taking payments). Anonymous, throttled per address; an Idempotency-Key makes a retry create once.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = collectApiLanguage(request);
  const collector = await requireCollector(request, db, params.collectorId);
  const body = await readBody(request);
  const ip = context.get(clientAddressContext);
  if (await collectThrottled(db, ip, collector.id)) return apiDetail(request, "collect_public.errors.throttled", 429);
  // Anonymous callers' Idempotency-Keys live apart from the merchant's own (and each collector's from another's).
  return respondOnce(
    request,
    {
      db,
      merchantId: collector.merchant_id,
      caller: PUBLIC_CALLER,
      scope: `collect:${collector.public_id}`,
      body,
      keyPrefix: `collect:${collector.public_id}:`,
    },
    async () => {
      const normalized = {
        ...body,
        amount: body.amount === undefined || body.amount === null ? "" : String(body.amount),
      };
      const parsed = CollectPaymentSchema.safeParse(normalized);
      if (!parsed.success)
        return { status: 400, body: apiFieldErrors(issuesAsFieldErrors(parsed.error.issues), undefined, lang) };
      const made = await createCollectorPayment(db, { collector, input: parsed.data, lang, baseUrl: linkBaseUrl() });
      if (!made.ok && made.kind === "closed")
        return { status: 423, body: { detail: translator(lang)("collect_public.closed") } };
      if (!made.ok) return { status: 400, body: apiFieldErrors(made.errors, made.params, lang) };
      await countCollectPayment(db, ip, collector.id);
      const { id, orderNo, amount, currency, payUrl } = made.transaction;
      return {
        status: 201,
        body: {
          id,
          order_no: orderNo,
          amount: toDecimalString(amount, currency),
          currency_code: currency,
          state: "created",
          pay_url: payUrl,
        },
      };
    },
  );
}
