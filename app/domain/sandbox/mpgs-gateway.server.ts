/**
 * The Mastercard Gateway sandbox: REST API version 100 at the gateway's own paths, HTTP Basic
 * `merchant.<id>` with the API password, INITIATE_CHECKOUT, RETRIEVE_ORDER, RETRIEVE_TRANSACTION,
 * and PUTs of CAPTURE, REFUND, VOID and wallet PAY/AUTHORIZE under the merchant's transaction id;
 * the Hosted Payment Page with a 3-D Secure challenge; webhooks with X-Notification-Secret. It keeps
 * its books in the sandbox_mpgs_* tables, amounts in minor units, and shares nothing with the platform.
 */
import type { Kysely, Selectable } from "kysely";
import { z } from "zod";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { Database, SandboxMpgsOrderTable, SandboxMpgsTransactionTable } from "~/db/schema";
import { nowIso } from "~/lib/clock.server";
import { randomDigits, randomToken, safeEqual } from "~/lib/crypto.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import { findMpgsMerchant } from "./accounts.server";
import { queueMpgsNotification } from "./mpgs-notifications.server";
import type { CardPaymentForm } from "./payment-forms";
import { isPlatformNotifyAddress, isPlatformReturnAddress } from "./return-addresses.server";
import {
  MPGS_CHALLENGE_CODE,
  MPGS_TEST_CARDS,
  maskCardNumber,
  mpgsGatewayCodeFor,
  type MpgsGatewayCode,
} from "./test-cards";

export type MpgsMerchant = NonNullable<Awaited<ReturnType<typeof findMpgsMerchant>>>;
type Order = Selectable<SandboxMpgsOrderTable>;
type Transaction = Selectable<SandboxMpgsTransactionTable>;

/** The gateway's answer: a document, or its error document (`unauthorized` for a wrong merchant or password). */
export type MpgsAnswer =
  { ok: true; body: unknown; created?: true } | { ok: false; reason: "invalid" | "unauthorized"; body: unknown };

function error(
  cause: "INVALID_REQUEST" | "REQUEST_REJECTED" | "SERVER_BUSY",
  explanation: string,
  field?: string,
): MpgsAnswer {
  return {
    ok: false,
    reason: "invalid",
    body: { error: { cause, explanation, ...(field ? { field, validationType: "INVALID" } : {}) }, result: "ERROR" },
  };
}

export const MPGS_UNAUTHORIZED: MpgsAnswer = {
  ok: false,
  reason: "unauthorized",
  body: { error: { cause: "INVALID_REQUEST", explanation: "Invalid credentials." }, result: "ERROR" },
};

/** `Authorization: Basic merchant.<merchant id in the path>:<API password>`. */
export async function authenticateMpgsMerchant(db: DB, merchantId: string, authorization: string | null) {
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,400})$/i.exec(authorization ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || decoded.slice(0, colon) !== `merchant.${merchantId}`) return undefined;
  const merchant = await findMpgsMerchant(db, merchantId);
  return merchant && safeEqual(decoded.slice(colon + 1), merchant.api_password) ? merchant : undefined;
}

const ORDER_COLUMNS = [
  "merchant_id",
  "order_id",
  "session_id",
  "success_indicator",
  "operation",
  "amount",
  "currency",
  "description",
  "merchant_name",
  "locale",
  "return_url",
  "notification_url",
  "status",
  "authentication_status",
  "card_masked",
  "card_expiry",
  "total_authorized",
  "total_captured",
  "total_refunded",
  "created_at",
  "updated_at",
] as const;

const TRANSACTION_COLUMNS = [
  "merchant_id",
  "order_id",
  "transaction_id",
  "type",
  "amount",
  "currency",
  "result",
  "gateway_code",
  "target_transaction_id",
  "authorization_code",
  "receipt",
  "wallet_provider",
  "created_at",
] as const;

const decimal = (minor: number, currency: string) => Number(toDecimalString(minor, currency));

function sourceOfFunds(order: Order) {
  if (!order.card_masked) return undefined;
  const [month, year] = (order.card_expiry ?? "/").split("/");
  const number = order.card_masked.replace(/\*/g, "x");
  return {
    type: "CARD",
    provided: {
      card: {
        number,
        brand: number.startsWith("4") ? "VISA" : "MASTERCARD",
        expiry: { month, year },
        fundingMethod: "CREDIT",
      },
    },
  };
}

