/**
 * KNET, as its Merchant Integration Manual (K-064 v1.4) and PHP sample specify: the browser goes to
 * `<endpoint>/kpg/PaymentHTTP.htm` with encrypted trandata; KNET's server posts the encrypted result
 * to our responseURL and reads back one line, `REDIRECT=<receipt URL>`; inquiry and refund are raw
 * XML tranPipe calls. Pointed at the sandbox, both endpoints are `<base URL>/sandbox/knet`.
 */
import { parseAmount, toDecimalString } from "~/lib/money";
import { guardedFetch } from "~/domain/integrations/guarded-fetch.server";
import { gatewayTargetsGuarded } from "~/domain/integrations/webhook-targets.server";
import type {
  AttemptForGateway,
  GatewayAdapter,
  GatewayConfig,
  GatewayLeg,
  GatewayOutcome,
  LegHandled,
} from "../gateway";
import {
  KNET_ACTIONS,
  KNET_CURRENCY_KWD,
  KNET_XML_MAX_CHARS,
  buildInitParams,
  buildTranPipeXml,
  decryptTrandata,
  encryptTrandata,
  parseResultParams,
  readTranPipeXml,
  type KnetParams,
  type KnetTransIdKind,
} from "./knet-protocol";

const TIMEOUT_MS = 10_000;

type Expected = { trackId: string; total: number; currency: string };

/** A result KNET posted to responseURL, decrypted and checked; `encrypted` and `plain` are kept as received. */
export type VerifiedKnetResponse =
  | { ok: true; outcome: GatewayOutcome; encrypted: string; plain: string }
  | { ok: false; reason: string; encrypted?: string; plain?: string };

function credentialsOf(config: GatewayConfig) {
  const { tranportalId, password, resourceKey } = config.credentials;
  if (!tranportalId || !password || resourceKey?.length !== 16) {
    throw new Error(`KNET gateway ${config.code} needs tranportalId, password and a 16-character resourceKey`);
  }
  return { tranportalId, password, resourceKey };
}

/** `<endpoint>/kpg/<page>`; an endpoint saved with its /kpg already is taken as it is. */
function kpgUrl(base: string, page: "PaymentHTTP.htm" | "tranPipe.htm") {
  const root = base.replace(/\/+$/, "").replace(/\/kpg$/, "");
  return `${root}/kpg/${page}`;
}

function requireKwd(currency: string) {
  if (currency !== "KWD") throw new Error(`KNET accepts KWD only, not ${currency}`);
}

/** What a payment result says (the response leg): CAPTURED is paid; the manual's other results are not. */
function paymentStatusOf(result: string): GatewayOutcome["status"] {
  if (result === "CAPTURED") return "success";
  if (result === "CANCELED") return "canceled";
  return "failed";
}

/**
 * What an inquiry says: SUCCESS or CAPTURED is paid; FAILURE, SUSPECTED, NOT CAPTURED and the like
 * are not. No result at all (a payment KNET has not finished or does not know) stays open.
 */
function inquiryStatusOf(result: string): GatewayOutcome["status"] {
  if (result === "SUCCESS" || result === "CAPTURED") return "success";
  if (result === "CANCELED") return "canceled";
  if (!result || result === "PENDING" || result === "NOT FOUND") return "pending";
  return "failed";
}

function outcomeOf(params: KnetParams, status: GatewayOutcome["status"]): GatewayOutcome {
  const amount = parseAmount(params.amt ?? "", "KWD");
  return {
    status,
    amount: status === "success" && amount.ok ? amount.minor : undefined,
    refs: {
      paymentId: params.paymentid || params.payid || undefined,
      tranId: params.tranid || undefined,
      authCode: params.auth || undefined,
      referenceId: params.ref || undefined,
      postDate: params.postdate || undefined,
      resultCode: params.result || undefined,
    },
  };
}

/** A KNET answer counts only for our own track id and amount. */
function mismatchOf(params: KnetParams, expected: Expected): string | null {
  if (expected.currency !== "KWD") return `KNET answers in KWD only, not ${expected.currency}`;
  if (params.trackid !== expected.trackId) return "The answer is for another track id";
  if (params.amt) {
    const amount = parseAmount(params.amt, "KWD");
    if (!amount.ok || amount.minor !== expected.total) return "The answer is for another amount";
  } else if (params.result === "CAPTURED" || params.result === "SUCCESS") {
    return "A captured answer without an amount";
  }
  return null;
}

/**
 * KNET's POST to responseURL. Only `trandata` that decrypts with this terminal's resource key and
 * names our track id and amount is a result; `ErrorText`/`Error` arrive unencrypted and prove nothing.
 */
