import { z } from "zod";
import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { isReachable, listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { createTransaction } from "~/domain/payments/transaction-state.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { enqueueJob } from "~/lib/jobs.server";
import { sha256 } from "~/lib/crypto.server";
import { isSupportedCurrency, parseAmount } from "~/lib/money";
import { money } from "~/lib/outcome";
import { isShopAddress } from "./connection.server";

/** How long a handed-over payment can be paid: the shop's checkout waits about as long. */
export const SESSION_HOLD_MS = 60 * 60_000;
/** The job that ends a session nobody paid when its time is over, whether or not anyone looks at its page. */
export const EXPIRE_JOB = "shopify.expire";

const text = (max: number) =>
  z.string({ message: "errors.required" }).trim().min(1, "errors.required").max(max, "shopify_public.api.too_long");
const optionalText = (max: number) =>
  z.string({ message: "shopify_public.api.text" }).trim().max(max, "shopify_public.api.too_long").optional().nullable();
const webUrl = z
  .string({ message: "errors.required" })
  .trim()
  .max(2000, "shopify_public.api.too_long")
  .refine((value) => {
    try {
      return new URL(value).protocol === "https:";
    } catch {
      return false;
    }
  }, "shopify_public.api.url");
/** A part of the payload that must be an object (customer, billing_address, payment_method). */
const part = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object(shape, { message: "shopify_public.api.object" }).passthrough().optional().nullable();

/**
 * A payment session as a shop platform hands it over (Shopify's Payments App request): its id
 * (the same on every retry), gid, group (the shop's checkout), amount as a decimal string,
 * currency, test, kind, the customer, the payment method, when it was proposed and where the
 * customer goes back if they cancel. `return_url`, where they go after paying, is ours: without it
 * they go to the shop's front page.
 */
export const PaymentSessionSchema = z.object(
  {
    id: text(255),
    gid: optionalText(500),
    group: text(255),
    amount: z.union([z.string(), z.number()], { message: "errors.required" }).transform(String),
    currency: z
      .string({ message: "errors.required" })
      .trim()
      .toUpperCase()
      .refine(isSupportedCurrency, "shopify_public.api.currency"),
    test: z.boolean({ message: "shopify_public.api.boolean" }).optional().default(false),
    kind: z.enum(["sale", "authorization"], { message: "shopify_public.api.kind" }).optional().default("sale"),
    customer: part({
      email: z
        .string({ message: "shopify_public.api.email" })
        .trim()
        .email("shopify_public.api.email")
        .max(254, "shopify_public.api.too_long")
        .optional()
        .nullable(),
      phone_number: optionalText(30),
      billing_address: part({ given_name: optionalText(100), family_name: optionalText(100) }),
    }),
    payment_method: part({ type: optionalText(50) }),
    proposed_at: optionalText(40),
    cancel_url: webUrl,
    return_url: webUrl.optional().nullable(),
  },
  { message: "shopify_public.api.object" },
);

export type PaymentSessionInput = z.infer<typeof PaymentSessionSchema>;

export type HandOverOutcome =
  | { ok: true; replayed: boolean; session: { paymentId: string; transactionId: string } }
  | { ok: false; status: 400 | 409 | 422; errors: Record<string, string[]>; params?: Record<string, string> };

/** A message that is one of ours (a translation key), not a library's own sentence. */
const TEXT_KEY = /^(shopify_public|errors)\.[a-z_.]+$/;

/** Field errors by the payload's own paths (`customer.email`), as translation keys; a check without one of ours reads "invalid". */
export function sessionErrors(issues: z.core.$ZodIssue[]) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const list = (errors[issue.path.map(String).join(".") || "non_field_errors"] ??= []);
    const key = TEXT_KEY.test(issue.message) ? issue.message : "shopify_public.api.invalid";
    if (!list.includes(key)) list.push(key);
  }
  return errors;
}

/** What makes two hand-overs of one payment id the same payment. */
function requestHashOf(input: PaymentSessionInput, amount: number) {
  return sha256(JSON.stringify([input.group, amount, input.currency, input.kind, input.test]));
}

/**
 * Takes over a payment session from the merchant's shop platform: one transaction of the section
 * per payment id. The platform retries with the same id: the same session answers again (nothing
 * new is made, even when two retries arrive at once: the check runs under the merchant's lock);
 * the same id with another amount, currency, kind or checkout is refused.
 */
