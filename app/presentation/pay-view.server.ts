import type { DB } from "~/db/database.server";
import { remarkRows } from "~/domain/transactions/remarks";
import { DEFAULT_MAP_CENTER } from "~/domain/payments/delivery-schema";
import { deliveryStateOf, deliveryStepFor } from "~/domain/payments/delivery.server";
import { KUWAIT_AREAS_AR, KUWAIT_AREAS_EN } from "~/domain/payments/kuwait-areas";
import { chosenAmount, defaultChoice, loadPayPage, payChoicesFor } from "~/domain/payments/pay-page.server";
import { paymentReturnOf } from "~/domain/payments/returns.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { randomToken } from "~/lib/crypto.server";
import { env, sandboxEnabled } from "~/lib/env.server";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { formatAmount, toDecimalString } from "~/lib/money";
import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import { walletOffers, type WalletOffers } from "~/domain/payments/wallet-payments.server";
import { boundsOf, decimalBoundsOf } from "~/domain/payments/amount-bounds.server";
import { formatParams } from "./texts.server";
import { merchantContactView } from "./public-pay-view.server";
import type { PublicTransaction } from "~/domain/payments/pay-page.server";
import { activeCheckoutFields, customerFieldView } from "~/domain/payments/checkout-fields.server";

/** The sections whose transactions the pay page takes (the registry's, handed by the caller: presentation reads no section). */
export type PayPageSections = { payable: readonly string[]; checkoutFields: readonly string[] };

/**
 * What the pay page shows for a link, or where it sends the customer instead. One function for the
 * route's loader, the pay page's direct handler (pay-page-handler.server) and a checkout session's page.
 */
export async function payPageView(
  db: DB,
  sections: PayPageSections,
  lang: Language,
  transactionId: string,
  searchParams: URLSearchParams,
  visit: { opens: boolean },
  addresses?: PlatformAddresses,
) {
  const page = await loadPayPage(db, transactionId, sections.payable, visit);
  if (page.status === "not_found")
    return {
      kind: "page",
      httpStatus: 404,
      page: { status: page.status, lang, unit: null, view: null, settledLink: null, contact: null },
    } as const;
  const { transaction } = page;
  const unit = await loadUnitHeader(db, transaction, lang);
  const httpStatus = page.status === "paused" ? 423 : 200;
  // A link that cannot be paid any more sends the customer on to the merchant's next_url, if any.
  if (page.status !== "payable" && page.status !== "paused" && transaction.next_url)
    return { kind: "redirect", location: new URL(transaction.next_url).href } as const;
  if (page.status !== "payable") {
    const settledLink =
      page.status === "settled" && transaction.paid_attempt_id
        ? `/${lang}/pay/attempt-detail/${transaction.paid_attempt_id}`
        : null;
    // Only a link that can no longer be paid tells the customer how to reach the merchant.
    const contact =
      page.status === "expired" || page.status === "closed"
        ? await merchantContactView(db, transaction.merchant_id, unit)
        : null;
    // A payment the platform gives back (an order canceled before it arrived) is not "paid".
    const returned =
      (page.status === "settled" || page.status === "closed") && transaction.paid_attempt_id
        ? await paymentReturnOf(db, transaction.paid_attempt_id)
        : undefined;
    const returning = returned ? (returned.status === "returned" ? "returned" : "returning") : null;
    return {
      kind: "page",
      httpStatus,
      page: { status: page.status, lang, unit, view: null, settledLink, contact, returning },
    } as const;
  }
  const delivery = await deliveryStateOf(db, transaction.id);
  const step = deliveryStepFor(delivery, searchParams.get("step"));
  const typed = searchParams.get("amount")?.slice(0, 20) ?? "";
  const chosen = chosenAmount(transaction, typed);
  const amount = chosen.ok ? chosen.amount : transaction.amount;
  const asking = step && delivery.mode !== "none";
  // The fields go with the payment methods: none while a delivery step is shown instead.
  const [choices, checkoutFields] = await Promise.all([
    payChoicesFor(db, transaction, amount, lang),
    !asking && sections.checkoutFields.includes(transaction.plugin)
      ? activeCheckoutFields(db, transaction.merchant_id, transaction.plugin)
      : [],
  ]);
  // The wallets go with the payment methods too, and only to a page that can run the wallet's script.
  const offers =
    !asking && addresses && choices.length ? await walletOffers(db, transaction.merchant_id, choices, addresses) : null;
  const country =
    offers?.applePay || offers?.googlePay
      ? (
          await db
            .selectFrom("merchants")
            .select("country_code")
            .where("id", "=", transaction.merchant_id)
            .executeTakeFirst()
        )?.country_code
      : null;
  const requested = choices.find((choice) => choice.gateway_code === searchParams.get("gateway"));
  const selected = requested ?? defaultChoice(choices);
  const money = (minor: number) => formatAmount(minor, transaction.currency_code, lang);
  return {
    kind: "page" as const,
    httpStatus,
    page: {
      status: page.status,
      lang,
      unit,
      settledLink: null,
      contact: null,
      view: {
        id: transaction.id,
        orderNo: transaction.order_no,
        delivery:
          step && delivery.mode !== "none"
            ? {
                step,
                mode: delivery.mode,
                address: delivery.address,
                location: delivery.location,
                defaultCenter: DEFAULT_MAP_CENTER,
                areas: lang === "ar" ? [...KUWAIT_AREAS_AR] : [...KUWAIT_AREAS_EN],
                prefilled: step === "address" && Boolean(delivery.address),
                mapStyleUrl: env().MAP_STYLE_URL ?? null,
              }
            : null,
        customerName: [transaction.customer_first_name, transaction.customer_last_name].filter(Boolean).join(" "),
        customerEmail: transaction.customer_email,
        description: transaction.description,
        remarks: remarkRows(transaction.remarks),
        attachment: transaction.attachment_name
          ? { name: transaction.attachment_name, url: `/${lang}/pay/${transaction.id}/attachment` }
          : null,
        amount: money(amount),
        editable: transaction.editable_amount ? amountFieldOf(transaction, lang) : null,
        typedAmount: typed,
        amountError: chosen.ok ? null : { key: chosen.error, values: formatParams(chosen.params, lang) },
        expires: transaction.expiration_time ? formatDateTime(transaction.expiration_time, lang) : null,
        choices: choices.map((choice) => ({
          code: choice.gateway_code,
          name: choice.gateway,
          logoUrl: choice.logo_url,
          total: money(choice.amount),
          amount: toDecimalString(choice.amount, choice.currency_code),
          fee: choice.fee > 0 ? money(choice.fee) : null,
          cashOnDelivery: choice.kind === "cod",
          feeByMerchant: choice.fee_payer === "merchant",
        })),
        selected: selected?.gateway_code ?? null,
        checkoutFields: checkoutFields.map((field) => customerFieldView(field, lang)),
        submissionToken: randomToken(16),
        wallets:
          offers && (offers.applePay || offers.googlePay)
            ? walletsView(offers, transaction, { shopName: unit?.title ?? "", country: country ?? "KW" }, lang)
            : null,
      },
    },
  };
}