function orderCore(order: Order) {
  return {
    id: order.order_id,
    amount: decimal(order.amount, order.currency),
    currency: order.currency,
    description: order.description ?? undefined,
    status: order.status,
    totalAuthorizedAmount: decimal(order.total_authorized, order.currency),
    totalCapturedAmount: decimal(order.total_captured, order.currency),
    totalRefundedAmount: decimal(order.total_refunded, order.currency),
    authenticationStatus: order.authentication_status ?? undefined,
    creationTime: order.created_at,
    lastUpdatedTime: order.updated_at,
  };
}

function transactionCore(transaction: Transaction) {
  return {
    result: transaction.result,
    response: { gatewayCode: transaction.gateway_code },
    transaction: {
      id: transaction.transaction_id,
      type: transaction.type,
      amount: decimal(transaction.amount, transaction.currency),
      currency: transaction.currency,
      authorizationCode: transaction.authorization_code ?? undefined,
      receipt: transaction.receipt ?? undefined,
      targetTransactionId: transaction.target_transaction_id ?? undefined,
    },
    timeOfRecord: transaction.created_at,
  };
}

/** RETRIEVE_TRANSACTION's document, also each webhook's body and each PUT's answer. */
function transactionDocument(order: Order, transaction: Transaction) {
  return {
    ...transactionCore(transaction),
    merchant: order.merchant_id,
    order: {
      ...orderCore(order),
      ...(transaction.wallet_provider ? { walletProvider: transaction.wallet_provider } : {}),
    },
    sourceOfFunds: sourceOfFunds(order),
    version: "100",
  };
}

function orderDocument(order: Order, transactions: Transaction[]) {
  return {
    ...orderCore(order),
    merchant: order.merchant_id,
    result: "SUCCESS",
    sourceOfFunds: sourceOfFunds(order),
    transaction: transactions.map((transaction) => ({ ...transactionCore(transaction), order: orderCore(order) })),
  };
}

const ORDER_ID = z.string().regex(/^[\w-]{1,40}$/);

const InitiateCheckoutSchema = (origin: string) =>
  z.object({
    apiOperation: z.literal("INITIATE_CHECKOUT"),
    interaction: z.object({
      operation: z.enum(["PURCHASE", "AUTHORIZE"]),
      // Only the platform's own routes (decision 0014): never another host to call or to send a browser to.
      returnUrl: z.string().refine((value) => isPlatformReturnAddress(value, "mpgs/response", origin)),
      locale: z.string().max(10).optional(),
      merchant: z.object({ name: z.string().min(1).max(40), logo: z.string().max(2000).optional() }).optional(),
    }),
    order: z.object({
      id: ORDER_ID,
      amount: z.string().regex(/^\d{1,12}(\.\d{1,3})?$/),
      currency: z.string().regex(/^[A-Z]{3}$/),
      description: z.string().max(127).optional(),
      notificationUrl: z.string().refine(isPlatformNotifyAddress).optional(),
    }),
  });

function invalidField(issues: z.core.$ZodIssue[]) {
  const field = issues[0]?.path.join(".") ?? "";
  return error("INVALID_REQUEST", `Value for field '${field}' is invalid`, field);
}

function minorOf(amount: string, currency: string) {
  const parsed = parseAmount(amount, currency);
  return parsed.ok && parsed.minor > 0 ? parsed.minor : undefined;
}