export async function handOverSession(
  db: DB,
  input: { merchantId: number; userId: number | null; session: PaymentSessionInput },
): Promise<HandOverOutcome> {
  const { session } = input;
  const parsed = parseAmount(session.amount, session.currency);
  if (!parsed.ok || parsed.minor <= 0)
    return { ok: false, status: 400, errors: { amount: ["shopify_public.api.amount"] } };
  const amount = parsed.minor;
  const hash = requestHashOf(session, amount);
  // Only sales: the platform collects the amount at once (decision 0030).
  if (session.kind !== "sale")
    return { ok: false, status: 422, errors: { kind: ["shopify_public.api.authorization"] } };
  const connection = await db
    .selectFrom("shopify_connections")
    .select(["shop_domain"])
    .where("merchant_id", "=", input.merchantId)
    .executeTakeFirst();
  if (!connection)
    return { ok: false, status: 409, errors: { non_field_errors: ["shopify_public.api.not_connected"] } };
  // The customer is sent back only to the shop: its own domain (and subdomains) or myshopify.com.
  const foreign: Record<string, string[]> = {};
  if (!isShopAddress(session.cancel_url, connection.shop_domain)) foreign.cancel_url = ["shopify_public.api.shop_url"];
  if (session.return_url && !isShopAddress(session.return_url, connection.shop_domain))
    foreign.return_url = ["shopify_public.api.shop_url"];
  if (Object.keys(foreign).length)
    return { ok: false, status: 400, errors: foreign, params: { shop: connection.shop_domain } };
  // A test session is paid only on test (sandbox) gateways: no real money for a test order.
  const gateways = (await listMerchantGateways(db, input.merchantId, { enabledOnly: true })).filter(
    (gateway) =>
      gateway.kind !== "cod" &&
      isReachable(gateway) &&
      supportsCurrency(gateway, session.currency) &&
      (!session.test || gateway.mode === "test"),
  );
  return writeTransaction(db, async (trx): Promise<HandOverOutcome> => {
    await lockMerchant(trx, input.merchantId);
    const existing = await trx
      .selectFrom("shopify_payment_sessions")
      .select(["transaction_id", "request_hash"])
      .where("merchant_id", "=", input.merchantId)
      .where("payment_id", "=", session.id)
      .executeTakeFirst();
    if (existing) {
      if (existing.request_hash !== hash)
        return { ok: false, status: 422, errors: { id: ["shopify_public.api.id_reused"] } };
      return { ok: true, replayed: true, session: { paymentId: session.id, transactionId: existing.transaction_id } };
    }
    if (gateways.length === 0) {
      if (session.test)
        return {
          ok: false,
          status: 422,
          errors: { test: ["shopify_public.api.no_test_gateway"] },
          params: { currency: session.currency },
        };
      return {
        ok: false,
        status: 400,
        errors: { currency: ["shopify_public.api.no_gateway"] },
        params: { currency: session.currency },
      };
    }
    const expiresAt = addMs(now(), SESSION_HOLD_MS);
    const customer = session.customer ?? {};
    const billing = customer.billing_address ?? {};
    const transaction = await createTransaction(trx, {
      merchant_id: input.merchantId,
      unit_id: null,
      plugin: "shopify",
      amount,
      currency_code: session.currency,
      editable_amount: 0,
      customer_email: customer.email || null,
      customer_phone: customer.phone_number || null,
      customer_first_name: billing.given_name || null,
      customer_last_name: billing.family_name || null,
      description: null,
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: gateways.map((gateway) => gateway.code).join(","),
      expiration_time: expiresAt.toISOString(),
      next_url: null,
      initiator_user_id: input.userId,
      gateway_code: null,
      paid_attempt_id: null,
      send_email: 0,
      send_sms: 0,
      extra: JSON.stringify({
        shop: {
          domain: connection.shop_domain,
          reference: session.group,
          payment_id: session.id,
          kind: session.kind,
          test: session.test,
        },
      }),
    });
    await trx
      .insertInto("shopify_payment_sessions")
      .values({
        merchant_id: input.merchantId,
        payment_id: session.id,
        gid: session.gid || `gid://shopify/PaymentSession/${session.id}`,
        group_id: session.group,
        transaction_id: transaction.id,
        kind: session.kind,
        test: session.test ? 1 : 0,
        request_hash: hash,
        cancel_url: session.cancel_url,
        return_url: session.return_url || null,
        proposed_at: session.proposed_at || null,
        created_at: nowIso(),
      })
      .execute();
    await enqueueJob(trx, EXPIRE_JOB, { transactionId: transaction.id }, { runAt: expiresAt, maxAttempts: 5 });
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: "system",
      action: "shopify_session_received",
      params: {
        orderNo: transaction.orderNo,
        amount: money(amount, session.currency),
        shop: connection.shop_domain,
        reference: session.group,
      },
      objectType: "transaction",
      objectId: transaction.id,
    });
    return { ok: true, replayed: false, session: { paymentId: session.id, transactionId: transaction.id } };
  });
}

/** The session behind one of the section's transactions, with the shop it came from. */
export async function findSession(db: DB, transactionId: string) {
  return db
    .selectFrom("shopify_payment_sessions")
    .leftJoin("shopify_connections", "shopify_connections.merchant_id", "shopify_payment_sessions.merchant_id")
    .select([
      "shopify_payment_sessions.merchant_id",
      "shopify_payment_sessions.payment_id",
      "shopify_payment_sessions.gid",
      "shopify_payment_sessions.group_id",
      "shopify_payment_sessions.kind",
      "shopify_payment_sessions.test",
      "shopify_payment_sessions.cancel_url",
      "shopify_payment_sessions.return_url",
      "shopify_connections.shop_domain",
    ])
    .where("shopify_payment_sessions.transaction_id", "=", transactionId)
    .executeTakeFirst();
}

/** Where "Return to shop" leads after paying: the address the platform gave, else the shop's front page. */
export function returnUrlOf(session: { return_url: string | null; shop_domain: string | null; cancel_url: string }) {
  if (session.return_url) return session.return_url;
  return session.shop_domain ? `https://${session.shop_domain}/` : session.cancel_url;
}
