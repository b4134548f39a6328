import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { sendSms } from "~/domain/messaging/sms.server";
import { attachmentName, isMerchantAttachmentKey, storeAttachment } from "~/domain/payments/attachments.server";
import { checkBounds, editableAmountCap, type AmountBounds } from "~/domain/payments/amount-bounds.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { unitOf } from "~/domain/merchants/units.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { payLinkParams, payUrlOf } from "~/domain/payments/lifecycle.server";
import { createTransaction } from "~/domain/payments/transaction-state.server";
import { now } from "~/lib/clock.server";
import { normalizePhone, parseExpiration } from "~/domain/payments/request-fields";
import type { Language } from "~/lib/i18n";
import { parseAmount } from "~/lib/money";
import { money, type TextParams } from "~/lib/outcome";
import type { PaymentRequestInput } from "./payment-request-schema";

export type CreatedPaymentRequest = { id: string; orderNo: number; state: "created"; payUrl: string };

/** What the merchant chose for its payment requests (Administration → Sections). */
export type PaymentRequestSettings = {
  /** Applied when a request names no expiry; null for none. */
  defaultExpiryHours: number | null;
  editableAmount: boolean;
  /** Whether the customer may be sent the link, and their receipt, by e-mail. */
  emailNotifications: boolean;
  smsNotifications: boolean;
  /** Whether a request may ask the customer for a delivery address (and a location) before paying. */
  multiStepCheckout: boolean;
  /** What the QR code on a request's details holds: its pay link, its transaction id (for staff to scan), or no QR code. */
  qrCodeType: "payment_link" | "transaction_id" | "none";
};

/** Nothing turned off, no default expiry: the settings of a merchant who never changed them. */
export const UNRESTRICTED_SETTINGS: PaymentRequestSettings = {
  defaultExpiryHours: null,
  editableAmount: true,
  emailNotifications: true,
  smsNotifications: true,
  multiStepCheckout: true,
  qrCodeType: "payment_link",
};

export { normalizePhone, parseExpiration };

/**
 * Checks a payment request against the merchant's gateways and its settings for payment requests
 * (what they turned off, the default expiry) and creates it, then sends the link by email and/or
 * SMS when asked. Field errors use the API's field names.
 */
export async function createPaymentRequest(
  db: DB,
  input: {
    merchantId: number;
    user: { id: number; username: string };
    request: PaymentRequestInput;
    baseUrl: string;
    lang: Language;
    settings?: PaymentRequestSettings;
    /** Kept on the transaction's `extra` (what made it: `{ source: "pos" }`). */
    extra?: Record<string, unknown>;
    /** What the caller writes in the same database transaction as the request (contract `alongside`). */
    alongside?: (trx: DB, made: { transactionId: string }) => Promise<void>;
  },
): Promise<
  | { ok: true; transaction: CreatedPaymentRequest }
  | { ok: false; errors: FieldErrors; keptAttachment?: string; params: TextParams }
