/**
 * The Mastercard Gateway (MPGS), Hosted Checkout, REST API version 100, as its documentation
 * gives it: INITIATE_CHECKOUT opens a session, the payer pays on the gateway's Hosted Payment Page
 * (3-D Secure included) and comes back to our returnUrl with a resultIndicator; RETRIEVE_ORDER
 * decides; webhooks carry the merchant's notification secret; CAPTURE, REFUND, VOID and wallet
 * payments are PUTs under a transaction id of ours. The order id is our track id. Pointed at the
 * sandbox, both endpoints are `<base URL>/sandbox/mpgs`.
 */
import { safeEqual } from "~/lib/crypto.server";
import { guardedFetch } from "~/domain/integrations/guarded-fetch.server";
import { gatewayTargetsGuarded } from "~/domain/integrations/webhook-targets.server";
import type {
  GatewayAdapter,
  GatewayConfig,
  GatewayLeg,
  GatewayOutcome,
  OperationResult,
  OperationTarget,
} from "../gateway";
import {
  ErrorAnswerSchema,
  MPGS_API_VERSION,
  MPGS_NOTIFICATION_SECRET_HEADER,
  RetrievedOrderSchema,
  TransactionAnswerSchema,
  decimalOf,
  maskedCardOf,
  minorOf,
  type RetrievedOrder,
  type TransactionAnswer,
} from "./mpgs-protocol";

const TIMEOUT_MS = 10_000;

/** The transaction id of a wallet payment: the order's only payment, so a repeated call is the same PUT. */
const WALLET_TRANSACTION_ID = "1";

function credentialsOf(config: GatewayConfig) {
  const { merchantId, apiPassword, notificationSecret } = config.credentials;
  if (!merchantId || !apiPassword || !notificationSecret)
    throw new Error(`MPGS gateway ${config.code} needs merchantId, apiPassword and notificationSecret`);
  return { merchantId, apiPassword, notificationSecret };
}

function base(url: string) {
  return url.replace(/\/+$/, "");
}

type Answer = { status: number; payload: unknown };

