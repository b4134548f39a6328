/**
 * The KNET sandbox: a stand-in for KNET's payment gateway that speaks its protocol as the
 * Merchant Integration Manual (K-064 v1.4) describes it: encrypted trandata in, a hosted page, the
 * encrypted result posted from its server to responseURL (whose answer must be one
 * `REDIRECT=<url>` line, or the payment is voided and the browser sent to errorURL), and raw XML
 * tranPipe calls for inquiry and refund. It keeps its own books in the sandbox_knet_* tables and
 * shares nothing with the platform.
 */
import { randomInt } from "node:crypto";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import {
  KNET_ACTIONS,
  KNET_CURRENCY_KWD,
  buildTranPipeXml,
  decryptTrandata,
  encryptResult,
  parsePlainParams,
  readTranPipeXml,
  type KnetParams,
} from "~/domain/payments/gateways/knet/knet-protocol";
import { now, nowIso } from "~/lib/clock.server";
import { hmacSha256, randomDigits, safeEqual } from "~/lib/crypto.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import { findKnetTerminal } from "./accounts.server";
import { knetPostDate, knetResultForCard, maskCardNumber } from "./test-cards";
import { isPlatformReturnAddress, platformServerAddress } from "./return-addresses.server";

const UDF_FIELDS = ["udf1", "udf2", "udf3", "udf4", "udf5"] as const;
/** The manual's EN and AR; USA is what older samples send for English. */
const LANGUAGE_IDS = ["EN", "USA", "AR"];
/** How long KNET's server waits for the merchant's answer on responseURL before it voids. */
const RESPONSE_TIMEOUT_MS = 15_000;
const RESPONSE_MAX_BYTES = 4096;

type Terminal = NonNullable<Awaited<ReturnType<typeof findKnetTerminal>>>;

export type KnetInitResult =
  | { ok: true; paymentId: string; pageToken: string }
  | { ok: false; error: "unknown_terminal" | "invalid_trandata" | "invalid_credentials" | "invalid_request" };

/** KNET's payment ids are long digit strings; ours never start with 0. */
function newPaymentId() {
  return `${randomInt(1, 10)}${randomDigits(17)}`;
}

/** The hosted page's address carries this so that knowing a payment id is not enough to pay or cancel it. */
function pageTokenFor(terminal: Terminal, paymentId: string) {
  return hmacSha256(terminal.resource_key, `knet-page:${paymentId}`);
}

async function openTrandata(db: DB, tranportalId: string | null, trandata: string | null) {
  const terminal = tranportalId ? await findKnetTerminal(db, tranportalId) : undefined;
  if (!terminal) return { ok: false as const, error: "unknown_terminal" as const };
  let params: KnetParams;
  try {
    // KNET reads the merchant's string as it is: values are never URL-decoded.
    params = parsePlainParams(decryptTrandata(trandata ?? "", terminal.resource_key));
  } catch {
    return { ok: false as const, error: "invalid_trandata" as const };
  }
  if (params.id !== terminal.tranportal_id || !safeEqual(params.password ?? "", terminal.password)) {
    return { ok: false as const, error: "invalid_credentials" as const };
  }
  return { ok: true as const, terminal, params };
}

/** PaymentHTTP.htm?param=paymentInit: checks the merchant's request and opens a payment on the hosted page. */
export async function initKnetPayment(db: DB, query: URLSearchParams, requestOrigin: string): Promise<KnetInitResult> {
  if (query.get("param") !== "paymentInit") return { ok: false, error: "invalid_request" };
  const opened = await openTrandata(db, query.get("tranportalId"), query.get("trandata"));
  if (!opened.ok) return opened;
  const { terminal, params } = opened;
  const amount = parseAmount(params.amt ?? "", "KWD");
  const valid =
    params.action === KNET_ACTIONS.purchase &&
    params.currencycode === KNET_CURRENCY_KWD &&
    amount.ok &&
    amount.minor > 0 &&
    Boolean(params.trackid) &&
    // The manual: at most 40 characters, letters and digits only.
    /^[0-9A-Za-z]{1,40}$/.test(params.trackid) &&
    // Only the platform's own return routes (decision 0014): KNET sends the browser nowhere else.
    isPlatformReturnAddress(params.responseURL, "knet/response", requestOrigin) &&
    isPlatformReturnAddress(params.errorURL, "knet/error", requestOrigin) &&
    LANGUAGE_IDS.includes(params.langid ?? "");
  if (!valid || !amount.ok) return { ok: false, error: "invalid_request" };

  const paymentId = newPaymentId();
  const udf = Object.fromEntries(UDF_FIELDS.map((field) => [field, params[field] ?? ""]));
  await db
    .insertInto("sandbox_knet_payments")
    .values({
      payment_id: paymentId,
      tranportal_id: terminal.tranportal_id,
      track_id: params.trackid,
      amount: toDecimalString(amount.minor, "KWD"),
      action: params.action,
      lang: params.langid === "AR" ? "AR" : "EN",
      response_url: params.responseURL,
      error_url: params.errorURL,
      udf: JSON.stringify(udf),
      created_at: nowIso(),
    })
    .execute();
  return { ok: true, paymentId, pageToken: pageTokenFor(terminal, paymentId) };
}