> {
  const { request } = input;
  const settings = input.settings ?? UNRESTRICTED_SETTINGS;
  const errors: FieldErrors = {};

  // The file is kept first, so that a mistake elsewhere in the form does not lose it.
  let attachmentKey: string | undefined;
  if (request.attachment instanceof File) {
    const stored = await storeAttachment(input.merchantId, request.attachment);
    if (stored.ok) attachmentKey = stored.key;
    else errors.attachment = [stored.error];
  } else if (request.attachment) {
    if (isMerchantAttachmentKey(input.merchantId, request.attachment)) attachmentKey = request.attachment;
    else errors.attachment = ["attachment.errors.unknown"];
  }
  const defaults = await loadMerchantDefaults(db, input.merchantId);
  const currency = request.currency_code ?? defaults.currency;

  const amount = parseAmount(request.amount, currency);
  if (!amount.ok) errors.amount = [amount.error];
  else if (amount.minor <= 0) errors.amount = ["money.invalid"];

  // Bounds only mean something when the customer may change the amount; otherwise they are not kept.
  let bounds: AmountBounds | null = null;
  if (request.editable_amount && !settings.editableAmount)
    errors.editable_amount = ["payment_request.settings.refused.editable_amount"];
  if (request.editable_amount && amount.ok && amount.minor > 0) {
    const checked = checkBounds({ amount: amount.minor, currency, min: request.min_amount, max: request.max_amount });
    if (checked.ok) bounds = checked.bounds;
    else for (const refusal of checked.refusals) (errors[refusal.field] ??= []).push(refusal.code);
  }

  let phone: string | undefined;
  if (request.customer_phone) {
    phone = normalizePhone(request.customer_phone, request.customer_phone_country ?? defaults.country);
    if (!phone) errors.customer_phone = ["payment_request.errors.phone"];
  }
  if (request.send_email && !request.customer_email)
    errors.customer_email = ["payment_request.errors.email_for_sending"];
  if (request.send_sms && !request.customer_phone) errors.customer_phone = ["payment_request.errors.phone_for_sending"];
  if (request.send_email && !settings.emailNotifications)
    errors.send_email = ["payment_request.settings.refused.email_notifications"];
  if (request.send_sms && !settings.smsNotifications)
    errors.send_sms = ["payment_request.settings.refused.sms_notifications"];
  if (request.delivery_mode !== "none" && !settings.multiStepCheckout)
    errors.delivery_mode = ["payment_request.settings.refused.multi_step_checkout"];

  let expiration: Date | undefined;
  if (request.expiration_time) {
    expiration = parseExpiration(request.expiration_time);
    if (!expiration) errors.expiration_time = ["payment_request.errors.expiration_format"];
    else if (expiration <= now()) errors.expiration_time = ["payment_request.errors.expiration_past"];
  } else if (settings.defaultExpiryHours !== null) {
    expiration = new Date(now().getTime() + settings.defaultExpiryHours * 3_600_000);
  }

  if (request.unit !== undefined) {
    const unit = await unitOf(db, input.merchantId, request.unit).select("id").executeTakeFirst();
    if (!unit) errors.unit = ["payment_request.errors.unit"];
  }

  const gateways = await listMerchantGateways(db, input.merchantId, { enabledOnly: true });
  const usable = new Set(
    gateways.filter((gateway) => supportsCurrency(gateway, currency)).map((gateway) => gateway.code),
  );
  const codes = [...new Set(request.pg_codes)];
  if (codes.length === 0) errors.pg_codes = ["payment_request.errors.gateways_required"];
  else if (codes.some((code) => !usable.has(code))) errors.pg_codes = ["payment_request.errors.gateway_unavailable"];

  // The messages' values: the cap an editable amount may not pass.
  const params = { cap: money(editableAmountCap(currency), currency) };
  if (Object.keys(errors).length || !amount.ok) return { ok: false, errors, keptAttachment: attachmentKey, params };

  const linkParams = await payLinkParams(db, {
    merchantId: input.merchantId,
    amount: amount.minor,
    currency,
    link: "",
    lang: input.lang,
  });
  const { id, orderNo, payUrl } = await writeTransaction(db, async (trx) => {
    const made = await createTransaction(trx, {
      merchant_id: input.merchantId,
      unit_id: request.unit ?? null,
      plugin: "payment_request",
      amount: amount.minor,
      currency_code: currency,
      editable_amount: request.editable_amount ? 1 : 0,
      min_amount: bounds?.min ?? null,
      max_amount: bounds?.max ?? null,
      customer_email: request.customer_email ?? null,
      customer_phone: phone ?? null,
      customer_first_name: request.customer_first_name ?? null,
      customer_last_name: request.customer_last_name ?? null,
      description: request.description ?? null,
      remarks: request.remarks ?? null,
      attachment_path: attachmentKey ?? null,
      attachment_name: attachmentKey ? attachmentName(attachmentKey) : null,
      pg_codes: codes.join(","),
      expiration_time: expiration?.toISOString() ?? null,
      next_url: request.next_url ?? null,
      initiator_user_id: input.user.id,
      gateway_code: null,
      paid_attempt_id: null,
      delivery_mode: request.delivery_mode,
      send_email: request.send_email ? 1 : 0,
      send_sms: request.send_sms ? 1 : 0,
      ...(input.extra ? { extra: JSON.stringify(input.extra) } : {}),
    });
    await input.alongside?.(trx, { transactionId: made.id });
    const link = payUrlOf(input.baseUrl, input.lang, made.id);
    const message = {
      merchantId: input.merchantId,
      template: "pay_link",
      params: { ...linkParams, link },
      lang: input.lang,
    };
    if (request.send_email && request.customer_email) await queueMail(trx, { ...message, to: request.customer_email });
    if (request.send_sms && phone) await sendSms(trx, { ...message, to: phone });
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.user,
      action: "payment_request_created",
      params: { orderNo: made.orderNo, amount: money(amount.minor, currency) },
      objectType: "transaction",
      objectId: made.id,
    });
    return { ...made, payUrl: link };
  });
  return { ok: true, transaction: { id, orderNo, state: "created", payUrl } };
}
