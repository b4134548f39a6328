/**
 * The KNET sandbox: a stand-in for KNET's payment gateway that speaks its protocol (encrypted
 * trandata both ways, a hosted page, a server-to-server inquiry and refund). It keeps its own
 * books in the sandbox_knet_* tables and shares nothing with the platform.
 */
import { randomInt } from "node:crypto";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { KNET_ACTIONS, KNET_CURRENCY_KWD, decryptParams, encryptParams, type KnetParams } from "~/domain/payments/gateways/knet-protocol";
import { now, nowIso } from "~/lib/clock.server";
import { hmacSha256, randomDigits, safeEqual } from "~/lib/crypto.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import { findKnetTerminal } from "./accounts.server";
import { knetPostDate, knetResultForCard, maskCardNumber } from "./test-cards";
import { isPlatformReturnAddress } from "./return-addresses.server";

const UDF_FIELDS = ["udf1", "udf2", "udf3", "udf4", "udf5"] as const;
const LANGUAGE_IDS = ["USA", "AR"];

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
    params = decryptParams(trandata ?? "", terminal.resource_key);
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
    params.trackid.length <= 255 &&
    // Only the platform's own return routes (decision 0014): KNET sends the browser nowhere else.
    isPlatformReturnAddress(params.responseURL, "knet/response", requestOrigin) &&
    isPlatformReturnAddress(params.errorURL, "knet/error", requestOrigin) &&
    LANGUAGE_IDS.includes(params.langid ?? "USA");
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
      lang: params.langid ?? "USA",
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
  const terminal = { tranportal_id: payment.tranportal_id, password: payment.password, resource_key: payment.resource_key };
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
export async function loadKnetPaymentPage(db: DB, paymentId: string, pageToken: string): Promise<KnetPaymentPage | undefined> {
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

export type KnetCustomerChoice = { kind: "submit"; cardNumber: string; pin: string } | { kind: "cancel" };

/**
 * Decides a payment once, from the customer's card or cancel, and answers where KNET sends the
 * browser: responseURL (errorURL when canceled) with the encrypted result. The card number is
 * kept masked; the PIN is never kept.
 */
export async function completeKnetPayment(
  db: DB,
  input: { paymentId: string; pageToken: string; choice: KnetCustomerChoice; browserOrigin: string },
): Promise<{ ok: true; redirectTo: string } | { ok: false; error: "not_found" | "already_processed" }> {
  const payment = await findPaymentForPage(db, input.paymentId, input.pageToken);
  if (!payment) return { ok: false, error: "not_found" };
  if (payment.result !== null) return { ok: false, error: "already_processed" };
  const returnsTo = (address: string, route: "knet/response" | "knet/error") => isPlatformReturnAddress(address, route, input.browserOrigin);
  if (!returnsTo(payment.response_url, "knet/response") || !returnsTo(payment.error_url, "knet/error")) return { ok: false, error: "not_found" };

  const { choice } = input;
  const result = choice.kind === "cancel" ? "CANCELED" : knetResultForCard(choice.cardNumber);
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

  const trandata = encryptParams(
    resultParams({ ...payment, ...decided }),
    payment.terminal.resource_key,
  );
  const target = new URL(result === "CANCELED" ? payment.error_url : payment.response_url);
  target.searchParams.set("trandata", trandata);
  target.searchParams.set("tranportalId", payment.tranportal_id);
  return { ok: true, redirectTo: target.toString() };
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
  return {
    paymentid: payment.payment_id,
    // A payment the customer has not finished yet: our sandbox's own answer, where KNET's varies.
    result: payment.result ?? "PENDING",
    postdate: payment.post_date ?? "",
    tranid: payment.tran_id ?? "",
    auth: payment.auth_code ?? "",
    ref: payment.reference_id ?? "",
    trackid: payment.track_id,
    amt: payment.amount,
    ...Object.fromEntries(UDF_FIELDS.map((field) => [field, udf[field] ?? ""])),
  };
}

/** The encrypted answer, or why there is none (the endpoint says it in the gateway's words). */
export type KnetServerAnswer = { ok: true; trandata: string } | { ok: false; code: "unknown_terminal" | "invalid_credentials" | "invalid_trandata" | "wrong_action" };

/**
 * tranPipe's server-to-server calls: inquiry (action 8) and refund (action 2). Both answer
 * encrypted trandata; only a caller with the terminal's password and key gets an answer.
 */
export async function answerKnetServerRequest(
  db: DB,
  form: { tranportalId: string | null; trandata: string | null },
  expectedAction: typeof KNET_ACTIONS.inquiry | typeof KNET_ACTIONS.refund,
): Promise<KnetServerAnswer> {
  const opened = await openTrandata(db, form.tranportalId, form.trandata);
  if (!opened.ok) return { ok: false, code: opened.error };
  const { terminal, params } = opened;
  if (params.action !== expectedAction) return { ok: false, code: "wrong_action" };
  const answer = expectedAction === KNET_ACTIONS.inquiry ? await inquire(db, terminal, params) : await refund(db, terminal, params);
  return { ok: true, trandata: encryptParams(answer, terminal.resource_key) };
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
  const byPaymentId = params.udf5 === "PaymentID";
  const key = byPaymentId ? params.transid : (params.trackid || params.transid);
  if (!key) return { result: "NOT FOUND", trackid: "", amt: params.amt ?? "" };
  const candidates = await db
    .selectFrom("sandbox_knet_payments")
    .select([...STORED_COLUMNS, "action"])
    .where("tranportal_id", "=", terminal.tranportal_id)
    .where(byPaymentId ? "payment_id" : "track_id", "=", key)
    .execute();
  const purchases = candidates.filter((payment) => payment.action === KNET_ACTIONS.purchase);
  // A track id opened twice (a reloaded redirect) answers with its captured payment when there is one.
  const chosen =
    purchases.find((payment) => payment.result === "CAPTURED") ??
    purchases.sort((a, b) => b.created_at.localeCompare(a.created_at))[0] ??
    // A refund sent with a track id of its own is found by it.
    candidates.find((payment) => payment.action === KNET_ACTIONS.refund && payment.track_id === key);
  if (!chosen) return { result: "NOT FOUND", trackid: byPaymentId ? "" : key, amt: params.amt ?? "" };
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
      .select(["payment_id", "track_id", "amount", "lang"])
      .where("tranportal_id", "=", terminal.tranportal_id)
      .where("action", "=", KNET_ACTIONS.purchase)
      .where("result", "=", "CAPTURED")
      .where("tran_id", "=", params.transid);
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

    // Refunds name their payment by its tranid (kept in udf), whatever track id they carry.
    const earlier = await trx
      .selectFrom("sandbox_knet_payments")
      .select(["amount", "udf"])
      .where("tranportal_id", "=", terminal.tranportal_id)
      .where("action", "=", KNET_ACTIONS.refund)
      .where("result", "=", "CAPTURED")
      .where("udf", "like", `%"transid":"${params.transid.replace(/[^0-9A-Za-z]/g, "")}"%`)
      .execute();
    const refunded = earlier
      .filter((row) => (JSON.parse(row.udf) as { transid?: string }).transid === params.transid)
      .reduce((sum, row) => sum + minorOf(row.amount), 0);
    if (refunded + amount.minor > minorOf(original.amount)) return refused("Refund exceeds the captured amount");

    const created = nowIso();
    const record = {
      payment_id: newPaymentId(),
      track_id: ownTrackId ?? original.track_id,
      amount: toDecimalString(amount.minor, "KWD"),
      udf: JSON.stringify({ transid: params.transid }),
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
