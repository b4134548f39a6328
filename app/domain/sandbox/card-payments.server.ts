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
import { isPlatformNotifyAddress, isPlatformReturnAddress } from "./return-addresses.server";

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


const createPaymentSchema = (requestOrigin: string) => z.object({
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency: z.string().regex(/^[A-Z]{3}$/),
  reference: z.string().min(1).max(255),
  capture: z.enum(["auto", "manual"]).default("auto"),
  // Only the platform's own routes (decision 0014): never another host to call or to send a browser to.
  notify_url: z.string().refine(isPlatformNotifyAddress, "must be this platform's card notification address"),
  return_url: z.string().refine((value) => isPlatformReturnAddress(value, "card/response", requestOrigin), "must be this platform's card return address"),
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
  const parsed = createPaymentSchema(origin).safeParse(input);
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

/**
 * POST /api/payments/:id/{capture,refund,void}: each answers the new state or 400 with why not.
 * With an `Idempotency-Key` (the merchant's reference for the operation) it happens once: the
 * same key again answers what the first answered, and GET …/operations/:reference finds it.
 */
export async function operateOnCardPayment(
  db: DB,
  merchant: CardMerchant,
  id: string,
  operation: CardOperation,
  input: unknown,
  reference?: string | null,
): Promise<CardApiAnswer> {
  const parsed = AmountSchema.safeParse(input ?? {});
  if (!parsed.success) return refused("invalid", "amount must be a positive integer of minor units");
  if (reference !== undefined && reference !== null && (reference.length === 0 || reference.length > 255)) {
    return refused("invalid", "Idempotency-Key must be 1 to 255 characters");
  }
  const requested = parsed.data.amount;
  return writeTransaction(db, async (trx) => {
    const payment = await lockPayment(trx, id);
    if (!payment || payment.api_key !== merchant.api_key) return refused("not_found", "No such payment");
    if (reference) {
      const earlier = await trx
        .selectFrom("sandbox_card_operations")
        .select(["payment_id", "kind", "status", "error"])
        .where("api_key", "=", merchant.api_key)
        .where("reference", "=", reference)
        .executeTakeFirst();
      if (earlier) {
        if (earlier.payment_id !== payment.id || earlier.kind !== operation) return refused("invalid", "This Idempotency-Key was used for another operation");
        return earlier.status === "succeeded" ? { ok: true, body: stateOf(payment) } : refused("refused", earlier.error ?? "Refused");
      }
    }
    const outcome = decideOperation(payment, operation, requested);
    if (reference) {
      await trx
        .insertInto("sandbox_card_operations")
        .values({
          api_key: merchant.api_key,
          payment_id: payment.id,
          reference,
          kind: operation,
          amount: outcome.ok ? outcome.amount : (requested ?? 0),
          status: outcome.ok ? "succeeded" : "failed",
          error: outcome.ok ? null : outcome.error,
          created_at: nowIso(),
        })
        .execute();
    }
    if (!outcome.ok) return refused("refused", outcome.error);
    return { ok: true, body: stateOf(await savePayment(trx, payment, outcome.changes)) };
  });
}

/** What an operation does to a payment, or why the acquirer refuses it. */
function decideOperation(
  payment: StoredPayment,
  operation: CardOperation,
  requested: number | undefined,
): { ok: true; amount: number; changes: Partial<StoredPayment> } | { ok: false; error: string } {
  if (operation === "capture") {
    if (payment.status !== "authorized" || payment.captured_amount > 0) return { ok: false, error: `Cannot capture a ${payment.status} payment` };
    const amount = requested ?? payment.amount;
    if (amount > payment.amount) return { ok: false, error: "Capture exceeds the authorized amount" };
    return { ok: true, amount, changes: { status: "captured", captured_amount: amount } };
  }
  if (operation === "refund") {
    if (payment.status !== "captured" && payment.status !== "partially_refunded") return { ok: false, error: `Cannot refund a ${payment.status} payment` };
    const refundable = payment.captured_amount - payment.refunded_amount;
    const amount = requested ?? refundable;
    if (amount > refundable) return { ok: false, error: "Refund exceeds the captured amount not yet refunded" };
    const refunded = payment.refunded_amount + amount;
    return { ok: true, amount, changes: { status: refunded === payment.captured_amount ? "refunded" : "partially_refunded", refunded_amount: refunded } };
  }
  if (payment.status !== "authorized" || payment.captured_amount > 0) return { ok: false, error: `Cannot void a ${payment.status} payment` };
  return { ok: true, amount: payment.amount, changes: { status: "voided" } };
}

/** GET /api/payments/:id/operations/:reference: what became of an operation sent under that Idempotency-Key. */
export async function getCardOperation(db: DB, merchant: CardMerchant, paymentId: string, reference: string): Promise<CardApiAnswer> {
  const found = await db
    .selectFrom("sandbox_card_operations")
    .select(["reference", "payment_id", "kind", "amount", "status", "error", "created_at"])
    .where("api_key", "=", merchant.api_key)
    .where("payment_id", "=", paymentId)
    .where("reference", "=", reference)
    .executeTakeFirst();
  return found ? { ok: true, body: found } : refused("not_found", "No operation with this reference");
}

const ListSchema = z.object({
  created_from: z.iso.datetime({ offset: true }),
  created_to: z.iso.datetime({ offset: true }),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  starting_after: z.string().max(100).optional(),
});

/** GET /api/payments?created_from&created_to: the merchant's payments created in a period, oldest first, 100 a page (its settlement report). */
export async function listCardPayments(db: DB, merchant: CardMerchant, query: URLSearchParams): Promise<CardApiAnswer> {
  const parsed = ListSchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) return refused("invalid", "created_from and created_to must be ISO date-times");
  const { created_from, created_to, limit, starting_after } = parsed.data;
  let list = db
    .selectFrom("sandbox_card_payments")
    .select(PAYMENT_COLUMNS)
    .where("api_key", "=", merchant.api_key)
    .where("created_at", ">=", new Date(created_from).toISOString())
    .where("created_at", "<", new Date(created_to).toISOString());
  if (starting_after) {
    const cursor = await db.selectFrom("sandbox_card_payments").select(["created_at", "id"]).where("id", "=", starting_after).where("api_key", "=", merchant.api_key).executeTakeFirst();
    if (!cursor) return refused("invalid", "starting_after is not one of your payments");
    list = list.where((eb) => eb.or([eb("created_at", ">", cursor.created_at), eb.and([eb("created_at", "=", cursor.created_at), eb("id", ">", cursor.id)])]));
  }
  const rows = await list.orderBy("created_at").orderBy("id").limit(limit + 1).execute();
  return { ok: true, body: { data: rows.slice(0, limit).map(stateOf), has_more: rows.length > limit } };
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
export async function payCardPayment(db: DB, id: string, card: CardPaymentForm, browserOrigin: string): Promise<CardPaymentOutcome> {
  const decision = cardDecisionFor(card.cardNumber);
  return writeTransaction(db, async (trx) => {
    const payment = await lockPayment(trx, id);
    if (!payment) return { kind: "not_found" };
    if (payment.status !== "pending" || payment.card_masked !== null) return { kind: "already_processed" };
    if (!isPlatformReturnAddress(payment.return_url, "card/response", browserOrigin)) return { kind: "not_found" };
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
