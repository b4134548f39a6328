import type { DB } from "~/db/database.server";
import { translator, type Language } from "~/lib/i18n.server";
import { decimalBoundsOf } from "~/domain/payments/amount-bounds.server";
import { describe } from "./texts.server";
import { formatAmount, toDecimalString } from "~/lib/money";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import type { ContactView } from "~/components/pay/contact-merchant";
import { loadMerchantContact } from "~/domain/merchants/merchants.server";
import { unitOf } from "~/domain/merchants/units.server";
import {
  chosenAmount,
  defaultChoice,
  loadPayPage,
  payChoicesFor,
  type PayChoice,
  type PublicTransaction,
} from "~/domain/payments/pay-page.server";
import { activeCheckoutFields, customerFieldView } from "~/domain/payments/checkout-fields.server";
import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import { walletOffers } from "~/domain/payments/wallet-payments.server";
import { paymentReturnOf } from "~/domain/payments/returns.server";

function serializeChoice(choice: PayChoice, lang: Language) {
  const t = translator(lang);
  const money = (minor: number) => toDecimalString(minor, choice.currency_code);
  return {
    gateway: choice.gateway,
    gateway_code: choice.gateway_code,
    value: choice.gateway_code,
    logo_url: choice.logo_url,
    amount: money(choice.amount),
    base_amount: money(choice.base_amount),
    fee: money(choice.fee),
    fee_description:
      choice.fee > 0
        ? t("pay.fee_line", { fee: formatAmount(choice.fee, choice.currency_code, lang) })
        : t("pay.no_fee"),
    currency_code: choice.currency_code,
    delivery_charges: null,
    button_verb: t("pay.pay_now", { amount: "" }).trim(),
  };
}

/**
 * A pay-choices answer (public spec §4): the choices as the pay API lists them and the default one.
 * The sections' public APIs answer their own pay-choices with it, so every list reads the same.
 */
export function payChoicesBody(choices: PayChoice[], lang: Language) {
  return {
    pay_choices: choices.map((choice) => serializeChoice(choice, lang)),
    default_pay_choice: defaultChoice(choices)?.gateway_code ?? null,
  };
}

/** The pay-choice list for an amount typed on an editable request (POST pay-choices). */
export async function publicPayChoices(
  db: DB,
  transaction: PublicTransaction,
  amountText: string | null,
  lang: Language,
) {
  const chosen = chosenAmount(transaction, amountText);
  if (!chosen.ok) return { ok: false as const, error: describe(chosen.error, chosen.params, lang) };
  const choices = await payChoicesFor(db, transaction, chosen.amount, lang);
  return {
    ok: true as const,
    choices: choices.map((choice) => serializeChoice(choice, lang)),
    default: defaultChoice(choices)?.gateway_code ?? null,
    offered: choices,
  };
}

/**
 * Public spec §3's `apple_pay_config`: what a page needs to open Apple's payment sheet (the domain
 * Apple validates, the name and total on the sheet, the method that charges it); null where no
 * method of the page takes Apple Pay, or the installation has not set it up.
 */
async function applePayConfig(
  db: DB,
  transaction: PublicTransaction,
  choices: PayChoice[],
  shopName: string,
  countryCode: string | null,
  addresses: PlatformAddresses,
) {
  const offers = await walletOffers(db, transaction.merchant_id, choices, addresses);
  const choice = offers.applePay
    ? choices.find((candidate) => candidate.gateway_code === offers.applePay?.gatewayCode)
    : undefined;
  if (!choice) return null;
  return {
    domain: new URL(addresses.publicBaseUrl).hostname,
    shop_name: shopName,
    amount: toDecimalString(choice.amount, choice.currency_code),
    currency_code: choice.currency_code,
    country_code: countryCode ?? "KW",
    session_id: transaction.id,
    code: choice.gateway_code,
  };
}

/**
 * The transaction as the public pay page's API reads it (public spec §3); or that it is unknown, or
 * its merchant paused. `checkoutFields`: its section's declaration offers checkout fields;
 * `ticketsUrl`: where its section lets the customer download what the payment bought.
 */