/** POST …/session with INITIATE_CHECKOUT: a session for the Hosted Payment Page, and the successIndicator the return will carry on success. */
export async function initiateCheckout(
  db: DB,
  merchant: MpgsMerchant,
  input: unknown,
  origin: string,
): Promise<MpgsAnswer> {
  const parsed = InitiateCheckoutSchema(origin).safeParse(input);
  if (!parsed.success) return invalidField(parsed.error.issues);
  const { interaction, order } = parsed.data;
  const amount = minorOf(order.amount, order.currency);
  if (!amount) return error("INVALID_REQUEST", "Value for field 'order.amount' is invalid", "order.amount");
  const sessionId = `SESSION0002${randomDigits(10)}${randomToken(12).replace(/[-_]/g, "0")}`;
  const successIndicator = randomToken(12).replace(/[-_]/g, "0");
  const created = nowIso();
  return writeTransaction(db, async (trx) => {
    const existing = await lockOrder(trx, merchant.merchant_id, order.id);
    if (existing && (existing.status !== "INITIATED" || (await transactionsOf(trx, existing)).length > 0)) {
      return error("INVALID_REQUEST", "An order with this id has already been processed", "order.id");
    }
    const values = {
      session_id: sessionId,
      success_indicator: successIndicator,
      operation: interaction.operation,
      amount,
      currency: order.currency,
      description: order.description ?? null,
      merchant_name: interaction.merchant?.name ?? null,
      locale: interaction.locale?.toLowerCase().startsWith("ar") ? "ar" : "en",
      return_url: interaction.returnUrl,
      notification_url: order.notificationUrl ?? null,
      updated_at: created,
    };
    if (existing) {
      await trx
        .updateTable("sandbox_mpgs_orders")
        .set(values)
        .where("merchant_id", "=", merchant.merchant_id)
        .where("order_id", "=", order.id)
        .execute();
    } else {
      await trx
        .insertInto("sandbox_mpgs_orders")
        .values({
          ...values,
          merchant_id: merchant.merchant_id,
          order_id: order.id,
          status: "INITIATED",
          created_at: created,
        })
        .execute();
    }
    return {
      ok: true as const,
      created: true as const,
      body: {
        checkoutMode: "WEBSITE",
        merchant: merchant.merchant_id,
        result: "SUCCESS",
        session: { id: sessionId, updateStatus: "SUCCESS", version: randomToken(6) },
        successIndicator,
      },
    };
  });
}

