/**
 * KNET, as a merchant integrates it in production: the browser goes to the gateway's
 * PaymentHTTP.htm with encrypted trandata and comes back to our responseURL/errorURL with the
 * encrypted result; inquiry and refund are server-to-server tranPipe calls. Pointed at the
 * sandbox, `endpoints.browser` and `endpoints.server` are `<base URL>/sandbox/knet`.
 */
import { parseAmount, toDecimalString } from "~/lib/money";
import { guardedFetch } from "~/domain/integrations/guarded-fetch.server";
import { gatewayTargetsGuarded } from "~/domain/integrations/webhook-targets.server";
import type { AttemptForGateway, GatewayAdapter, GatewayConfig, GatewayOutcome } from "./gateway";
import { KNET_ACTIONS, KNET_CURRENCY_KWD, decryptParams, encryptParams, type KnetParams } from "./knet-protocol";

const TIMEOUT_MS = 10_000;

type Expected = { trackId: string; total: number; currency: string };
type Verified = { ok: true; outcome: GatewayOutcome } | { ok: false; reason: string };

function credentialsOf(config: GatewayConfig) {
  const { tranportalId, password, resourceKey } = config.credentials;
  if (!tranportalId || !password || resourceKey?.length !== 16) {
    throw new Error(`KNET gateway ${config.code} needs tranportalId, password and a 16-character resourceKey`);
  }
  return { tranportalId, password, resourceKey };
}

function endpoint(base: string, path: string) {
  return `${base.replace(/\/+$/, "")}/${path}`;
}

function requireKwd(currency: string) {
  if (currency !== "KWD") throw new Error(`KNET accepts KWD only, not ${currency}`);
}

function outcomeOf(params: KnetParams): GatewayOutcome {
  const result = params.result ?? "";
  const status =
    result === "CAPTURED"
      ? "success"
      : result === "CANCELED"
        ? "canceled"
        : result === "PENDING" || result === "NOT FOUND"
          ? "pending"
          : "failed";
  const amount = parseAmount(params.amt ?? "", "KWD");
  return {
    status,
    amount: status === "success" && amount.ok ? amount.minor : undefined,
    refs: {
      paymentId: params.paymentid || undefined,
      tranId: params.tranid || undefined,
      authCode: params.auth || undefined,
      referenceId: params.ref || undefined,
      postDate: params.postdate || undefined,
      resultCode: result || undefined,
    },
  };
}

/** A KNET answer counts only for our own track id and amount. */
function checkAnswer(params: KnetParams, expected: Expected): Verified {
  if (expected.currency !== "KWD") return { ok: false, reason: `KNET answers in KWD only, not ${expected.currency}` };
  if (params.trackid !== expected.trackId) return { ok: false, reason: "The answer is for another track id" };
  if (params.amt) {
    const amount = parseAmount(params.amt, "KWD");
    if (!amount.ok || amount.minor !== expected.total) return { ok: false, reason: "The answer is for another amount" };
  } else if (params.result === "CAPTURED") {
    return { ok: false, reason: "A captured answer without an amount" };
  }
  return { ok: true, outcome: outcomeOf(params) };
}

/**
 * The customer's return to responseURL/errorURL. It is only as good as its encryption: it proves
 * KNET said so, not that this is the first time we hear it, so callers still complete once.
 */
export function verifyKnetReturn(config: GatewayConfig, query: URLSearchParams, expected: Expected): Verified {
  const { tranportalId, resourceKey } = credentialsOf(config);
  const errorText = query.get("ErrorText") ?? query.get("Error");
  if (errorText) return { ok: false, reason: `KNET reported an error: ${errorText.slice(0, 200)}` };
  const trandata = query.get("trandata");
  if (!trandata) return { ok: false, reason: "No trandata in the return" };
  const claimedTerminal = query.get("tranportalId");
  if (claimedTerminal && claimedTerminal !== tranportalId) return { ok: false, reason: "The return names another terminal" };
  let params: KnetParams;
  try {
    params = decryptParams(trandata, resourceKey);
  } catch {
    return { ok: false, reason: "trandata does not decrypt with this terminal's resource key" };
  }
  return checkAnswer(params, expected);
}

/** A tranPipe call (inquiry or refund): encrypted request, encrypted answer; transport failures throw. */
async function callTranPipe(config: GatewayConfig, path: "inquiry" | "refund", params: KnetParams): Promise<KnetParams> {
  const { tranportalId, password, resourceKey } = credentialsOf(config);
  const trandata = encryptParams({ id: tranportalId, password, ...params }, resourceKey);
  const response = await guardedFetch(endpoint(config.endpoints.server, path), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({ tranportalId, trandata }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  }, gatewayTargetsGuarded());
  const body = (await response.json().catch(() => null)) as { trandata?: unknown; error?: unknown } | null;
  if (!response.ok || typeof body?.trandata !== "string") {
    throw new Error(`KNET ${path} failed: HTTP ${response.status}${body?.error ? ` ${String(body.error)}` : ""}`);
  }
  return decryptParams(body.trandata, resourceKey);
}

async function inquireBy(config: GatewayConfig, by: { trackId: string; paymentId?: string | null }, amount: string) {
  return callTranPipe(config, "inquiry", {
    action: KNET_ACTIONS.inquiry,
    amt: amount,
    trackid: by.trackId,
    transid: by.paymentId ?? by.trackId,
    udf5: by.paymentId ? "PaymentID" : "TrackID",
  });
}