async function callApi(
  config: GatewayConfig,
  method: "GET" | "POST" | "PUT",
  path: string,
  body?: unknown,
): Promise<Answer> {
  const { merchantId, apiPassword } = credentialsOf(config);
  const url = `${base(config.endpoints.server)}/api/rest/version/${MPGS_API_VERSION}/merchant/${encodeURIComponent(merchantId)}${path}`;
  const response = await guardedFetch(
    url,
    {
      method,
      headers: {
        Authorization: `Basic ${Buffer.from(`merchant.${merchantId}:${apiPassword}`).toString("base64")}`,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    },
    gatewayTargetsGuarded(),
  );
  const payload = (await response.json().catch(() => null)) as unknown;
  return { status: response.status, payload };
}

const orderPath = (orderId: string, transactionId?: string) =>
  `/order/${encodeURIComponent(orderId)}${transactionId === undefined ? "" : `/transaction/${encodeURIComponent(transactionId)}`}`;

/** The gateway's error document, when it answered one. */
function errorOf(answer: Answer) {
  const parsed = ErrorAnswerSchema.safeParse(answer.payload);
  return parsed.success ? parsed.data.error : undefined;
}

function describeError(answer: Answer) {
  const error = errorOf(answer);
  return error
    ? `${error.cause}${error.explanation ? `: ${error.explanation}` : ""}`.slice(0, 200)
    : `HTTP ${answer.status}`;
}

/**
 * order.status as an outcome. Money taken stays a success whatever was refunded since, and counts
 * what was captured (part of an authorization, perhaps); an authorization not captured is authorized; a cancelled order was voided. Anything
 * before a result (a session, an authentication under way) is still open.
 */
function statusOf(status: string): GatewayOutcome["status"] {
  switch (status) {
    case "CAPTURED":
    case "PARTIALLY_CAPTURED":
    case "PARTIALLY_REFUNDED":
    case "REFUNDED":
    case "REFUND_REQUESTED":
    case "EXCESSIVELY_REFUNDED":
    case "DISPUTED":
    case "CHARGEBACK_PROCESSED":
      return "success";
    case "AUTHORIZED":
      return "authorized";
    case "CANCELLED":
      return "canceled";
    case "FAILED":
    case "AUTHENTICATION_UNSUCCESSFUL":
      return "failed";
    default:
      return "pending";
  }
}

type OrderView = Pick<
  RetrievedOrder,
  | "id"
  | "amount"
  | "currency"
  | "status"
  | "totalAuthorizedAmount"
  | "totalCapturedAmount"
  | "authenticationStatus"
  | "sourceOfFunds"
>;

function outcomeOf(
  order: OrderView,
  transaction?: TransactionAnswer | RetrievedOrder["transaction"][number],
): GatewayOutcome {
  const status = statusOf(order.status);
  const amount =
    status === "success" && order.totalCapturedAmount !== undefined
      ? minorOf(order.totalCapturedAmount, order.currency)
      : status === "authorized" && order.totalAuthorizedAmount !== undefined
        ? minorOf(order.totalAuthorizedAmount, order.currency)
        : undefined;
  return {
    status,
    amount,
    refs: {
      tranId: transaction?.transaction.id,
      authCode: transaction?.transaction.authorizationCode,
      referenceId: transaction?.transaction.receipt,
      resultCode: transaction?.response?.gatewayCode ?? order.status,
      cardMasked: maskedCardOf(order.sourceOfFunds?.provided?.card?.number),
      authentication: order.authenticationStatus,
    },
  };
}

/** The payment of an order: its last authorization or payment, the transaction an inquiry reports. */
function paymentOf(order: RetrievedOrder) {
  return order.transaction
    .filter((entry) => entry.transaction.type === "AUTHORIZATION" || entry.transaction.type === "PAYMENT")
    .at(-1);
}

/** An order counts only for our own order id, amount and currency. */
function checkOrder(
  order: Pick<RetrievedOrder, "id" | "amount" | "currency">,
  attempt: { trackId: string; total: number; currency: string },
) {
  if (
    order.id !== attempt.trackId ||
    order.currency !== attempt.currency ||
    minorOf(order.amount, order.currency) !== attempt.total
  ) {
    throw new Error("MPGS answered for another order, amount or currency");
  }
}

/** RETRIEVE_ORDER; undefined when the gateway has no such order (the payer has not paid yet). */
async function retrieveOrder(config: GatewayConfig, orderId: string): Promise<RetrievedOrder | undefined> {
  const answer = await callApi(config, "GET", orderPath(orderId));
  if (answer.status === 200) return RetrievedOrderSchema.parse(answer.payload);
  if (answer.status === 400 && errorOf(answer)?.cause === "INVALID_REQUEST") return undefined;
  throw new Error(`MPGS order retrieval failed: ${describeError(answer)}`);
}

/**
 * A PUT of a new transaction under our id. A result of SUCCESS is done and FAILURE refused; an error
 * document (INVALID_REQUEST, REQUEST_REJECTED…) is a refusal; PENDING or anything else leaves the
 * outcome unknown and throws, for the reconciler to ask about it by its id.
 */
async function putTransaction(
  config: GatewayConfig,
  orderId: string,
  transactionId: string,
  body: Record<string, unknown>,
): Promise<OperationResult> {
  const answer = await callApi(config, "PUT", orderPath(orderId, transactionId), body);
  if (answer.status === 200 || answer.status === 201) {
    const done = TransactionAnswerSchema.parse(answer.payload);
    if (done.transaction.id !== transactionId) throw new Error("MPGS answered for another transaction");
    if (done.result === "SUCCESS") return { ok: true, reference: done.transaction.receipt ?? done.transaction.id };
    if (done.result === "FAILURE")
      return { ok: false, message: `Declined: ${done.response?.gatewayCode ?? "FAILURE"}` };
    throw new Error(`MPGS ${String(body.apiOperation)} is ${done.result}`);
  }
  if (answer.status === 400 && errorOf(answer)) return { ok: false, message: describeError(answer) };
  throw new Error(`MPGS ${String(body.apiOperation)} failed: ${describeError(answer)}`);
}

async function operate(
  config: GatewayConfig,
  target: OperationTarget,
  reference: string | undefined,
  operation: "CAPTURE" | "REFUND" | "VOID",
  amount?: number,
): Promise<OperationResult> {
  if (!reference) throw new Error(`An MPGS ${operation} needs our transaction id`);
  const order = await retrieveOrder(config, target.trackId);
  if (!order) return { ok: false, message: "INVALID_REQUEST: the gateway has no order for this payment" };
  if (operation === "VOID") {
    const authorization = order.transaction
      .filter((entry) => entry.transaction.type === "AUTHORIZATION" && entry.result === "SUCCESS")
      .at(-1);
    if (!authorization) return { ok: false, message: "The order has no authorization to void" };
    return putTransaction(config, order.id, reference, {
      apiOperation: "VOID",
      transaction: { targetTransactionId: authorization.transaction.id },
    });
  }
  if (amount === undefined || !Number.isSafeInteger(amount) || amount <= 0)
    return { ok: false, message: "The amount must be positive" };
  return putTransaction(config, order.id, reference, {
    apiOperation: operation,
    transaction: { amount: decimalOf(amount, order.currency), currency: order.currency },
  });
}

/**
 * interaction.returnUrl: the payer's browser, back with a resultIndicator. The indicator is the
 * browser's word: equal to the session's successIndicator (kept with the attempt as what the gateway
 * promised a successful return would carry) it says the payer finished, any other that they did not;
 * either way only RETRIEVE_ORDER decides, so a forged or replayed indicator pays nothing. A request
 * without one did not come from the Hosted Payment Page and is refused (the result page still asks).
 */
const responseLeg: GatewayLeg = {
  from: "browser",
  methods: ["GET"],
  read(_config, _attempt, message) {
    if (!message.query.get("resultIndicator"))
      return { kind: "refuse", reason: "No resultIndicator: not a return from the Hosted Payment Page" };
    return { kind: "ask" };
  },
};

/** The webhook: the transaction with its order, vouched for by the merchant's notification secret; 200 accepts it, anything else makes the gateway send again. */
const notifyLeg: GatewayLeg = {
  from: "gateway",
  methods: ["POST"],
  read(config, attempt, message) {
    const verified = verifyMpgsNotification(config, message.headers, message.body);
    if (!verified.ok) return { kind: "refuse", reason: verified.reason };
    const { order } = verified.notification;
    if (order.id !== attempt.trackId) return { kind: "refuse", reason: "The notification is for another order" };
    if (order.currency !== attempt.currency || minorOf(order.amount, order.currency) !== attempt.total)
      return { kind: "refuse", reason: "The notification is for another amount" };
    return {
      kind: "result",
      outcome: outcomeOf({ ...order, sourceOfFunds: verified.notification.sourceOfFunds }, verified.notification),
      trackId: order.id,
    };
  },
  answer(handled) {
    return { format: "json", body: JSON.stringify(handled.accepted ? {} : { error: handled.reason }) };
  },
};

export const mpgsAdapter: GatewayAdapter = {
  legs: { response: responseLeg, notify: notifyLeg },

  async start(config, attempt, urls) {
    const logo = attempt.merchant?.logoUrl;
    const answer = await callApi(config, "POST", "/session", {
      apiOperation: "INITIATE_CHECKOUT",
      interaction: {
        operation: config.captureMode === "manual" ? "AUTHORIZE" : "PURCHASE",
        returnUrl: urls.response,
        locale: attempt.lang,
        ...(attempt.merchant
          ? {
              merchant: {
                name: attempt.merchant.name.slice(0, 40),
                ...(logo && logo.startsWith("https://") ? { logo } : {}),
              },
            }
          : {}),
      },
      order: {
        id: attempt.trackId,
        amount: decimalOf(attempt.total, attempt.currency),
        currency: attempt.currency,
        description: (attempt.description ?? attempt.trackId).slice(0, 127),
        notificationUrl: urls.notify,
      },
    });
    const session = answer.payload as {
      result?: string;
      session?: { id?: unknown };
      successIndicator?: unknown;
    } | null;
    const sessionId = session?.session?.id;
    const successIndicator = session?.successIndicator;
    if (answer.status !== 201 && answer.status !== 200)
      throw new Error(`MPGS INITIATE_CHECKOUT failed: ${describeError(answer)}`);
    if (
      session?.result !== "SUCCESS" ||
      typeof sessionId !== "string" ||
      !/^[\w-]{1,100}$/.test(sessionId) ||
      typeof successIndicator !== "string" ||
      !successIndicator
    ) {
      throw new Error("MPGS INITIATE_CHECKOUT answered no session");
    }
    // The Hosted Payment Page as a redirect, no script of the gateway's on our page.
    const url = `${base(config.endpoints.browser)}/checkout/pay/${encodeURIComponent(sessionId)}?checkoutVersion=1.0.0`;
    return { kind: "redirect", url, gatewayReference: sessionId, returnSecret: successIndicator };
  },

  async inquire(config, attempt) {
    const order = await retrieveOrder(config, attempt.trackId);
    if (!order) return { status: "pending", refs: {} };
    checkOrder(order, attempt);
    return outcomeOf(order, paymentOf(order));
  },

  /** PAY (or AUTHORIZE) with the wallet's token as a device payment; the order id is our track id, as with the hosted page. */
  async payWithWallet(config, attempt, wallet) {
    const answer = await callApi(config, "PUT", orderPath(attempt.trackId, WALLET_TRANSACTION_ID), {
      apiOperation: config.captureMode === "manual" ? "AUTHORIZE" : "PAY",
      order: {
        amount: decimalOf(attempt.total, attempt.currency),
        currency: attempt.currency,
        walletProvider: wallet.provider === "apple_pay" ? "APPLE_PAY" : "GOOGLE_PAY",
      },
      sourceOfFunds: { type: "CARD", provided: { card: { devicePayment: { paymentToken: wallet.token } } } },
      transaction: { source: "INTERNET" },
    });
    if (answer.status === 400 && errorOf(answer))
      return { status: "failed", refs: { resultCode: errorOf(answer)!.cause } };
    if (answer.status !== 200 && answer.status !== 201)
      throw new Error(`MPGS wallet payment failed: ${describeError(answer)}`);
    const paid = TransactionAnswerSchema.parse(answer.payload);
    checkOrder(paid.order, attempt);
    return outcomeOf({ ...paid.order, sourceOfFunds: paid.sourceOfFunds }, paid);
  },

  capture: (config, attempt, amount, reference) => operate(config, attempt, reference, "CAPTURE", amount),
  refund: (config, attempt, amount, reference) => operate(config, attempt, reference, "REFUND", amount),
  void: (config, attempt, reference) => operate(config, attempt, reference, "VOID"),

  /** RETRIEVE_TRANSACTION by our transaction id; the gateway knowing no such transaction is not_found. */
  async inquireOperation(config, attempt, operation) {
    const answer = await callApi(config, "GET", orderPath(attempt.trackId, operation.reference));
    if (answer.status === 400 && errorOf(answer)?.cause === "INVALID_REQUEST") return { status: "not_found" };
    if (answer.status !== 200) throw new Error(`MPGS transaction retrieval failed: ${describeError(answer)}`);
    const found = TransactionAnswerSchema.parse(answer.payload);
    const type = { refund: "REFUND", capture: "CAPTURE", void: "VOID_AUTHORIZATION" }[operation.kind];
    if (found.transaction.id !== operation.reference || found.transaction.type !== type)
      throw new Error("MPGS answered for another transaction");
    if (found.result === "FAILURE")
      return { status: "failed", message: `Declined: ${found.response?.gatewayCode ?? "FAILURE"}` };
    if (found.result !== "SUCCESS") throw new Error(`MPGS transaction is ${found.result}`);
    if (
      operation.kind !== "void" &&
      (found.transaction.amount === undefined ||
        minorOf(found.transaction.amount, found.order.currency) !== operation.amount)
    ) {
      throw new Error("MPGS answered a transaction of another amount");
    }
    return { status: "succeeded", reference: found.transaction.receipt ?? found.transaction.id };
  },

  async testConnection(config) {
    try {
      credentialsOf(config);
    } catch {
      return { ok: false, detail: "The merchant id, API password or notification secret is missing" };
    }
    const answer = await callApi(config, "GET", orderPath(`conntest-${Date.now()}`));
    const error = errorOf(answer);
    if (answer.status === 401 || answer.status === 403)
      return { ok: false, detail: `The gateway refused the merchant id or API password: ${describeError(answer)}` };
    if (answer.status === 400 && error?.cause === "INVALID_REQUEST") {
      return {
        ok: true,
        detail: `The gateway accepted the credentials (a test order was not found, as expected): ${describeError(answer)}`,
      };
    }
    return { ok: false, detail: `The gateway answered ${describeError(answer)}` };
  },
};

/** A webhook: its X-Notification-Secret equal to the merchant's (compared in constant time), its body the transaction with its order. */
export function verifyMpgsNotification(
  config: GatewayConfig,
  headers: Headers,
  rawBody: string,
): { ok: true; notification: TransactionAnswer } | { ok: false; reason: string } {
  const { notificationSecret } = credentialsOf(config);
  const given = headers.get(MPGS_NOTIFICATION_SECRET_HEADER);
  if (!given || !safeEqual(given, notificationSecret))
    return { ok: false, reason: "The notification secret does not match" };
  try {
    return { ok: true, notification: TransactionAnswerSchema.parse(JSON.parse(rawBody)) };
  } catch {
    return { ok: false, reason: "The body is not a transaction notification" };
  }
}
