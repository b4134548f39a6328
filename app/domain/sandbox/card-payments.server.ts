/**
 * The card sandbox: a stand-in for a card acquirer with a hosted payment page, an API
 * authenticated by the merchant's key, signed notifications, and separate capture, refund and
 * void. It keeps its own books in the sandbox_card_* tables and shares nothing with the platform.
 */
import type { Kysely, Selectable } from "kysely";
import { z } from "zod";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { Database, SandboxCardPaymentTable } from "~/db/schema";
import { nowIso } from "~/lib/clock.server";
import { randomToken } from "~/lib/crypto.server";
import { findCardMerchant } from "./accounts.server";
import { cardPaymentState, queueCardNotification, type CardPaymentState } from "./card-notifications.server";
import type { CardPaymentForm } from "./payment-forms";
import { cardDecisionFor, maskCardNumber } from "./test-cards";

export type CardMerchant = NonNullable<Awaited<ReturnType<typeof findCardMerchant>>>;
/**
 * What the acquirer's API answers: the payment, or why not (its route gives each reason its HTTP
 * status). The words are the acquirer's own, as a real one's are.
 */
export type CardApiAnswer = { ok: true; body: unknown; created?: true } | { ok: false; reason: "invalid" | "not_found" | "refused"; error: string };

const PAYMENT_COLUMNS = [
  "id",
  "api_key",
  "reference",
  "amount",
  "currency",
  "capture",
  "status",
  "captured_amount",
  "refunded_amount",
  "card_masked",
  "notify_url",
  "return_url",
  "created_at",
  "updated_at",
] as const;

const webAddress = z.url({ protocol: /^https?$/ }).max(2000);

const CreatePaymentSchema = z.object({
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency: z.string().regex(/^[A-Z]{3}$/),
  reference: z.string().min(1).max(255),
  capture: z.enum(["auto", "manual"]).default("auto"),
  notify_url: webAddress,
  return_url: webAddress,
});

const AmountSchema = z.object({ amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() });

const refused = (reason: "invalid" | "not_found" | "refused", error: string): CardApiAnswer => ({ ok: false, reason, error });

/** The merchant whose key is in `Authorization: Bearer <key>`, if any. */
export async function authenticateCardMerchant(db: DB, authorization: string | null) {
  const match = /^Bearer\s+(\S{1,200})$/i.exec(authorization ?? "");
  return match ? findCardMerchant(db, match[1]) : undefined;
}

type StoredPayment = Selectable<SandboxCardPaymentTable>;

function stateOf(payment: StoredPayment): CardPaymentState & { capture: string; created_at: string; updated_at: string } {
  return {
    ...cardPaymentState(payment),
    capture: payment.capture,
    created_at: payment.created_at,
    updated_at: payment.updated_at,
  };
}

/** POST /api/payments: opens a payment and answers where to send the customer. */
export async function createCardPayment(db: DB, merchant: CardMerchant, input: unknown, origin: string): Promise<CardApiAnswer> {
  const parsed = CreatePaymentSchema.safeParse(input);
  if (!parsed.success) return refused("invalid", `Invalid request: ${parsed.error.issues.map((issue) => issue.path.join(".")).join(", ")}`);
  const id = `pay_${randomToken(16)}`;
  const created = nowIso();
  await db
    .insertInto("sandbox_card_payments")
    .values({
      id,
      api_key: merchant.api_key,
      reference: parsed.data.reference,
      amount: parsed.data.amount,
      currency: parsed.data.currency,
      capture: parsed.data.capture,
      status: "pending",
      notify_url: parsed.data.notify_url,
      return_url: parsed.data.return_url,
      created_at: created,
      updated_at: created,
    })
    .execute();
  return { ok: true, created: true, body: { id, status: "pending", redirect_url: `${origin}/sandbox/card/pay/${id}` } };
}

/** GET /api/payments/:id: the inquiry. */
export async function getCardPayment(db: DB, merchant: CardMerchant, id: string): Promise<CardApiAnswer> {
  const payment = await db
    .selectFrom("sandbox_card_payments")
    .select(PAYMENT_COLUMNS)
    .where("id", "=", id)
    .where("api_key", "=", merchant.api_key)
    .executeTakeFirst();
  return payment ? { ok: true, body: stateOf(payment) } : refused("not_found", "No such payment");
}