export const knetAdapter: GatewayAdapter = {
  async start(config, attempt: AttemptForGateway, urls) {
    requireKwd(attempt.currency);
    const { tranportalId, password, resourceKey } = credentialsOf(config);
    const trandata = encryptParams(
      {
        id: tranportalId,
        password,
        action: KNET_ACTIONS.purchase,
        langid: attempt.lang === "ar" ? "AR" : "USA",
        currencycode: KNET_CURRENCY_KWD,
        amt: toDecimalString(attempt.total, "KWD"),
        trackid: attempt.trackId,
        responseURL: urls.response,
        errorURL: urls.error,
        udf1: attempt.id,
      },
      resourceKey,
    );
    const url = new URL(endpoint(config.endpoints.browser, "PaymentHTTP.htm"));
    url.search = new URLSearchParams({
      param: "paymentInit",
      trandata,
      tranportalId,
      responseURL: urls.response,
      errorURL: urls.error,
    }).toString();
    return { kind: "redirect", url: url.toString() };
  },

  async testConnection(config) {
    let credentials: ReturnType<typeof credentialsOf>;
    try {
      credentials = credentialsOf(config);
    } catch {
      return { ok: false, detail: "The tranportal id, password or 16-character resource key is missing" };
    }
    const trackId = `CONNTEST${Date.now()}`;
    const trandata = encryptParams(
      { id: credentials.tranportalId, password: credentials.password, action: KNET_ACTIONS.inquiry, amt: "0.100", trackid: trackId, transid: trackId, udf5: "TrackID" },
      credentials.resourceKey,
    );
    const response = await guardedFetch(endpoint(config.endpoints.server, "inquiry"), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({ tranportalId: credentials.tranportalId, trandata }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }, gatewayTargetsGuarded());
    const body = (await response.json().catch(() => null)) as { trandata?: unknown; error?: unknown } | null;
    if (!response.ok || typeof body?.trandata !== "string") {
      return { ok: false, detail: `KNET refused the inquiry: HTTP ${response.status}${typeof body?.error === "string" ? `, ${body.error.slice(0, 120)}` : ""}` };
    }
    try {
      const answer = decryptParams(body.trandata, credentials.resourceKey);
      return { ok: true, detail: `KNET answered an inquiry for a test track id: ${String(answer.result || "no result").slice(0, 40)}` };
    } catch {
      return { ok: false, detail: "KNET answered, but its answer does not decrypt with this resource key" };
    }
  },

  async inquire(config, attempt) {
    requireKwd(attempt.currency);
    const answer = await inquireBy(config, { trackId: attempt.trackId }, toDecimalString(attempt.total, "KWD"));
    const checked = checkAnswer(answer, attempt);
    if (!checked.ok) throw new Error(`KNET inquiry: ${checked.reason}`);
    return checked.outcome;
  },

  async capture() {
    return { ok: false, message: "KNET captures at payment time; there is no separate capture" };
  },

  async void() {
    return { ok: false, message: "KNET captures at payment time; a payment cannot be voided, only refunded" };
  },

  /**
   * KNET refunds name the original transaction by its tranid, which an inquiry gives us, and carry
   * a track id of their own: ours, the operation's reference, by which KNET refunds once and the
   * inquiry finds the refund later.
   */
  async refund(config, attempt, amount, reference) {
    if (!Number.isSafeInteger(amount) || amount <= 0) return { ok: false, message: "The refund amount must be positive" };
    const amt = toDecimalString(amount, "KWD");
    const original = await inquireBy(config, { trackId: attempt.trackId, paymentId: attempt.paymentId }, amt);
    if (original.result !== "CAPTURED" || original.trackid !== attempt.trackId || !original.tranid) {
      return { ok: false, message: `KNET has no captured payment for this attempt (${original.result ?? "no result"})` };
    }
    const answer = await callTranPipe(config, "refund", {
      action: KNET_ACTIONS.refund,
      amt,
      transid: original.tranid,
      trackid: reference ?? attempt.trackId,
    });
    if (answer.result === "CAPTURED") return { ok: true, reference: answer.tranid };
    return { ok: false, message: answer.ErrorText || `KNET refused the refund (${answer.result ?? "no result"})` };
  },

  /** A refund is found by its own track id (our reference); KNET has no capture or void to ask about. */
  async inquireOperation(config, _attempt, operation) {
    if (operation.kind !== "refund") return { status: "not_found" };
    const answer = await inquireBy(config, { trackId: operation.reference }, toDecimalString(operation.amount, "KWD"));
    if (answer.result === "NOT FOUND" || !answer.result) return { status: "not_found" };
    if (answer.trackid !== operation.reference) throw new Error("KNET inquiry answered for another track id");
    if (answer.result === "CAPTURED") {
      const amount = parseAmount(answer.amt ?? "", "KWD");
      if (!amount.ok || amount.minor !== operation.amount) throw new Error("KNET inquiry answered a refund of another amount");
      return { status: "succeeded", reference: answer.tranid || undefined };
    }
    return { status: "failed", message: answer.ErrorText || `KNET refund ${answer.result}` };
  },
};