/** What the pay page's wallet script needs to open Apple's or Google's payment sheet (pay/wallet-*.ts take the result). */
function walletsView(
  offers: WalletOffers,
  transaction: PublicTransaction,
  merchant: { shopName: string; country: string },
  lang: Language,
) {
  const base = `/${lang}/pay/${transaction.id}/wallet`;
  return {
    sessionUrl: `${base}/session`,
    payUrl: `${base}/pay`,
    logUrl: `${base}/log`,
    label: merchant.shopName || String(transaction.order_no),
    currency: transaction.currency_code,
    country: merchant.country,
    applePay: offers.applePay ? { code: offers.applePay.gatewayCode } : null,
    googlePay: offers.googlePay
      ? {
          code: offers.googlePay.gatewayCode,
          gateway: offers.googlePay.gateway,
          gatewayMerchantId: offers.googlePay.gatewayMerchantId,
          merchantId: offers.googlePay.googleMerchantId,
          // Google's TEST environment charges nothing: the sandboxes and an installation without Google's merchant id.
          environment: (offers.googlePay.googleMerchantId && !sandboxEnabled() ? "PRODUCTION" : "TEST") as
            "PRODUCTION" | "TEST",
        }
      : null,
  };
}

/** The editable amount's field: its bounds on the input, and as the hint under it. */
function amountFieldOf(transaction: PublicTransaction, lang: Language) {
  const bounds = boundsOf(transaction);
  const decimals = decimalBoundsOf(transaction);
  return {
    min: decimals.min_amount ?? "",
    max: decimals.max_amount ?? "",
    range: {
      min: formatAmount(bounds.min, transaction.currency_code, lang),
      max: formatAmount(bounds.max, transaction.currency_code, lang),
    },
  };
}

export type PayPageData = Extract<Awaited<ReturnType<typeof payPageView>>, { kind: "page" }>["page"];