async function findPaymentForPage(db: DB, paymentId: string, pageToken: string) {
  if (!/^\d{15,19}$/.test(paymentId)) return undefined;
  const payment = await db
    .selectFrom("sandbox_knet_payments")
    .innerJoin("sandbox_knet_terminals", "sandbox_knet_terminals.tranportal_id", "sandbox_knet_payments.tranportal_id")
    .select([
      "sandbox_knet_payments.payment_id",
      "sandbox_knet_payments.tranportal_id",
      "sandbox_knet_payments.track_id",
      "sandbox_knet_payments.amount",
      "sandbox_knet_payments.lang",
      "sandbox_knet_payments.response_url",
      "sandbox_knet_payments.error_url",
      "sandbox_knet_payments.udf",
      "sandbox_knet_payments.result",
      "sandbox_knet_terminals.resource_key",
      "sandbox_knet_terminals.password",
    ])
    .where("sandbox_knet_payments.payment_id", "=", paymentId)
    .where("sandbox_knet_payments.action", "=", KNET_ACTIONS.purchase)
    .executeTakeFirst();
  if (!payment) return undefined;
  const terminal = {
    tranportal_id: payment.tranportal_id,
    password: payment.password,
    resource_key: payment.resource_key,
  };
  if (!safeEqual(pageToken, pageTokenFor(terminal, paymentId))) return undefined;
  return { ...payment, terminal };
}

export type KnetPaymentPage = {
  paymentId: string;
  trackId: string;
  /** Minor units of KWD. */
  amount: number;
  lang: "en" | "ar";
  processed: boolean;
};

/** What the hosted page shows; undefined for an unknown payment or a wrong page token. */
export async function loadKnetPaymentPage(
  db: DB,
  paymentId: string,
  pageToken: string,
): Promise<KnetPaymentPage | undefined> {
  const payment = await findPaymentForPage(db, paymentId, pageToken);
  if (!payment) return undefined;
  const amount = parseAmount(payment.amount, "KWD");
  return {
    paymentId: payment.payment_id,
    trackId: payment.track_id,
    amount: amount.ok ? amount.minor : 0,
    lang: payment.lang === "AR" ? "ar" : "en",
    processed: payment.result !== null,
  };
}

export type KnetCustomerChoice =
  { kind: "submit"; cardNumber: string; pin: string; expiry?: string } | { kind: "cancel" };

/**
 * Decides a payment once, from the customer's card or cancel, then does what KNET's server does:
 * posts the encrypted result to responseURL and follows the answer. One `REDIRECT=<url>` line sends
 * the browser there; any other answer (HTML, a redirect, an error, more lines, no answer in time)
 * voids a captured payment and sends the browser to errorURL. The card number is kept masked; the
 * PIN is never kept.
 */
