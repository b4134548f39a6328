import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { AttemptState, TransactionState } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { now, nowIso } from "~/lib/clock.server";
import { env } from "~/lib/env.server";
import { errorField, log } from "~/lib/log.server";
import { paymentsCompleted, paymentsStarted } from "~/lib/metrics.server";
import type { Language } from "~/lib/i18n";
import { sha256 } from "~/lib/crypto.server";
import { newTrackId, publicId } from "~/lib/ids.server";
import { parseAmount, priceWithFee } from "~/lib/money";
import { money, word, type TextParams } from "~/lib/outcome";
import { keepCheckoutAnswers, type CheckoutAnswers } from "./checkout-fields.server";
import {
  feeRuleOf,
  findMerchantGateway,
  type GatewayRow,
  gatewayNameParam,
  supportsCurrency,
  isReachable,
  toGatewayConfig,
} from "./gateway-settings.server";
import type {
  GatewayConfig,
  GatewayLeg,
  GatewayMessage,
  GatewayOutcome,
  LegHandled,
  StartedAttempt,
  StartResult,
} from "./gateways/gateway";
import { adapterFor, GATEWAY_KINDS, gatewayLeg, isGatewayKind } from "./gateways/registry";
import { chosenAmount, expireTransaction, findPublicTransaction, isExpired } from "./pay-page.server";
import { bumpTotals } from "./running-totals.server";
import { allowsTransition, PAYABLE_STATES } from "./states";
import { returnPayment } from "./returns.server";
import { recordAttemptStatistics, recordDeletedStatistics } from "./statistics-rollup.server";
import { transitionTransaction } from "./transaction-state.server";

export type PlatformAddresses = {
  /** Where browsers reach the platform (BASE_URL, else the request's own address). */
  publicBaseUrl: string;
  /** Where the platform reaches itself (its own sandboxes). */
  internalBaseUrl: string;
  /**
   * Where a gateway's server sends its notifications: from the configuration alone (BASE_URL, else
   * the internal address), never a request's Host header, which the payer writes and which would
   * send the gateway's notification secret to a host of their choosing. Absent: the internal address.
   */
  configuredBaseUrl?: string;
};

const attemptColumns = [
  "id",
  "transaction_id",
  "merchant_id",
  "gateway_code",
  "gateway_kind",
  "state",
  "amount",
  "fee",
  "total",
  "fee_payer",
  "currency_code",
  "track_id",
  "lang",
  "gateway_reference",
  "redirect_url",
  "payment_id",
  "tran_id",
  "auth_code",
  "reference_id",
  "post_date",
  "result_code",
  "card_masked",
  "return_secret",
  "authentication_status",
  "authorized_only",
  "created_at",
  "completed_at",
] as const;

export async function findAttempt(db: DB, id: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(id)) return undefined;
  return db.selectFrom("payment_attempts").select(attemptColumns).where("id", "=", id).executeTakeFirst();
}

export type Attempt = NonNullable<Awaited<ReturnType<typeof findAttempt>>>;

export function gatewayAttempt(attempt: Attempt): StartedAttempt {
  return {
    id: attempt.id,
    trackId: attempt.track_id,
    total: attempt.total,
    currency: attempt.currency_code,
    lang: attempt.lang === "ar" ? "ar" : "en",
    gatewayReference: attempt.gateway_reference,
    returnSecret: attempt.return_secret,
  };
}

/**
 * The attempt's addresses on this platform. The browser's (and KNET's responseURL, which leads the
 * browser on) are where the payer reached us; the notification address comes from the configuration
 * only (`configuredBaseUrl`): a live gateway needs BASE_URL to reach it, and the platform's own
 * sandboxes reach it at the internal address (return-addresses.server.ts).
 */
export function platformUrls(addresses: PlatformAddresses, attemptId: string, kind: string) {
  const base = `${addresses.publicBaseUrl}/gateway/${kind}`;
  return {
    response: `${base}/response/${attemptId}`,
    error: `${base}/error/${attemptId}`,
    notify: `${addresses.configuredBaseUrl ?? addresses.internalBaseUrl}/gateway/${kind}/notify/${attemptId}`,
  };
}

