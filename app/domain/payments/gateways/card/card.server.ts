/**
 * A card acquirer with a hosted payment page: the payment is created server-to-server, the
 * customer pays on the acquirer's page, and the outcome arrives as a signed notification or an
 * inquiry (the customer's return carries nothing to trust). Pointed at the sandbox,
 * `endpoints.browser` and `endpoints.server` are `<base URL>/sandbox/card`.
 */
import { z } from "zod";
import { guardedFetch } from "~/domain/integrations/guarded-fetch.server";
import { gatewayTargetsGuarded } from "~/domain/integrations/webhook-targets.server";
import { now } from "~/lib/clock.server";
import type { GatewayAdapter, GatewayConfig, GatewayLeg, GatewayOutcome, OperationResult, SettlementEntry } from "../gateway";
import { CARD_SIGNATURE_HEADER, CARD_TIMESTAMP_HEADER, verifyCardSignature } from "./card-signature";

const TIMEOUT_MS = 10_000;

const PaymentStateSchema = z.object({
  id: z.string().min(1),
  reference: z.string(),
  status: z.enum(["pending", "authorized", "captured", "declined", "voided", "refunded", "partially_refunded"]),
  amount: z.number().int(),
  captured_amount: z.number().int(),
  currency: z.string(),
  card: z.string().nullable().optional(),
});

type PaymentState = z.infer<typeof PaymentStateSchema>;

const OperationStateSchema = z.object({
  reference: z.string(),
  payment_id: z.string(),
  kind: z.enum(["capture", "refund", "void"]),
  amount: z.number().int(),
  status: z.enum(["succeeded", "failed"]),
  error: z.string().nullable().optional(),
});

const PaymentListSchema = z.object({
  data: z.array(PaymentStateSchema.extend({ refunded_amount: z.number().int(), created_at: z.string() })),
  has_more: z.boolean(),
});

const OUTCOMES: Record<PaymentState["status"], GatewayOutcome["status"]> = {
  pending: "pending",
  authorized: "authorized",
  captured: "success",
  refunded: "success",
  partially_refunded: "success",
  declined: "failed",
  voided: "canceled",
};

function outcomeOf(state: PaymentState): GatewayOutcome {
  const status = OUTCOMES[state.status];
  const amount = status === "success" ? state.captured_amount : status === "authorized" ? state.amount : undefined;
  const cardMasked = state.card && /^\d{6}\*{2,9}\d{4}$/.test(state.card) ? state.card : undefined;
  return { status, amount, refs: { paymentId: state.id, resultCode: state.status, cardMasked } };
}

function credentialsOf(config: GatewayConfig) {
  const { apiKey, webhookSecret } = config.credentials;
  if (!apiKey || !webhookSecret) throw new Error(`Card gateway ${config.code} needs apiKey and webhookSecret`);
  return { apiKey, webhookSecret };
}

function base(url: string) {
  return url.replace(/\/+$/, "");
}

async function callApi(config: GatewayConfig, method: "GET" | "POST", path: string, body?: unknown, idempotencyKey?: string) {
  const { apiKey } = credentialsOf(config);
  const response = await guardedFetch(`${base(config.endpoints.server)}/api/payments${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey}`,
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  }, gatewayTargetsGuarded());
  const payload = (await response.json().catch(() => null)) as unknown;
  return { status: response.status, payload };
}

/** The acquirer answers the server's address; the customer needs the public one. */
function forBrowser(config: GatewayConfig, redirectUrl: string) {
  const server = base(config.endpoints.server);
  if (!redirectUrl.startsWith(`${server}/`)) return redirectUrl;
  return `${base(config.endpoints.browser)}${redirectUrl.slice(server.length)}`;
}

function paymentPath(gatewayReference: string | null, operation = "") {
  if (!gatewayReference) throw new Error("This attempt has no card payment id: it never reached the acquirer");
  return `/${encodeURIComponent(gatewayReference)}${operation}`;
}

/** Refusals (400/404) are answers; anything else leaves the outcome unknown and throws. */
async function operate(config: GatewayConfig, gatewayReference: string | null, operation: string, body: unknown, reference?: string): Promise<OperationResult> {
  const { status, payload } = await callApi(config, "POST", paymentPath(gatewayReference, `/${operation}`), body, reference);
  if (status === 200) return { ok: true, reference: PaymentStateSchema.parse(payload).id };
  const error = (payload as { error?: unknown } | null)?.error;
  if (status === 400 || status === 404) return { ok: false, message: typeof error === "string" ? error : `Refused (HTTP ${status})` };
  throw new Error(`Card ${operation} failed: HTTP ${status}`);
}

/** The gateway's signed server-to-server message; a refusal (400) makes it send again. */
const notifyLeg: GatewayLeg = {
  from: "gateway",
  methods: ["POST"],
  read(config, _attempt, message) {
    const verified = verifyCardNotification(config, message.headers, message.body);
    if (!verified.ok) return { kind: "refuse", reason: verified.reason };
    return { kind: "result", outcome: verified.outcome, trackId: verified.reference };
  },
  answer(handled) {
    const body = handled.accepted ? { accepted: true } : { accepted: false, reason: handled.reason };
    return { format: "json", body: JSON.stringify(body) };
  },
};