export function verifyKnetResponse(
  config: GatewayConfig,
  form: URLSearchParams,
  expected: Expected,
): VerifiedKnetResponse {
  const { resourceKey } = credentialsOf(config);
  const trandata = form.get("trandata");
  if (!trandata) {
    const errorText = form.get("ErrorText") ?? form.get("Error");
    return {
      ok: false,
      reason: errorText ? `KNET reported an error: ${errorText.slice(0, 200)}` : "No trandata in the response",
    };
  }
  let plain: string;
  try {
    plain = decryptTrandata(trandata, resourceKey);
  } catch {
    return { ok: false, reason: "trandata does not decrypt with this terminal's resource key" };
  }
  const params = parseResultParams(plain);
  const mismatch = mismatchOf(params, expected);
  if (mismatch) return { ok: false, reason: mismatch, encrypted: trandata, plain };
  return { ok: true, outcome: outcomeOf(params, paymentStatusOf(params.result ?? "")), encrypted: trandata, plain };
}

/** The answer of KNET's response leg: one line, nothing else, or KNET voids the payment. */
export function knetRedirectLine(receiptUrl: string): string {
  if (/[\r\n]/.test(receiptUrl)) throw new Error("A receipt URL is one line");
  return `REDIRECT=${receiptUrl}`;
}

/** The terminal errors (IPAY…) that mean these credentials are refused, not that a payment failed. */
const CREDENTIAL_ERRORS = [
  "IPAY0100005",
  "IPAY0100006",
  "IPAY0100008",
  "IPAY0100012",
  "IPAY0100014",
  "IPAY0100015",
  "IPAY0100018",
];

function errorOf(answer: KnetParams): { code: string; text: string } | null {
  const result = answer.result ?? "";
  const fromResult = result.startsWith("!ERROR!") ? result.slice(7).replace(/^-/, "") : "";
  const text = answer.error_text || answer.ErrorText || fromResult || "";
  const code = answer.error_code_tag || answer.Error || /IPAY\d{7}/.exec(text)?.[0] || "";
  return code || text ? { code, text: text || code } : null;
}