export type StartOutcome =
  | { ok: true; redirectUrl: string; attemptId: string }
  | {
      ok: false;
      error: string;
      field?: "amount" | "gateway_code";
      params?: TextParams;
    };

type AttemptInput = {
  transactionId: string;
  gatewayCode: string;
  amountText?: string | null;
  submissionToken: string;
  lang: Language;
  addresses: PlatformAddresses;
  /** The sections whose transactions customers pay on the pay page. */
  plugins: readonly string[];
  /** The customer's checked answers to the checkout fields, kept with the attempt (see checkCheckoutValues). */
  answers?: CheckoutAnswers | null;
};

type StartRefusal = Extract<StartOutcome, { ok: false }>;

/**
 * Pay Now: creates one attempt per submitted form (a double submit finds the first) and asks the
 * gateway where to send the customer. Cash on delivery completes at once.
 */
export async function startAttempt(db: DB, input: AttemptInput): Promise<StartOutcome> {
  const opened = await openAttempt(db, input);
  if (!opened.ok) return opened;
  if (opened.kind === "submitted") return resumeStartedAttempt(db, opened.attempt);
  const { attempt, gateway, merchant, description } = opened;
  const attemptId = attempt.id;
  const config = toGatewayConfig(gateway, input.addresses);
  let started: StartResult;
  try {
    started = await adapterFor(gateway.kind).start(
      config,
      { ...gatewayAttempt(attempt), merchant, description },
      platformUrls(input.addresses, attemptId, gateway.kind),
    );
  } catch (error) {
    await completeAttempt(db, attemptId, {
      status: "error",
      refs: { resultCode: "START_FAILED" },
    });
    log.warn({ attempt_id: attemptId, gateway: gateway.kind, error: errorField(error) }, "gateway start failed");
    return { ok: false, error: "pay.errors.gateway_unavailable" };
  }
  paymentsStarted.inc({ gateway: gateway.kind });
  const resultUrl = `/${input.lang}/pay/attempt-detail/${attemptId}`;
  if (started.kind !== "redirect") {
    await completeAttempt(db, attemptId, { status: "success", refs: {} }, { cod: true });
    return { ok: true, redirectUrl: resultUrl, attemptId };
  }
  await db
    .updateTable("payment_attempts")
    .set({
      gateway_reference: started.gatewayReference ?? null,
      return_secret: started.returnSecret ?? null,
      redirect_url: started.url,
    })
    .where("id", "=", attemptId)
    .execute();
  return { ok: true, redirectUrl: started.url, attemptId };
}

/**
 * The checks every way of paying makes, then the attempt's row: the transaction payable, the method
 * one the pay page offers (and `accepts`), the amount within its bounds. A submission token already
 * used for this transaction finds its attempt instead.
 */
export async function openAttempt(
  db: DB,
  input: AttemptInput,
  options: {
    accepts?: (gateway: GatewayRow) => boolean;
    /** The total, fee included, the customer approved (a decimal string): another one is refused. */
    expectedTotal?: string;
  } = {},
): Promise<
  | StartRefusal
  | { ok: true; kind: "submitted"; attempt: Attempt }
  | {
      ok: true;
      kind: "opened";
      attempt: Attempt;
      gateway: GatewayRow;
      merchant: { name: string; logoUrl: string | null };
      description?: string;
    }