async function lockPayment(trx: Kysely<Database>, id: string) {
  let query = trx.selectFrom("sandbox_card_payments").select(PAYMENT_COLUMNS).where("id", "=", id);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

async function savePayment(trx: Kysely<Database>, payment: StoredPayment, changes: Partial<StoredPayment>) {
  const updated = { ...payment, ...changes, updated_at: nowIso() };
  await trx
    .updateTable("sandbox_card_payments")
    .set({
      status: updated.status,
      captured_amount: updated.captured_amount,
      refunded_amount: updated.refunded_amount,
      card_masked: updated.card_masked,
      updated_at: updated.updated_at,
    })
    .where("id", "=", payment.id)
    .execute();
  await queueCardNotification(trx, updated);
  return updated;
}

export type CardOperation = "capture" | "refund" | "void";

/** POST /api/payments/:id/{capture,refund,void}: each answers the new state or 400 with why not. */
export async function operateOnCardPayment(
  db: DB,
  merchant: CardMerchant,
  id: string,
  operation: CardOperation,
  input: unknown,
): Promise<CardApiAnswer> {
  const parsed = AmountSchema.safeParse(input ?? {});
  if (!parsed.success) return refused("invalid", "amount must be a positive integer of minor units");
  const requested = parsed.data.amount;
  return writeTransaction(db, async (trx) => {
    const payment = await lockPayment(trx, id);
    if (!payment || payment.api_key !== merchant.api_key) return refused("not_found", "No such payment");
    if (operation === "capture") {
      if (payment.status !== "authorized" || payment.captured_amount > 0) return refused("refused", `Cannot capture a ${payment.status} payment`);
      const amount = requested ?? payment.amount;
      if (amount > payment.amount) return refused("refused", "Capture exceeds the authorized amount");
      return { ok: true, body: stateOf(await savePayment(trx, payment, { status: "captured", captured_amount: amount })) };
    }
    if (operation === "refund") {
      if (payment.status !== "captured" && payment.status !== "partially_refunded") {
        return refused("refused", `Cannot refund a ${payment.status} payment`);
      }
      const refundable = payment.captured_amount - payment.refunded_amount;
      const amount = requested ?? refundable;
      if (amount > refundable) return refused("refused", "Refund exceeds the captured amount not yet refunded");
      const refunded = payment.refunded_amount + amount;
      const status = refunded === payment.captured_amount ? "refunded" : "partially_refunded";
      return { ok: true, body: stateOf(await savePayment(trx, payment, { status, refunded_amount: refunded })) };
    }
    if (payment.status !== "authorized" || payment.captured_amount > 0) return refused("refused", `Cannot void a ${payment.status} payment`);
    return { ok: true, body: stateOf(await savePayment(trx, payment, { status: "voided" })) };
  });
}

export type CardPaymentPage = {
  id: string;
  amount: number;
  currency: string;
  reference: string;
  /** open: waiting for the card; processing: paid with the no-answer card; closed: decided. */
  stage: "open" | "processing" | "closed";
};

/** What the hosted page shows. The page's address is the payment id itself, which is unguessable. */
export async function loadCardPaymentPage(db: DB, id: string): Promise<CardPaymentPage | undefined> {
  const payment = await db
    .selectFrom("sandbox_card_payments")
    .select(["id", "amount", "currency", "reference", "status", "card_masked"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!payment) return undefined;
  const stage = payment.status !== "pending" ? "closed" : payment.card_masked === null ? "open" : "processing";
  return { id: payment.id, amount: payment.amount, currency: payment.currency, reference: payment.reference, stage };
}

export type CardPaymentOutcome =
  | { kind: "returned"; redirectTo: string }
  | { kind: "not_found" }
  | { kind: "already_processed" };

/**
 * The customer pays on the hosted page, once. The issuer's answer is notified to the merchant
 * and the customer returns to the merchant's site; the no-answer card returns the customer too but
 * leaves the payment pending and silent. Only the masked number is kept; the CVV never is.
 */
export async function payCardPayment(db: DB, id: string, card: CardPaymentForm): Promise<CardPaymentOutcome> {
  const decision = cardDecisionFor(card.cardNumber);
  return writeTransaction(db, async (trx) => {
    const payment = await lockPayment(trx, id);
    if (!payment) return { kind: "not_found" };
    if (payment.status !== "pending" || payment.card_masked !== null) return { kind: "already_processed" };
    const card_masked = maskCardNumber(card.cardNumber);
    const back = new URL(payment.return_url);
    back.searchParams.set("payment_id", payment.id);
    if (decision === "no_answer") {
      // The issuer never answers: the customer goes back to the merchant, who hears nothing.
      await trx.updateTable("sandbox_card_payments").set({ card_masked, updated_at: nowIso() }).where("id", "=", id).execute();
      return { kind: "returned", redirectTo: back.toString() };
    }
    const approved = decision === "approved";
    const captured = approved && payment.capture === "auto";
    await savePayment(trx, payment, {
      status: approved ? (captured ? "captured" : "authorized") : "declined",
      captured_amount: captured ? payment.amount : 0,
      card_masked,
    });
    return { kind: "returned", redirectTo: back.toString() };
  });
}