/** A raw tranPipe call (inquiry or refund): XML both ways. Transport failures and unreadable answers throw. */
async function callTranPipe(config: GatewayConfig, fields: KnetParams): Promise<KnetParams> {
  const { tranportalId, password } = credentialsOf(config);
  const url = new URL(kpgUrl(config.endpoints.server, "tranPipe.htm"));
  url.searchParams.set("param", "tranInit");
  const response = await guardedFetch(
    url.href,
    {
      method: "POST",
      headers: { "Content-Type": "application/xml", Accept: "application/xml, text/xml" },
      body: buildTranPipeXml({ id: tranportalId, password, ...fields }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    },
    gatewayTargetsGuarded(),
  );
  const text = await readBounded(response);
  if (!response.ok) throw new Error(`KNET tranPipe failed: HTTP ${response.status}`);
  const answer = readTranPipeXml(text);
  if (!answer.result && !errorOf(answer)) throw new Error("KNET tranPipe answered neither a result nor an error");
  const error = errorOf(answer);
  if (error && CREDENTIAL_ERRORS.includes(error.code))
    throw new Error(`KNET refused the terminal: ${error.code} ${error.text.slice(0, 120)}`);
  return answer;
}

/** At most KNET_XML_MAX_CHARS of an answer are read; a longer one throws. */
async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get("Content-Length") ?? "0");
  if (declared > KNET_XML_MAX_CHARS * 4) {
    await response.body?.cancel();
    throw new Error("KNET's answer is too large");
  }
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > KNET_XML_MAX_CHARS * 4) {
      await reader.cancel();
      throw new Error("KNET's answer is too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function inquiryFields(by: { kind: KnetTransIdKind; transId: string; trackId: string }, amount: string): KnetParams {
  return { action: KNET_ACTIONS.inquiry, amt: amount, transid: by.transId, trackid: by.trackId, udf5: by.kind };
}

/**
 * responseURL: KNET's server posts the result (URL-encoded `trandata`, or `ErrorText`/`Error`) and
 * reads the answer, which is one line `REDIRECT=<receipt URL>` and nothing else: HTML, an HTTP
 * redirect or an error makes KNET void the payment (manual K-064 §5, §9.2.1). A result we cannot
 * match is refused in plain text, and KNET voids it rather than take money we cannot place.
 */
const responseLeg: GatewayLeg = {
  from: "gateway",
  methods: ["POST"],
  read(config, attempt, message) {
    const form = new URLSearchParams(message.body);
    if (!form.has("trandata") && (form.get("ErrorText") || form.get("Error"))) return { kind: "acknowledge" };
    const verified = verifyKnetResponse(config, form, {
      trackId: attempt.trackId,
      total: attempt.total,
      currency: attempt.currency,
    });
    const evidence =
      verified.encrypted !== undefined && verified.plain !== undefined
        ? { received: verified.encrypted, plain: verified.plain }
        : undefined;
    if (!verified.ok) return { kind: "refuse", reason: verified.reason, evidence };
    return { kind: "result", outcome: verified.outcome, trackId: attempt.trackId, evidence };
  },
  answer(handled: LegHandled) {
    return { format: "text", body: handled.accepted ? knetRedirectLine(handled.resultPageUrl) : handled.reason };
  },
};

/** errorURL: KNET sends the customer's browser here when it could not process the payment or voided it. */
const errorLeg: GatewayLeg = { from: "browser", methods: ["GET", "POST"], read: () => ({ kind: "ask" }) };

export const knetAdapter: GatewayAdapter = {
  legs: { response: responseLeg, error: errorLeg },
  async start(config, attempt: AttemptForGateway, urls) {
    requireKwd(attempt.currency);
    const { tranportalId, password, resourceKey } = credentialsOf(config);
    const trandata = encryptTrandata(
      buildInitParams({
        id: tranportalId,
        password,
        action: KNET_ACTIONS.purchase,
        langid: attempt.lang === "ar" ? "AR" : "EN",
        currencycode: KNET_CURRENCY_KWD,
        amt: toDecimalString(attempt.total, "KWD"),
        responseURL: urls.response,
        errorURL: urls.error,
        trackid: attempt.trackId,
        udf1: attempt.id,
      }),
      resourceKey,
    );
    const url = new URL(kpgUrl(config.endpoints.browser, "PaymentHTTP.htm"));
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
    try {
      credentialsOf(config);
    } catch {
      return { ok: false, detail: "The tranportal id, password or 16-character resource key is missing" };
    }
    const trackId = `CONNTEST${Date.now()}`;
    try {
      const answer = await callTranPipe(config, inquiryFields({ kind: "TrackID", transId: trackId, trackId }, "0.100"));
      const error = errorOf(answer);
      return {
        ok: true,
        detail: `KNET answered an inquiry for a test track id: ${(answer.result || error?.code || "no result").slice(0, 40)}`,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message.startsWith("KNET refused the terminal")) return { ok: false, detail: message.slice(0, 160) };
      throw error;
    }
  },

  async inquire(config, attempt) {
    requireKwd(attempt.currency);
    const answer = await callTranPipe(
      config,
      inquiryFields(
        { kind: "TrackID", transId: attempt.trackId, trackId: attempt.trackId },
        toDecimalString(attempt.total, "KWD"),
      ),
    );
    // An answer without a result (an IPAY error about this payment) is not a payment: it stays open.
    if (!answer.result || errorOf(answer)) return outcomeOf({ ...answer, result: answer.result ?? "" }, "pending");
    const mismatch = mismatchOf(answer, attempt);
    if (mismatch) throw new Error(`KNET inquiry: ${mismatch}`);
    return outcomeOf(answer, inquiryStatusOf(answer.result));
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
   * inquiry finds the refund later. Only a result of CAPTURED is a refund.
   */
  async refund(config, attempt, amount, reference) {
    if (!Number.isSafeInteger(amount) || amount <= 0)
      return { ok: false, message: "The refund amount must be positive" };
    const amt = toDecimalString(amount, "KWD");
    const original = await callTranPipe(
      config,
      attempt.paymentId
        ? inquiryFields({ kind: "PaymentID", transId: attempt.paymentId, trackId: attempt.trackId }, amt)
        : inquiryFields({ kind: "TrackID", transId: attempt.trackId, trackId: attempt.trackId }, amt),
    );
    const paid = original.result === "CAPTURED" || original.result === "SUCCESS";
    if (!paid || original.trackid !== attempt.trackId || !original.tranid) {
      return {
        ok: false,
        message: `KNET has no captured payment for this attempt (${original.result || errorOf(original)?.code || "no result"})`,
      };
    }
    const answer = await callTranPipe(config, {
      action: KNET_ACTIONS.refund,
      amt,
      transid: original.tranid,
      trackid: reference ?? attempt.trackId,
      udf5: "TransID",
    });
    if (answer.result === "CAPTURED") return { ok: true, reference: answer.tranid || undefined };
    const error = errorOf(answer);
    return { ok: false, message: error?.text || `KNET refused the refund (${answer.result || "no result"})` };
  },

  /** A refund is found by its own track id (our reference); KNET has no capture or void to ask about. */
  async inquireOperation(config, _attempt, operation) {
    if (operation.kind !== "refund") return { status: "not_found" };
    const answer = await callTranPipe(
      config,
      inquiryFields(
        { kind: "TrackID", transId: operation.reference, trackId: operation.reference },
        toDecimalString(operation.amount, "KWD"),
      ),
    );
    if (!answer.result || answer.result === "NOT FOUND" || errorOf(answer)) return { status: "not_found" };
    if (answer.trackid !== operation.reference) throw new Error("KNET inquiry answered for another track id");
    if (answer.result === "CAPTURED" || answer.result === "SUCCESS") {
      const amount = parseAmount(answer.amt ?? "", "KWD");
      if (!amount.ok || amount.minor !== operation.amount)
        throw new Error("KNET inquiry answered a refund of another amount");
      return { status: "succeeded", reference: answer.tranid || undefined };
    }
    return { status: "failed", message: `KNET refund ${answer.result}` };
  },
};