> {
  const transaction = await findPublicTransaction(db, input.transactionId, input.plugins);
  if (!transaction) return { ok: false, error: "pay.errors.not_found" };
  // A repeated submit of the same form goes where the first one went, whatever happened since.
  const token = input.submissionToken.slice(0, 64) || publicId();
  const existing = await findSubmittedAttempt(db, transaction.id, token);
  if (existing) return { ok: true, kind: "submitted", attempt: existing };
  const merchant = await db
    .selectFrom("merchants")
    .select(["is_active", "name", "logo_url"])
    .where("id", "=", transaction.merchant_id)
    .executeTakeFirstOrThrow();
  if (!merchant.is_active) return { ok: false, error: "pay.paused" };
  if (!PAYABLE_STATES.includes(transaction.state)) {
    return {
      ok: false,
      error: transaction.state === "expired" ? "pay.errors.expired_retry" : "pay.errors.not_payable",
    };
  }
  if (isExpired(transaction)) {
    await expireTransaction(db, transaction.id);
    return { ok: false, error: "pay.errors.expired_retry" };
  }
  const delivery = await db
    .selectFrom("transactions")
    .select(["delivery_mode", "delivery_confirmed_at"])
    .where("id", "=", transaction.id)
    .executeTakeFirstOrThrow();
  if (delivery.delivery_mode !== "none" && !delivery.delivery_confirmed_at)
    return { ok: false, error: "pay.errors.delivery_required" };
  if (!transaction.pg_codes.split(",").includes(input.gatewayCode)) {
    return {
      ok: false,
      error: "pay.errors.choose_gateway",
      field: "gateway_code",
    };
  }
  const gateway = await findMerchantGateway(db, transaction.merchant_id, input.gatewayCode);
  // Only a method the pay page offers: one of the link's, enabled, reachable, taking its currency.
  if (!gateway || !gateway.enabled || !isReachable(gateway) || !supportsCurrency(gateway, transaction.currency_code)) {
    return {
      ok: false,
      error: "pay.errors.choose_gateway",
      field: "gateway_code",
    };
  }
  const amount = chosenAmount(transaction, input.amountText);
  if (!amount.ok)
    return {
      ok: false,
      error: amount.error,
      field: "amount",
      params: amount.params,
    };

  if (options.accepts && !options.accepts(gateway)) {
    return {
      ok: false,
      error: "pay.errors.choose_gateway",
      field: "gateway_code",
    };
  }
  const price = priceWithFee(amount.amount, feeRuleOf(gateway), gateway.fee_payer);
  // What the customer approved (a wallet's payment sheet) must be what is charged.
  const approved =
    options.expectedTotal === undefined ? null : parseAmount(options.expectedTotal, transaction.currency_code);
  if (approved && !(approved.ok && approved.minor === price.gross))
    return { ok: false, error: "pay.errors.wallet_total_changed", field: "amount" };
  const attemptId = publicId();
  const createdAt = nowIso();
  try {
    await writeTransaction(db, async (trx) => {
      await trx
        .insertInto("payment_attempts")
        .values({
          id: attemptId,
          transaction_id: transaction.id,
          merchant_id: transaction.merchant_id,
          gateway_code: gateway.code,
          gateway_kind: gateway.kind,
          state: "pending",
          amount: amount.amount,
          fee: price.fee,
          total: price.gross,
          fee_payer: gateway.fee_payer,
          currency_code: transaction.currency_code,
          track_id: newTrackId(),
          submission_token: token,
          lang: input.lang,
          gateway_reference: null,
          redirect_url: null,
          payment_id: null,
          tran_id: null,
          auth_code: null,
          reference_id: null,
          post_date: null,
          result_code: null,
          authorized_only: 0,
          created_at: createdAt,
          completed_at: null,
          next_inquiry_at: firstInquiryAt({ gateway_kind: gateway.kind, created_at: createdAt }, createdAt),
        })
        .execute();
      // Read again after the attempt's row holds the transaction (its foreign key's lock on
      // Postgres, the one writer on SQLite): a checkout's hold may have ended since the page read
      // it (unpaid-holds.server.ts), and an attempt is never started on what is no longer payable.
      const current = await trx
        .selectFrom("transactions")
        .select("state")
        .where("id", "=", transaction.id)
        .executeTakeFirstOrThrow();
      if (!PAYABLE_STATES.includes(current.state)) throw new NoLongerPayable();
      // What the customer answered stands with the payment it was given for, never with a refused one.
      if (input.answers) await keepCheckoutAnswers(trx, transaction.id, input.answers);
    });
  } catch (error) {
    if (error instanceof NoLongerPayable) return { ok: false, error: "pay.errors.expired_retry" };
    // Two submits of the same form raced: the other one made the attempt.
    const winner = await findSubmittedAttempt(db, transaction.id, token);
    if (winner) return { ok: true, kind: "submitted", attempt: winner };
    throw error;
  }
  return {
    ok: true,
    kind: "opened",
    attempt: (await findAttempt(db, attemptId))!,
    gateway,
    merchant: { name: merchant.name, logoUrl: merchant.logo_url },
    description: transaction.order_no === null ? undefined : String(transaction.order_no),
  };
}