export async function completeKnetPayment(
  db: DB,
  input: { paymentId: string; pageToken: string; choice: KnetCustomerChoice; browserOrigin: string },
): Promise<{ ok: true; redirectTo: string } | { ok: false; error: "not_found" | "already_processed" }> {
  const payment = await findPaymentForPage(db, input.paymentId, input.pageToken);
  if (!payment) return { ok: false, error: "not_found" };
  if (payment.result !== null) return { ok: false, error: "already_processed" };
  const returnsTo = (address: string, route: "knet/response" | "knet/error") =>
    isPlatformReturnAddress(address, route, input.browserOrigin);
  const postTo = platformServerAddress(payment.response_url, "knet/response");
  if (!postTo || !returnsTo(payment.error_url, "knet/error")) return { ok: false, error: "not_found" };

  const { choice } = input;
  const result = choice.kind === "cancel" ? "CANCELED" : knetResultForCard(choice.cardNumber, choice.expiry);
  const decided = {
    result,
    tran_id: result === "CANCELED" ? null : randomDigits(16),
    auth_code: result === "CAPTURED" ? randomDigits(6) : null,
    reference_id: result === "CANCELED" ? null : randomDigits(12),
    post_date: knetPostDate(now()),
    card_masked: choice.kind === "submit" ? maskCardNumber(choice.cardNumber) : null,
    completed_at: nowIso(),
  };
  const updated = await db
    .updateTable("sandbox_knet_payments")
    .set(decided)
    .where("payment_id", "=", payment.payment_id)
    .where("result", "is", null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return { ok: false, error: "already_processed" };

  const trandata = encryptResult(resultParams({ ...payment, ...decided }), payment.terminal.resource_key);
  const receiptUrl = await postResult(postTo, trandata);
  if (receiptUrl) return { ok: true, redirectTo: asBrowserSees(receiptUrl, postTo, payment.response_url) };

  // The merchant did not answer as the manual says: KNET reverses the payment (auto-void).
  await db
    .updateTable("sandbox_knet_payments")
    .set({ result: "VOIDED", voided_at: nowIso() })
    .where("payment_id", "=", payment.payment_id)
    .where("result", "=", "CAPTURED")
    .execute();
  const errorUrl = new URL(payment.error_url);
  errorUrl.search = new URLSearchParams({
    paymentid: payment.payment_id,
    trackid: payment.track_id,
    amt: payment.amount,
    Error: "IPAY0100999",
    ErrorText: "The merchant's response URL did not answer REDIRECT=",
  }).toString();
  return { ok: true, redirectTo: errorUrl.toString() };
}

/**
 * A platform reached at its internal address (a demo without BASE_URL) names that address in its
 * answer; the browser knows the platform by the responseURL's origin.
 */
function asBrowserSees(receiptUrl: string, postedTo: string, responseUrl: string) {
  const receipt = new URL(receiptUrl);
  const internal = new URL(postedTo).origin;
  const known = new URL(responseUrl).origin;
  if (internal === known || receipt.origin !== internal) return receiptUrl;
  return `${known}${receipt.pathname}${receipt.search}`;
}

/** KNET's server posting the result, URL-encoded; the receipt URL the answer names, or undefined. */
async function postResult(responseUrl: string, trandata: string): Promise<string | undefined> {
  try {
    const response = await fetch(responseUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ trandata }),
      redirect: "manual",
      signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
    });
    return receiptUrlOf(response.status, await readAtMost(response, RESPONSE_MAX_BYTES));
  } catch {
    return undefined;
  }
}