export const cardAdapter: GatewayAdapter = {
  /** The customer's browser back from the card page carries nothing to trust: the inquiry decides. */
  legs: { response: { from: "browser", methods: ["GET"], read: () => ({ kind: "ask" }) }, notify: notifyLeg },
  async start(config, attempt, urls) {
    const { status, payload } = await callApi(config, "POST", "", {
      amount: attempt.total,
      currency: attempt.currency,
      reference: attempt.trackId,
      capture: config.captureMode,
      notify_url: urls.notify,
      return_url: urls.response,
    });
    const created = z.object({ id: z.string().min(1), redirect_url: z.url() }).safeParse(payload);
    if (status !== 201 || !created.success) throw new Error(`Card payment creation failed: HTTP ${status}`);
    return { kind: "redirect", url: forBrowser(config, created.data.redirect_url), gatewayReference: created.data.id };
  },

  async testConnection(config) {
    if (!config.credentials.apiKey || !config.credentials.webhookSecret) return { ok: false, detail: "The API key or the notification secret is missing" };
    const { status } = await callApi(config, "GET", `/conntest_${Date.now()}`);
    if (status === 404) return { ok: true, detail: "The acquirer accepted the API key (a test payment id was not found, as expected)" };
    if (status === 401 || status === 403) return { ok: false, detail: `The acquirer refused the API key: HTTP ${status}` };
    return { ok: false, detail: `The acquirer answered HTTP ${status}` };
  },

  async inquire(config, attempt) {
    const { status, payload } = await callApi(config, "GET", paymentPath(attempt.gatewayReference));
    if (status !== 200) throw new Error(`Card inquiry failed: HTTP ${status}`);
    const state = PaymentStateSchema.parse(payload);
    if (state.reference !== attempt.trackId || state.amount !== attempt.total || state.currency !== attempt.currency) {
      throw new Error("Card inquiry answered for another reference, amount or currency");
    }
    return outcomeOf(state);
  },

  capture: (config, attempt, amount, reference) => operate(config, attempt.gatewayReference, "capture", { amount }, reference),
  refund: (config, attempt, amount, reference) => operate(config, attempt.gatewayReference, "refund", { amount }, reference),
  void: (config, attempt, reference) => operate(config, attempt.gatewayReference, "void", {}, reference),

  async inquireOperation(config, attempt, operation) {
    const { status, payload } = await callApi(config, "GET", paymentPath(attempt.gatewayReference, `/operations/${encodeURIComponent(operation.reference)}`));
    if (status === 404) return { status: "not_found" };
    if (status !== 200) throw new Error(`Card operation inquiry failed: HTTP ${status}`);
    const found = OperationStateSchema.parse(payload);
    if (found.reference !== operation.reference || found.kind !== operation.kind) throw new Error("Card operation inquiry answered for another operation");
    if (found.status === "failed") return { status: "failed", message: found.error ?? "Refused" };
    if (found.kind !== "void" && found.amount !== operation.amount) throw new Error("Card operation inquiry answered another amount");
    return { status: "succeeded", reference: found.payment_id };
  },

  /** The acquirer's list of payments created in a period, page by page (its settlement report). */
  async listSettlements(config, range) {
    const entries: SettlementEntry[] = [];
    let after: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const query = new URLSearchParams({ created_from: range.from, created_to: range.to, limit: "100", ...(after ? { starting_after: after } : {}) });
      const { status, payload } = await callApi(config, "GET", `?${query}`);
      if (status !== 200) throw new Error(`Card settlement list failed: HTTP ${status}`);
      const list = PaymentListSchema.parse(payload);
      for (const payment of list.data) {
        entries.push({
          reference: payment.reference,
          paymentId: payment.id,
          status: payment.status === "authorized" ? "authorized" : payment.captured_amount > 0 ? "captured" : "other",
          amount: payment.status === "authorized" ? payment.amount : payment.captured_amount,
          refunded: payment.refunded_amount,
          currency: payment.currency,
          createdAt: payment.created_at,
        });
      }
      if (!list.has_more || list.data.length === 0) return entries;
      after = list.data[list.data.length - 1].id;
    }
    throw new Error("Card settlement list: too many pages");
  },
};

/** A server-to-server notification: signed with our webhook secret over its timestamp and raw body, at most five minutes old. */
export function verifyCardNotification(
  config: GatewayConfig,
  headers: Headers,
  rawBody: string,
): { ok: true; reference: string; outcome: GatewayOutcome } | { ok: false; reason: string } {
  const { webhookSecret } = credentialsOf(config);
  const nowSeconds = Math.floor(now().getTime() / 1000);
  const check = verifyCardSignature(
    webhookSecret,
    headers.get(CARD_TIMESTAMP_HEADER),
    rawBody,
    headers.get(CARD_SIGNATURE_HEADER),
    nowSeconds,
  );
  if (!check.ok) return { ok: false, reason: `Signature ${check.reason}` };
  let state: PaymentState;
  try {
    state = PaymentStateSchema.parse(JSON.parse(rawBody));
  } catch {
    return { ok: false, reason: "The body is not a payment notification" };
  }
  return { ok: true, reference: state.reference, outcome: outcomeOf(state) };
}