/** Thrown inside the attempt's write when its transaction stopped being payable meanwhile. */
class NoLongerPayable extends Error {
  constructor() {
    super("no longer payable");
  }
}

function findSubmittedAttempt(db: DB, transactionId: string, submissionToken: string) {
  return db
    .selectFrom("payment_attempts")
    .select(attemptColumns)
    .where("transaction_id", "=", transactionId)
    .where("submission_token", "=", submissionToken)
    .executeTakeFirst();
}

/** Longer than any gateway's start may take (its calls give up after 10 s): an attempt still without a gateway page by then never gets one. */
const START_ABANDONED_MS = 20_000;

/**
 * Where a repeated submit goes: where the first went, once the gateway has answered it (a few
 * seconds at most). If the process that started it died before the gateway gave a page, the
 * attempt can never be paid: it ends as an error (NOT_STARTED) and the customer sees the result
 * page, which lets them pay again, instead of waiting on a page that will not come.
 */
async function resumeStartedAttempt(db: DB, first: Attempt): Promise<StartOutcome> {
  let attempt = first;
  for (let wait = 0; attempt.state === "pending" && !attempt.redirect_url && wait < 25; wait++) {
    if (now().getTime() - Date.parse(attempt.created_at) > START_ABANDONED_MS) {
      await completeAttempt(db, attempt.id, {
        status: "error",
        refs: { resultCode: "NOT_STARTED" },
      });
      attempt = (await findAttempt(db, attempt.id)) ?? attempt;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    attempt = (await findAttempt(db, attempt.id)) ?? attempt;
  }
  const resultUrl = `/${attempt.lang}/pay/attempt-detail/${attempt.id}`;
  if (attempt.state === "pending" && attempt.redirect_url)
    return {
      ok: true,
      redirectUrl: attempt.redirect_url,
      attemptId: attempt.id,
    };
  return { ok: true, redirectUrl: resultUrl, attemptId: attempt.id };
}

const attemptStateFor: Record<GatewayOutcome["status"], AttemptState | null> = {
  success: "success",
  authorized: "success",
  failed: "failed",
  canceled: "canceled",
  error: "error",
  pending: null,
};

/** When the reconciler first asks about an attempt not (yet) paid, within its gateway's session lifetime; null: never. */
export function firstInquiryAt(attempt: { gateway_kind: string; created_at: string }, from: string): string | null {
  const minutes = isGatewayKind(attempt.gateway_kind) ? GATEWAY_KINDS[attempt.gateway_kind].sessionMinutes : undefined;
  if (!minutes) return null;
  const first = Date.parse(from) + reconcilerGraceMs();
  return first <= Date.parse(attempt.created_at) + minutes * 60_000 ? new Date(first).toISOString() : null;
}

/** How long the reconciler leaves an attempt to its customer and its gateway before asking (RECONCILER_GRACE_SECONDS). */
export function reconcilerGraceMs() {
  return env().RECONCILER_GRACE_SECONDS * 1000;
}

/** An attempt's earlier outcome that a verified capture still overrides: the gateway took the money after all. */
const OVERRIDDEN_BY_CAPTURE: readonly AttemptState[] = ["failed", "canceled", "error"];

/**
 * The one place an attempt's outcome is written. Exactly once: whichever of the browser return,
 * the gateway's notification, the inquiry and the reconciler gets here first changes the state,
 * writes the ledger entry and queues the receipt; the others find the attempt settled and change
 * nothing. A verified capture is a fact and wins over an earlier cancel, failure or error of the
 * same attempt (two tabs of the gateway's page): it is recorded whatever the transaction's state,
 * paying it when it still may be paid (after a cancel or a delete too, flagged), and given back by
 * itself as a duplicate when something else paid it first (returns.server.ts).
 */
export async function completeAttempt(
  db: DB,
  attemptId: string,
  outcome: GatewayOutcome,
  options: { cod?: boolean } = {},
) {
  const completed = await completeOnce(db, attemptId, outcome, options);
  // Counted once committed: a rolled-back completion did not happen.
  if (completed.changed) paymentsCompleted.inc({ gateway: completed.gateway, result: completed.state });
  return completed;
}

async function completeOnce(db: DB, attemptId: string, outcome: GatewayOutcome, options: { cod?: boolean }) {
  const next = options.cod ? "cod" : attemptStateFor[outcome.status];
  if (!next) return { changed: false as const };
  return writeTransaction(db, async (trx) => {
    let query = trx.selectFrom("payment_attempts").select(attemptColumns).where("id", "=", attemptId);
    if (engineOf(trx) === "postgres") query = query.forUpdate();
    const attempt = await query.executeTakeFirst();
    if (!attempt) return { changed: false as const };
    const previous = attempt.state;
    if (previous !== "pending" && !(next === "success" && OVERRIDDEN_BY_CAPTURE.includes(previous)))
      return { changed: false as const };

    let transactionQuery = trx
      .selectFrom("transactions")
      .select(["id", "state", "order_no", "merchant_id", "plugin", "currency_code", "created_at", "deleted_at"])
      .where("id", "=", attempt.transaction_id);
    if (engineOf(trx) === "postgres") transactionQuery = transactionQuery.forUpdate();
    const transaction = await transactionQuery.executeTakeFirstOrThrow();
    const completedAt = nowIso();
    const authorizedOnly = outcome.status === "authorized";
    const settled = next === "success" || next === "cod";
    const target: TransactionState = next === "cod" ? "cod" : authorizedOnly ? "authorized" : "paid";
    // Whether this attempt settles the transaction is the table of allowed changes' to say (an
    // expired or canceled link still takes a payment started before).
    const open = settled && allowsTransition(transaction.state, target, "payment");
    const audits: { action: string; params?: Record<string, unknown> }[] = [];

    // Money taken for a deleted transaction brings it back to the list: the merchant must see it.
    let deletedAt = transaction.deleted_at;
    if (next === "success" && deletedAt) {
      await trx
        .updateTable("transactions")
        .set({ deleted_at: null, paid_late: "deleted" })
        .where("id", "=", transaction.id)
        .execute();
      await recordDeletedStatistics(trx, transaction.merchant_id, transaction.id, 1);
      deletedAt = null;
      audits.push({ action: "transaction_restored_by_payment" });
    }

    await trx
      .updateTable("payment_attempts")
      .set({
        state: next,
        authorized_only: authorizedOnly ? 1 : 0,
        payment_id: outcome.refs.paymentId ?? attempt.payment_id,
        tran_id: outcome.refs.tranId ?? attempt.tran_id,
        auth_code: outcome.refs.authCode ?? attempt.auth_code,
        reference_id: outcome.refs.referenceId ?? attempt.reference_id,
        post_date: outcome.refs.postDate ?? attempt.post_date,
        card_masked: outcome.refs.cardMasked ?? attempt.card_masked,
        authentication_status: outcome.refs.authentication ?? attempt.authentication_status,
        result_code: (next === "success" && !open ? "DUPLICATE" : outcome.refs.resultCode) ?? null,
        completed_at: completedAt,
        // A failure or cancel may still be followed by a capture (another tab): the reconciler asks again.
        next_inquiry_at: settled ? null : firstInquiryAt(attempt, completedAt),
      })
      .where("id", "=", attempt.id)
      .where("state", "=", previous)
      .execute();

    if (next === "success") {
      // Money the gateway took is always in the ledger, even when another attempt already paid.
      await trx
        .insertInto("ledger_entries")
        .values({
          merchant_id: attempt.merchant_id,
          transaction_id: transaction.id,
          attempt_id: attempt.id,
          kind: authorizedOnly ? "authorization" : "payment",
          amount: attempt.total,
          fee: attempt.fee,
          currency_code: attempt.currency_code,
          created_at: completedAt,
        })
        .execute();
    }
    let action: string = previous === "pending" ? `payment_${next}` : "payment_success_late";
    if (open) {
      const moved = await transitionTransaction(
        trx,
        transaction.id,
        target,
        { kind: "payment", attemptId: attempt.id },
        {
          changes: {
            paid_amount: next === "cod" ? 0 : attempt.total,
            captured_amount: next === "success" && !authorizedOnly ? attempt.total : 0,
            fee: attempt.fee,
            gateway_code: attempt.gateway_code,
            paid_attempt_id: attempt.id,
            ...(transaction.state === "canceled" ? { paid_late: "canceled" as const } : {}),
          },
        },
      );
      // The row is locked and the table allows the change: a refusal here is a bug, and nothing of the payment is kept without it.
      if (!moved.ok)
        throw new Error(`completeAttempt: ${transaction.id} could not move from ${transaction.state} to ${target}`);
      if (next === "success" && !authorizedOnly) {
        await bumpTotals(
          trx,
          {
            merchantId: attempt.merchant_id,
            plugin: transaction.plugin,
            currency: attempt.currency_code,
            at: completedAt,
          },
          { received_count: 1, received_amount: attempt.total },
        );
      }
    } else if (next === "success") {
      // Paid twice (two tabs, two methods): the second payment is recorded, then given back by itself (below).
      action = "payment_duplicate";
    } else if (!settled) {
      await transitionTransaction(
        trx,
        transaction.id,
        "attempted",
        { kind: "attempt_failed", attemptId: attempt.id },
        { from: ["created", "pending"] },
      );
    }
    await recordAttemptStatistics(
      trx,
      { ...transaction, deleted_at: deletedAt },
      { gateway_code: attempt.gateway_code, state: next, previous },
      next === "success" && !authorizedOnly && open ? attempt.total : null,
    );
    const gateway = await gatewayNameParam(trx, attempt.merchant_id, attempt.gateway_code);
    const params = {
      orderNo: transaction.order_no,
      gateway,
      amount: money(attempt.total, attempt.currency_code),
      attempt: attempt.id,
    };
    for (const entry of [{ action }, ...audits]) {
      await recordAudit(trx, {
        merchantId: attempt.merchant_id,
        actor: "customer",
        action: entry.action,
        params:
          action === "payment_success_late" && entry.action === action
            ? { ...params, previous: word(`result.states.${previous}`) }
            : params,
        objectType: "transaction",
        objectId: transaction.id,
      });
    }
    // A card payment after cash on delivery was chosen is the only money taken: staff decide which stands.
    if (action === "payment_duplicate" && transaction.state !== "cod")
      await returnPayment(trx, { attemptId: attempt.id, reason: "paid_twice" });
    return { changed: true as const, state: next, gateway: attempt.gateway_kind };
  });
}

async function configForAttempt(
  db: DB,
  attempt: Attempt,
  addresses: PlatformAddresses,
): Promise<GatewayConfig | undefined> {
  const gateway = await findMerchantGateway(db, attempt.merchant_id, attempt.gateway_code);
  return gateway ? toGatewayConfig(gateway, addresses) : undefined;
}

/**
 * Asks the gateway from this server and settles the attempt if it has an answer. Amount
 * mismatches are refused. A pending attempt is always asked about; one already recorded as
 * canceled, failed or error only when `late` says a capture may have come after (another tab of
 * the gateway's page, the reconciler within the gateway's session lifetime).
 */
export async function settleByInquiry(
  db: DB,
  attempt: Attempt,
  addresses: PlatformAddresses,
  options: { late?: boolean } = {},
) {
  const askable =
    attempt.state === "pending" || (options.late === true && OVERRIDDEN_BY_CAPTURE.includes(attempt.state));
  if (!askable) return attempt;
  const config = await configForAttempt(db, attempt, addresses);
  if (!config) return attempt;
  let outcome: GatewayOutcome;
  try {
    outcome = await adapterFor(attempt.gateway_kind).inquire(config, gatewayAttempt(attempt));
  } catch (error) {
    log.warn(
      { attempt_id: attempt.id, gateway: attempt.gateway_kind, error: errorField(error) },
      "gateway inquiry failed",
    );
    return attempt;
  }
  await completeAttempt(db, attempt.id, heldToTotal(outcome, attempt.total));
  return (await findAttempt(db, attempt.id))!;
}

/** Our result page for an attempt, absolute: where a gateway sends the customer's browser once it has a result. */
export function resultPageUrl(addresses: PlatformAddresses, attempt: Pick<Attempt, "id" | "lang">) {
  return `${addresses.publicBaseUrl}/${attempt.lang === "ar" ? "ar" : "en"}/pay/attempt-detail/${attempt.id}`;
}

/** A gateway that says it charged another amount than the attempt's is an error, whatever else it says. */
export function heldToTotal(outcome: GatewayOutcome, total: number): GatewayOutcome {
  const charged = outcome.status === "success" || outcome.status === "authorized";
  if (!charged || outcome.amount === undefined || outcome.amount === total) return outcome;
  return { status: "error", refs: { ...outcome.refs, resultCode: "AMOUNT_MISMATCH" } };
}

/** What became of a message at a gateway address, for the gateway's leg to answer in its words. */
export type GatewayMessageHandled = { attempt: Attempt | null; leg: GatewayLeg | null; handled: LegHandled };

/**
 * A message at `/gateway/<kind>/<leg>/<attempt id>`: the attempt's gateway reads it with the leg of
 * that name; the core holds what it read against the attempt and acts. A result the gateway vouches
 * for counts only for the attempt's own track id and (when the attempt knows it) the gateway's
 * payment id, and is written once by completeAttempt, so a gateway sending it again, or the browser
 * and the gateway racing, change nothing. A message that proves nothing makes the core ask the
 * gateway, server-side. What the gateway sent is kept as received (`gateway_messages`) when the
 * adapter gives it as evidence, refused or not.
 */
export async function handleGatewayMessage(
  db: DB,
  input: { kind: string; leg: string; attemptId: string; message: GatewayMessage },
  addresses: PlatformAddresses,
): Promise<GatewayMessageHandled> {
  const unknown = (reason: string): GatewayMessageHandled => ({
    attempt: null,
    leg: null,
    handled: { accepted: false, unknownPayment: true, reason },
  });
  const attempt = await findAttempt(db, input.attemptId);
  if (!attempt || attempt.gateway_kind !== input.kind || !isGatewayKind(attempt.gateway_kind))
    return unknown("unknown payment");
  const leg = gatewayLeg(attempt.gateway_kind, input.leg);
  if (!leg || !leg.methods.includes(input.message.method)) return unknown("unknown payment");
  const resultPage = resultPageUrl(addresses, attempt);
  const refused = (reason: string): GatewayMessageHandled => ({
    attempt,
    leg,
    handled: { accepted: false, unknownPayment: false, reason },
  });
  const config = await configForAttempt(db, attempt, addresses);
  if (!config) return refused("gateway removed");
  const reading = leg.read(config, gatewayAttempt(attempt), input.message);
  if ((reading.kind === "result" || reading.kind === "refuse") && reading.evidence) {
    await db
      .insertInto("gateway_messages")
      .values({
        attempt_id: attempt.id,
        merchant_id: attempt.merchant_id,
        digest: sha256(reading.evidence.received.toLowerCase()),
        received: reading.evidence.received,
        plain: reading.evidence.plain,
        refusal: reading.kind === "refuse" ? reading.reason : null,
        received_at: nowIso(),
      })
      .onConflict((conflict) => conflict.columns(["attempt_id", "digest"]).doNothing())
      .execute();
  }
  switch (reading.kind) {
    case "refuse":
      return refused(reading.reason);
    case "acknowledge":
      return { attempt, leg, handled: { accepted: true, resultPageUrl: resultPage } };
    case "ask": {
      const settled = await settleByInquiry(db, attempt, addresses);
      return { attempt: settled, leg, handled: { accepted: true, resultPageUrl: resultPage } };
    }
    case "result": {
      if (reading.trackId !== attempt.track_id) return refused("reference mismatch");
      const paymentId = reading.outcome.refs.paymentId;
      if (attempt.gateway_reference && paymentId && paymentId !== attempt.gateway_reference)
        return refused("payment id mismatch");
      await completeAttempt(db, attempt.id, heldToTotal(reading.outcome, attempt.total));
      return {
        attempt: (await findAttempt(db, attempt.id))!,
        leg,
        handled: { accepted: true, resultPageUrl: resultPage },
      };
    }
  }
}