export async function publicPayView(
  db: DB,
  id: string,
  lang: Language,
  plugins: readonly string[],
  options: { checkoutFields?: boolean; ticketsUrl?: string | null; addresses?: PlatformAddresses } = {},
): Promise<{ ok: true; body: unknown } | { ok: false; code: "pay.not_found" | "pay.paused" }> {
  const t = translator(lang);
  const page = await loadPayPage(db, id, plugins);
  if (page.status === "not_found") return { ok: false, code: "pay.not_found" };
  if (page.status === "paused") return { ok: false, code: "pay.paused" };
  const { transaction } = page;
  // The transaction's unit, as the HTML pay page shows it.
  const unit = await unitOf(db, transaction.merchant_id, transaction.unit_id)
    .select([
      "logo_url",
      "title_en",
      "title_ar",
      "website",
      "twitter_url",
      "instagram_url",
      "facebook_url",
      "show_unit_title",
      "header_color",
      "terms_en",
      "terms_ar",
    ])
    .executeTakeFirst();
  const merchant = await db
    .selectFrom("merchants")
    .select(["country_code", lang === "ar" ? "disclaimer_ar as disclaimer" : "disclaimer_en as disclaimer"])
    .where("id", "=", transaction.merchant_id)
    .executeTakeFirstOrThrow();
  const valid = page.status === "payable";
  const priced = valid ? await publicPayChoices(db, transaction, null, lang) : null;
  const shopName = (lang === "ar" ? unit?.title_ar : unit?.title_en) ?? "";
  const applePay =
    priced?.ok && options.addresses
      ? await applePayConfig(db, transaction, priced.offered, shopName, merchant.country_code, options.addresses)
      : null;
  const checkoutFields =
    valid && options.checkoutFields ? await activeCheckoutFields(db, transaction.merchant_id, transaction.plugin) : [];
  // A payment the platform gives back by itself (an order canceled before it arrived) is not "paid".
  const returned =
    (page.status === "settled" || page.status === "closed") && transaction.paid_attempt_id
      ? await paymentReturnOf(db, transaction.paid_attempt_id)
      : undefined;
  const details = returned
    ? {
        title: t(returned.status === "returned" ? "pay.returned_title" : "pay.returning_title"),
        message: t("pay.returning_message"),
      }
    : page.status === "expired"
      ? { title: t("pay.expired"), message: t("pay.errors.expired_retry") }
      : page.status === "settled"
        ? { title: t("pay.settled_title"), message: t("pay.settled_message") }
        : page.status === "closed"
          ? { title: t("pay.closed_title"), message: t("pay.closed_message") }
          : null;
  const amount = toDecimalString(transaction.amount, transaction.currency_code);
  // What the customer wrote down for the merchant is shown only while it is being paid, as on the
  // pay page: a link that was paid, canceled or has expired can be passed around, and says no more.
  const personal = valid
    ? {
        customer_email: transaction.customer_email,
        remarks: transaction.remarks,
        description: transaction.description ?? "",
      }
    : { customer_email: null, remarks: null, description: "" };
  return {
    ok: true,
    body: {
      id: transaction.id,
      order_no: transaction.order_no,
      state: transaction.state,
      amount,
      base_amount: amount,
      currency: transaction.currency_code,
      currency_code: transaction.currency_code,
      unit_details: unit
        ? { ...unit, terms_en: undefined, terms_ar: undefined, show_unit_title: Boolean(unit.show_unit_title) }
        : null,
      terms: unit?.terms_en || unit?.terms_ar ? { terms_en: unit.terms_en, terms_ar: unit.terms_ar } : null,
      pay_choices: priced?.ok ? priced.choices : [],
      default_pay_choice: priced?.ok ? priced.default : null,
      /** What the customer fills in before paying, in order; their values go in the pay POST's `extra`. */
      checkout_fields: checkoutFields.map((field) => customerFieldView(field, lang)),
      details,
      valid_for_payment: valid,
      has_editable_amount: Boolean(transaction.editable_amount),
      ...decimalBoundsOf(transaction),
      attachment_url: null,
      tickets_url: options.ticketsUrl ?? null,
      remarks: personal.remarks,
      expiration_time: transaction.expiration_time,
      country_code: merchant.country_code,
      disclaimer: true,
      disclaimer_message: merchant.disclaimer ?? t("pay.disclaimer"),
      next_url: transaction.next_url,
      apple_pay_config: applePay,
      order_description: {
        items: personal.description
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean)
          .map((value) => ({ label_en: "", label_ar: "", value, is_long: Array.from(value).length > 20 })),
      },
      customer_email: personal.customer_email,
    },
  };
}

/**
 * How a customer reaches the merchant, as the pages that cannot take a payment show it: the phone
 * written the international way, the website without its scheme. Read only for those pages.
 */
export async function merchantContactView(
  db: DB,
  merchantId: number,
  unit: { title: string; website: string | null } | null,
): Promise<ContactView> {
  const contact = await loadMerchantContact(db, merchantId, unit?.website ?? null);
  const phone = contact.phone ? parsePhoneNumberFromString(contact.phone, "KW") : undefined;
  return {
    merchant: unit?.title ?? null,
    email: contact.email,
    phone: contact.phone
      ? phone?.isValid()
        ? { href: phone.number, text: phone.formatInternational() }
        : { href: contact.phone.replace(/[^+\d]/g, ""), text: contact.phone }
      : null,
    website: contact.website
      ? { href: contact.website, text: contact.website.replace(/^https?:\/\//, "").replace(/\/$/, "") }
      : null,
  };
}