async function readAtMost(response: Response, maxBytes: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The manual's one acceptable answer (§5, §9.2.1): status 200 and a single line `REDIRECT=<absolute
 * http(s) URL>` (a final line break allowed). Anything else is no answer.
 */
export function receiptUrlOf(status: number, body: string | null): string | undefined {
  if (status !== 200 || body === null) return undefined;
  const line = body.replace(/\r?\n$/, "");
  if (!line.startsWith("REDIRECT=") || /[\r\n]/.test(line)) return undefined;
  const address = line.slice("REDIRECT=".length);
  try {
    const url = new URL(address);
    if (
      (url.protocol !== "https:" && url.protocol !== "http:") ||
      url.username ||
      url.password ||
      address !== address.trim()
    )
      return undefined;
    return url.toString();
  } catch {
    return undefined;
  }
}

type StoredPayment = {
  payment_id: string;
  track_id: string;
  amount: string;
  udf: string;
  result: string | null;
  tran_id: string | null;
  auth_code: string | null;
  reference_id: string | null;
  post_date: string | null;
};

function resultParams(payment: StoredPayment): KnetParams {
  const udf = JSON.parse(payment.udf) as Record<string, string>;
  // The manual's order (§5); a payment the customer has not finished yet is the sandbox's own PENDING.
  return {
    paymentid: payment.payment_id,
    result: payment.result ?? "PENDING",
    auth: payment.auth_code ?? "",
    avr: "N",
    ref: payment.reference_id ?? "",
    tranid: payment.tran_id ?? "",
    postdate: payment.post_date ?? "",
    trackid: payment.track_id,
    ...Object.fromEntries(UDF_FIELDS.map((field) => [field, udf[field] ?? ""])),
    amt: payment.amount,
    ...(payment.result === "CAPTURED" || payment.result === "NOT CAPTURED"
      ? { authRespCode: payment.result === "CAPTURED" ? "00" : "05" }
      : {}),
  };
}

/** KNET's terminal errors, as tranPipe answers them. */
const TRANPIPE_ERRORS = {
  unreadable: ["IPAY0100013", "Invalid transaction data"],
  unknown_terminal: ["IPAY0100006", "Invalid tranportal ID"],
  invalid_credentials: ["IPAY0100015", "Invalid tranportal password"],
  wrong_action: ["IPAY0100020", "Invalid action type"],
} as const;

function tranPipeError(kind: keyof typeof TRANPIPE_ERRORS): string {
  const [code, text] = TRANPIPE_ERRORS[kind];
  return buildTranPipeXml({ result: `!ERROR!-${code}-${text}`, error_code_tag: code, error_text: text });
}

/**
 * tranPipe.htm?param=tranInit: the raw server-to-server calls, inquiry (action 8) and refund
 * (action 2), XML in and XML out. Only a caller with the terminal's id and password gets an answer
 * about its payments; a refusal is KNET's IPAY error, in XML too.
 */
export async function answerKnetTranPipe(db: DB, xml: string): Promise<string> {
  let params: KnetParams;
  try {
    params = readTranPipeXml(xml);
  } catch {
    return tranPipeError("unreadable");
  }
  const terminal = params.id ? await findKnetTerminal(db, params.id) : undefined;
  if (!terminal) return tranPipeError("unknown_terminal");
  if (!safeEqual(params.password ?? "", terminal.password)) return tranPipeError("invalid_credentials");
  if (params.action === KNET_ACTIONS.inquiry) return answerXml(await inquire(db, terminal, params));
  if (params.action === KNET_ACTIONS.refund) return answerXml(await refund(db, terminal, params));
  return tranPipeError("wrong_action");
}

/** KNET's answer elements, in the order of the manual's example. */
function answerXml(answer: KnetParams): string {
  const { paymentid, ...rest } = answer;
  const order = [
    "result",
    "payid",
    "trackid",
    "udf1",
    "udf2",
    "udf3",
    "udf4",
    "udf5",
    "ref",
    "auth",
    "postdate",
    "tranid",
    "amt",
    "ErrorText",
  ];
  const fields: KnetParams = { ...rest, payid: paymentid ?? "" };
  return buildTranPipeXml(
    Object.fromEntries(order.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]!])),
  );
}

/** Which stored column an inquiry's or refund's `transid` is matched with, by its `udf5`. */
function transIdColumn(udf5: string | undefined) {
  if (udf5 === "TrackID") return "track_id" as const;
  if (udf5 === "PaymentID") return "payment_id" as const;
  if (udf5 === "SeqNum" || udf5 === "RefID") return "reference_id" as const;
  return "tran_id" as const;
}

const STORED_COLUMNS = [
  "payment_id",
  "track_id",
  "amount",
  "udf",
  "result",
  "tran_id",
  "auth_code",
  "reference_id",
  "post_date",
  "created_at",
] as const;

async function inquire(db: DB, terminal: Terminal, params: KnetParams): Promise<KnetParams> {
  const column = transIdColumn(params.udf5);
  const key = params.transid;
  if (!key) return { result: "NOT FOUND", trackid: params.trackid ?? "", amt: params.amt ?? "" };
  const candidates = await db
    .selectFrom("sandbox_knet_payments")
    .select([...STORED_COLUMNS, "action"])
    .where("tranportal_id", "=", terminal.tranportal_id)
    .where(column, "=", key)
    .execute();
  const purchases = candidates.filter((payment) => payment.action === KNET_ACTIONS.purchase);
  // A track id opened twice (a reloaded redirect) answers with its captured payment when there is one.
  const chosen =
    purchases.find((payment) => payment.result === "CAPTURED") ??
    purchases.sort((a, b) => b.created_at.localeCompare(a.created_at))[0] ??
    // A refund sent with a track id of its own is found by it.
    candidates.find((payment) => payment.action === KNET_ACTIONS.refund && payment.track_id === key);
  if (!chosen) return { result: "NOT FOUND", trackid: params.trackid ?? "", amt: params.amt ?? "" };
  return resultParams(chosen);
}

async function refund(db: DB, terminal: Terminal, params: KnetParams): Promise<KnetParams> {
  const refused = (reason: string): KnetParams => ({
    result: "NOT CAPTURED",
    trackid: params.trackid ?? "",
    amt: params.amt ?? "",
    ErrorText: reason,
  });
  const amount = parseAmount(params.amt ?? "", "KWD");
  if (!amount.ok || amount.minor <= 0) return refused("Invalid refund amount");
  if (!params.transid) return refused("transid is required");

  return writeTransaction(db, async (trx) => {
    let originalQuery = trx
      .selectFrom("sandbox_knet_payments")
      .select(["payment_id", "track_id", "amount", "lang", "tran_id"])
      .where("tranportal_id", "=", terminal.tranportal_id)
      .where("action", "=", KNET_ACTIONS.purchase)
      .where("result", "=", "CAPTURED")
      .where(transIdColumn(params.udf5), "=", params.transid);
    if (engineOf(trx) === "postgres") originalQuery = originalQuery.forUpdate();
    const original = await originalQuery.executeTakeFirst();
    if (!original) return refused("No captured payment with this transid");

    // A refund with a track id of its own (not the payment's) is done once: sent again, it answers the first refund.
    const ownTrackId = params.trackid && params.trackid !== original.track_id ? params.trackid : null;
    if (ownTrackId) {
      const done = await trx
        .selectFrom("sandbox_knet_payments")
        .select(STORED_COLUMNS)
        .where("tranportal_id", "=", terminal.tranportal_id)
        .where("track_id", "=", ownTrackId)
        .where("action", "=", KNET_ACTIONS.refund)
        .executeTakeFirst();
      if (done) return resultParams(done);
    }

    // Refunds keep their payment's tranid (in udf), however the request named the payment.
    const originalTranId = original.tran_id ?? "";
    const earlier = await trx
      .selectFrom("sandbox_knet_payments")
      .select(["amount", "udf"])
      .where("tranportal_id", "=", terminal.tranportal_id)
      .where("action", "=", KNET_ACTIONS.refund)
      .where("result", "=", "CAPTURED")
      .where("udf", "like", `%"transid":"${originalTranId.replace(/[^0-9A-Za-z]/g, "")}"%`)
      .execute();
    const refunded = earlier
      .filter((row) => (JSON.parse(row.udf) as { transid?: string }).transid === originalTranId)
      .reduce((sum, row) => sum + minorOf(row.amount), 0);
    if (refunded + amount.minor > minorOf(original.amount)) return refused("Refund exceeds the captured amount");

    const created = nowIso();
    const record = {
      payment_id: newPaymentId(),
      track_id: ownTrackId ?? original.track_id,
      amount: toDecimalString(amount.minor, "KWD"),
      udf: JSON.stringify({ transid: originalTranId }),
      result: "CAPTURED",
      tran_id: randomDigits(16),
      auth_code: null,
      reference_id: randomDigits(12),
      post_date: knetPostDate(now()),
    };
    await trx
      .insertInto("sandbox_knet_payments")
      .values({
        ...record,
        tranportal_id: terminal.tranportal_id,
        action: KNET_ACTIONS.refund,
        lang: original.lang,
        response_url: "",
        error_url: "",
        created_at: created,
        completed_at: created,
      })
      .execute();
    return { ...resultParams(record), trackid: params.trackid || original.track_id };
  });
}

function minorOf(decimal: string): number {
  const parsed = parseAmount(decimal, "KWD");
  if (!parsed.ok) throw new Error(`Stored KNET amount is not a KWD amount: ${decimal}`);
  return parsed.minor;
}