async function lockOrder(trx: Kysely<Database>, merchantId: string, orderId: string) {
  let query = trx
    .selectFrom("sandbox_mpgs_orders")
    .select(ORDER_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("order_id", "=", orderId);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

function transactionsOf(db: Kysely<Database>, order: Pick<Order, "merchant_id" | "order_id">) {
  return db
    .selectFrom("sandbox_mpgs_transactions")
    .select(TRANSACTION_COLUMNS)
    .where("merchant_id", "=", order.merchant_id)
    .where("order_id", "=", order.order_id)
    .orderBy("created_at")
    .orderBy("transaction_id")
    .execute();
}

const ORDER_NOT_FOUND = () => error("INVALID_REQUEST", "Unable to find order for merchant", "orderId");

/** An order the payer has not yet paid is not one yet: the gateway knows only its session. */
async function visibleOrder(db: Kysely<Database>, merchantId: string, orderId: string) {
  const order = await db
    .selectFrom("sandbox_mpgs_orders")
    .select(ORDER_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  if (!order) return undefined;
  const transactions = await transactionsOf(db, order);
  return order.status === "INITIATED" && transactions.length === 0 ? undefined : { order, transactions };
}

/** GET …/order/{orderId}: RETRIEVE_ORDER. */
export async function retrieveOrder(db: DB, merchant: MpgsMerchant, orderId: string): Promise<MpgsAnswer> {
  const found = await visibleOrder(db, merchant.merchant_id, orderId);
  return found ? { ok: true, body: orderDocument(found.order, found.transactions) } : ORDER_NOT_FOUND();
}

/** GET …/order/{orderId}/transaction/{transactionId}: RETRIEVE_TRANSACTION. */
export async function retrieveTransaction(
  db: DB,
  merchant: MpgsMerchant,
  orderId: string,
  transactionId: string,
): Promise<MpgsAnswer> {
  const found = await visibleOrder(db, merchant.merchant_id, orderId);
  const transaction = found?.transactions.find((entry) => entry.transaction_id === transactionId);
  if (!found || !transaction) return error("INVALID_REQUEST", "Unable to find transaction for order", "transactionId");
  return { ok: true, body: transactionDocument(found.order, transaction) };
}

const TYPES = {
  CAPTURE: "CAPTURE",
  REFUND: "REFUND",
  VOID: "VOID_AUTHORIZATION",
  PAY: "PAYMENT",
  AUTHORIZE: "AUTHORIZATION",
} as const;

const AmountSchema = z.object({
  amount: z.string().regex(/^\d{1,12}(\.\d{1,3})?$/),
  currency: z.string().regex(/^[A-Z]{3}$/),
});

const TransactionRequestSchema = z.discriminatedUnion("apiOperation", [
  z.object({ apiOperation: z.literal("CAPTURE"), transaction: AmountSchema }),
  z.object({ apiOperation: z.literal("REFUND"), transaction: AmountSchema }),
  z.object({
    apiOperation: z.literal("VOID"),
    transaction: z.object({ targetTransactionId: z.string().min(1).max(40) }),
  }),
  z.object({
    apiOperation: z.enum(["PAY", "AUTHORIZE"]),
    order: z.object({
      amount: z.string().regex(/^\d{1,12}(\.\d{1,3})?$/),
      currency: z.string().regex(/^[A-Z]{3}$/),
      walletProvider: z.enum(["APPLE_PAY", "GOOGLE_PAY"]),
      notificationUrl: z.string().refine(isPlatformNotifyAddress).optional(),
    }),
    sourceOfFunds: z.object({
      type: z.literal("CARD").optional(),
      provided: z.object({
        card: z.object({ devicePayment: z.object({ paymentToken: z.string().min(1).max(20_000) }) }),
      }),
    }),
  }),
]);

type TransactionRequest = z.infer<typeof TransactionRequestSchema>;
type Change = {
  order: Partial<Order>;
  transaction: Pick<Transaction, "amount" | "result" | "gateway_code"> & Partial<Transaction>;
};

/**
 * PUT …/order/{orderId}/transaction/{transactionId}. The transaction id is the merchant's: the same
 * PUT again answers the transaction already made, once; the id used for another operation is refused.
 */
export async function putTransaction(
  db: DB,
  merchant: MpgsMerchant,
  orderId: string,
  transactionId: string,
  input: unknown,
): Promise<MpgsAnswer> {
  if (!ORDER_ID.safeParse(orderId).success || !ORDER_ID.safeParse(transactionId).success)
    return error("INVALID_REQUEST", "Invalid order or transaction id", "transactionId");
  const parsed = TransactionRequestSchema.safeParse(input);
  if (!parsed.success) return invalidField(parsed.error.issues);
  const request = parsed.data;
  return writeTransaction(db, async (trx) => {
    let order = await lockOrder(trx, merchant.merchant_id, orderId);
    const transactions = order ? await transactionsOf(trx, order) : [];
    const earlier = transactions.find((entry) => entry.transaction_id === transactionId);
    if (order && earlier) {
      if (earlier.type !== TYPES[request.apiOperation])
        return error(
          "INVALID_REQUEST",
          "A transaction with this id already exists for another operation",
          "transactionId",
        );
      return { ok: true, body: transactionDocument(order, earlier) };
    }
    if ("order" in request) {
      const opened = await openWalletOrder(trx, merchant, orderId, order, transactions, request);
      if (!opened.ok) return opened.answer;
      order = opened.order;
    }
    if (!order || (order.status === "INITIATED" && transactions.length === 0)) return ORDER_NOT_FOUND();
    const change = decide(order, transactions, request);
    if ("answer" in change) return change.answer;
    const at = nowIso();
    const transaction: Transaction = {
      merchant_id: order.merchant_id,
      order_id: order.order_id,
      transaction_id: transactionId,
      type: TYPES[request.apiOperation],
      currency: order.currency,
      target_transaction_id: null,
      authorization_code: null,
      receipt: randomDigits(12),
      wallet_provider: "order" in request ? request.order.walletProvider : null,
      created_at: at,
      ...change.transaction,
    };
    await trx.insertInto("sandbox_mpgs_transactions").values(transaction).execute();
    const updated = { ...order, ...change.order, updated_at: at };
    await saveOrder(trx, updated);
    const document = transactionDocument(updated, transaction);
    await queueMpgsNotification(trx, order.merchant_id, order.notification_url, document);
    return { ok: true, body: document, created: true };
  });
}

/** A wallet's PAY or AUTHORIZE opens the order itself; the token is JSON (Apple Pay's and Google Pay's are). */
async function openWalletOrder(
  trx: Kysely<Database>,
  merchant: MpgsMerchant,
  orderId: string,
  existing: Order | undefined,
  transactions: Transaction[],
  request: Extract<TransactionRequest, { apiOperation: "PAY" | "AUTHORIZE" }>,
): Promise<{ ok: true; order: Order } | { ok: false; answer: MpgsAnswer }> {
  if (existing && (existing.status !== "INITIATED" || transactions.length > 0))
    return {
      ok: false,
      answer: error("INVALID_REQUEST", "An order with this id has already been processed", "order.id"),
    };
  const amount = minorOf(request.order.amount, request.order.currency);
  if (!amount)
    return { ok: false, answer: error("INVALID_REQUEST", "Value for field 'order.amount' is invalid", "order.amount") };
  let token: unknown;
  try {
    token = JSON.parse(request.sourceOfFunds.provided.card.devicePayment.paymentToken);
  } catch {
    token = null;
  }
  if (!token || typeof token !== "object") {
    return {
      ok: false,
      answer: error(
        "INVALID_REQUEST",
        "Value for field 'sourceOfFunds.provided.card.devicePayment.paymentToken' is invalid",
        "sourceOfFunds.provided.card.devicePayment.paymentToken",
      ),
    };
  }
  const at = nowIso();
  const order: Order = {
    merchant_id: merchant.merchant_id,
    order_id: orderId,
    session_id: null,
    success_indicator: null,
    operation: request.apiOperation === "PAY" ? "PURCHASE" : "AUTHORIZE",
    amount,
    currency: request.order.currency,
    description: null,
    merchant_name: null,
    locale: "en",
    return_url: null,
    notification_url: request.order.notificationUrl ?? existing?.notification_url ?? null,
    status: "INITIATED",
    authentication_status: null,
    // The device's account number, masked like a card's.
    card_masked: maskCardNumber(MPGS_TEST_CARDS.mastercard),
    card_expiry: "01/39",
    total_authorized: 0,
    total_captured: 0,
    total_refunded: 0,
    created_at: existing?.created_at ?? at,
    updated_at: at,
  };
  if (existing)
    await trx
      .deleteFrom("sandbox_mpgs_orders")
      .where("merchant_id", "=", merchant.merchant_id)
      .where("order_id", "=", orderId)
      .execute();
  await trx.insertInto("sandbox_mpgs_orders").values(order).execute();
  return {
    ok: true,
    order: { ...order, status: (token as { sandbox?: unknown }).sandbox === "declined" ? "WALLET_DECLINED" : "WALLET" },
  };
}

/** What a transaction does to its order, or the gateway's refusal. */
function decide(
  order: Order,
  transactions: Transaction[],
  request: TransactionRequest,
): Change | { answer: MpgsAnswer } {
  const refuse = (explanation: string, field?: string) => ({ answer: error("INVALID_REQUEST", explanation, field) });
  if ("order" in request) {
    return payment(order, order.status === "WALLET_DECLINED" ? "DECLINED" : "APPROVED", request.apiOperation === "PAY");
  }
  if (request.apiOperation === "VOID") {
    const target = transactions.find((entry) => entry.transaction_id === request.transaction.targetTransactionId);
    if (!target || target.type !== "AUTHORIZATION" || target.result !== "SUCCESS")
      return refuse("Target transaction is not a successful authorization", "transaction.targetTransactionId");
    if (order.status !== "AUTHORIZED") return refuse(`Cannot void an order that is ${order.status}`);
    return {
      order: { status: "CANCELLED", total_authorized: 0 },
      transaction: {
        amount: target.amount,
        result: "SUCCESS",
        gateway_code: "APPROVED",
        target_transaction_id: target.transaction_id,
      },
    };
  }
  if (request.transaction.currency !== order.currency)
    return refuse("Currency does not match the order", "transaction.currency");
  const amount = minorOf(request.transaction.amount, order.currency);
  if (!amount) return refuse("Value for field 'transaction.amount' is invalid", "transaction.amount");
  if (request.apiOperation === "CAPTURE") {
    if (order.status !== "AUTHORIZED" && order.status !== "PARTIALLY_CAPTURED")
      return refuse(`Cannot capture an order that is ${order.status}`);
    if (order.total_captured + amount > order.total_authorized)
      return refuse("Requested capture amount exceeds the authorized amount", "transaction.amount");
    const captured = order.total_captured + amount;
    return {
      order: {
        status: captured === order.total_authorized ? "CAPTURED" : "PARTIALLY_CAPTURED",
        total_captured: captured,
      },
      transaction: { amount, result: "SUCCESS", gateway_code: "APPROVED" },
    };
  }
  if (order.total_captured === 0) return refuse(`Cannot refund an order that is ${order.status}`);
  if (order.total_refunded + amount > order.total_captured)
    return refuse("Requested refund amount exceeds the amount available for refund", "transaction.amount");
  const refunded = order.total_refunded + amount;
  return {
    order: { status: refunded === order.total_captured ? "REFUNDED" : "PARTIALLY_REFUNDED", total_refunded: refunded },
    transaction: { amount, result: "SUCCESS", gateway_code: "APPROVED" },
  };
}

/** The payer's payment (hosted page or wallet) by the issuer's answer: captured at once for a purchase. */
function payment(order: Order, code: MpgsGatewayCode, purchase: boolean): Change {
  if (code === "TIMED_OUT")
    return {
      order: { status: "INITIATED" },
      transaction: { amount: order.amount, result: "PENDING", gateway_code: "TIMED_OUT" },
    };
  if (code !== "APPROVED")
    return {
      order: { status: "FAILED" },
      transaction: { amount: order.amount, result: "FAILURE", gateway_code: code },
    };
  return {
    order: {
      status: purchase ? "CAPTURED" : "AUTHORIZED",
      total_authorized: order.amount,
      total_captured: purchase ? order.amount : 0,
    },
    transaction: {
      amount: order.amount,
      result: "SUCCESS",
      gateway_code: "APPROVED",
      authorization_code: randomDigits(6),
    },
  };
}

async function saveOrder(trx: Kysely<Database>, order: Order) {
  await trx
    .updateTable("sandbox_mpgs_orders")
    .set({
      status: order.status,
      authentication_status: order.authentication_status,
      card_masked: order.card_masked,
      card_expiry: order.card_expiry,
      total_authorized: order.total_authorized,
      total_captured: order.total_captured,
      total_refunded: order.total_refunded,
      updated_at: order.updated_at,
    })
    .where("merchant_id", "=", order.merchant_id)
    .where("order_id", "=", order.order_id)
    .execute();
}

export type MpgsCheckoutPage = {
  sessionId: string;
  orderId: string;
  amount: number;
  currency: string;
  merchantName: string | null;
  description: string | null;
  lang: "en" | "ar";
  /** open: waiting for the card; challenge: waiting for the 3-D Secure code; closed: decided. */
  stage: "open" | "challenge" | "closed";
};

async function orderBySession(db: Kysely<Database>, sessionId: string, lock = false) {
  let query = db.selectFrom("sandbox_mpgs_orders").select(ORDER_COLUMNS).where("session_id", "=", sessionId);
  if (lock && engineOf(db) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

/** What the Hosted Payment Page shows; its address is the session id, which is unguessable. */
export async function loadCheckoutPage(db: DB, sessionId: string): Promise<MpgsCheckoutPage | undefined> {
  const order = await orderBySession(db, sessionId);
  if (!order) return undefined;
  const stage =
    order.status === "INITIATED" && !order.card_masked
      ? "open"
      : order.status === "AUTHENTICATION_INITIATED"
        ? "challenge"
        : "closed";
  return {
    sessionId,
    orderId: order.order_id,
    amount: order.amount,
    currency: order.currency,
    merchantName: order.merchant_name,
    description: order.description,
    lang: order.locale === "ar" ? "ar" : "en",
    stage,
  };
}

export type CheckoutOutcome =
  | { kind: "returned"; redirectTo: string }
  | { kind: "challenge" }
  | { kind: "not_found" }
  | { kind: "already_processed" };

/**
 * The payer submits the card, once. The challenge card first asks for the 3-D Secure code; any
 * other is decided at once by its expiry, the webhook is queued and the payer goes back to
 * returnUrl with a resultIndicator (the successIndicator only on success). TIMED_OUT leaves the
 * order pending and silent. Only the masked number is kept; the CVV never is.
 */
export async function payCheckout(
  db: DB,
  sessionId: string,
  card: CardPaymentForm,
  browserOrigin: string,
): Promise<CheckoutOutcome> {
  return writeTransaction(db, async (trx) => {
    const order = await orderBySession(trx, sessionId, true);
    if (!order || !order.return_url) return { kind: "not_found" };
    if (order.status !== "INITIATED" || order.card_masked) return { kind: "already_processed" };
    if (!isPlatformReturnAddress(order.return_url, "mpgs/response", browserOrigin)) return { kind: "not_found" };
    const withCard = {
      ...order,
      card_masked: maskCardNumber(card.cardNumber),
      card_expiry: card.expiry,
      updated_at: nowIso(),
    };
    if (card.cardNumber === MPGS_TEST_CARDS.challenge) {
      await saveOrder(trx, {
        ...withCard,
        status: "AUTHENTICATION_INITIATED",
        authentication_status: "AUTHENTICATION_PENDING",
      });
      return { kind: "challenge" };
    }
    return settlePayment(trx, withCard, mpgsGatewayCodeFor(card.cardNumber, card.expiry));
  });
}

/** The 3-D Secure challenge answered: the right code authenticates and the card is then decided; a wrong one or a cancel fails the order. */
export async function authenticateCheckout(
  db: DB,
  sessionId: string,
  answer: { code: string } | "cancel",
): Promise<CheckoutOutcome> {
  return writeTransaction(db, async (trx) => {
    const order = await orderBySession(trx, sessionId, true);
    if (!order || !order.return_url) return { kind: "not_found" };
    if (order.status !== "AUTHENTICATION_INITIATED") return { kind: "already_processed" };
    const at = nowIso();
    if (answer === "cancel" || answer.code !== MPGS_CHALLENGE_CODE) {
      const failed = {
        ...order,
        status: "AUTHENTICATION_UNSUCCESSFUL",
        authentication_status: "AUTHENTICATION_FAILED",
        updated_at: at,
      };
      await saveOrder(trx, failed);
      return { kind: "returned", redirectTo: backTo(failed, false) };
    }
    const authenticated = { ...order, authentication_status: "AUTHENTICATION_SUCCESSFUL", updated_at: at };
    return settlePayment(trx, authenticated, mpgsGatewayCodeFor(MPGS_TEST_CARDS.challenge, order.card_expiry ?? ""));
  });
}

async function settlePayment(trx: Kysely<Database>, order: Order, code: MpgsGatewayCode): Promise<CheckoutOutcome> {
  const purchase = order.operation === "PURCHASE";
  const change = payment(order, code, purchase);
  const transaction: Transaction = {
    merchant_id: order.merchant_id,
    order_id: order.order_id,
    transaction_id: "1",
    type: purchase ? "PAYMENT" : "AUTHORIZATION",
    currency: order.currency,
    target_transaction_id: null,
    authorization_code: null,
    receipt: randomDigits(12),
    wallet_provider: null,
    created_at: order.updated_at,
    ...change.transaction,
  };
  await trx.insertInto("sandbox_mpgs_transactions").values(transaction).execute();
  const updated = { ...order, ...change.order };
  await saveOrder(trx, updated);
  // The issuer never answered: the payer goes back, the merchant hears nothing.
  if (transaction.result !== "PENDING")
    await queueMpgsNotification(
      trx,
      order.merchant_id,
      order.notification_url,
      transactionDocument(updated, transaction),
    );
  return { kind: "returned", redirectTo: backTo(updated, transaction.result === "SUCCESS") };
}

/** returnUrl with the resultIndicator: the session's successIndicator on success, anything else otherwise. */
function backTo(order: Order, success: boolean) {
  const back = new URL(order.return_url!);
  back.searchParams.set("resultIndicator", success ? order.success_indicator! : randomToken(12).replace(/[-_]/g, "0"));
  back.searchParams.set("sessionVersion", randomToken(6));
  return back.toString();
}
