import { errorField, log } from "~/lib/log.server";
import { engineOf, lockMerchant, type DB } from "~/db/database.server";
import type { TransactionState, TransactionTable } from "~/db/schema";
import { sql, type Insertable, type Updateable } from "kysely";
import { nowIso } from "~/lib/clock.server";
import { refuse, type Refusal } from "~/lib/outcome";
import { publicId } from "~/lib/ids.server";
import { bumpTotals } from "./running-totals.server";
import { allowsTransition, type TransitionKind } from "./states";
import { unitOf } from "~/domain/merchants/units.server";
import { emitWebhookEvent, type WEBHOOK_EVENTS } from "~/domain/integrations/webhooks.server";
import { toDecimalString } from "~/lib/money";

/** Why a transaction changes state; the section's hook reads it. */
export type TransitionCause = (
  | { kind: "opened" }
  | { kind: "payment"; attemptId: string }
  | { kind: "attempt_failed"; attemptId: string }
  | { kind: "capture" | "void" | "refund"; operationId: number }
  | { kind: "expired" }
  | { kind: "canceled"; actor: { id: number; username: string } }
) & { kind: TransitionKind };

const EVENT_COLUMNS = [
  "id",
  "merchant_id",
  "plugin",
  "order_no",
  "state",
  "amount",
  "currency_code",
  "customer_email",
  "created_at",
  "deleted_at",
] as const;

type EventTransaction = {
  id: string;
  merchant_id: number;
  plugin: string;
  order_no: number;
  state: TransactionState;
  amount: number;
  currency_code: string;
  customer_email: string | null;
  created_at: string;
  deleted_at: string | null;
};

/** The merchant webhook event a payment's change of state is (refunds, captures and voids are told by operations.server). */
function paymentEventOf(cause: TransitionCause, to: TransactionState): (typeof WEBHOOK_EVENTS)[number] | null {
  // Cash on delivery is an order not yet paid: nothing to tell as a payment.
  if (cause.kind === "payment")
    return to === "authorized" ? "payment.authorized" : to === "cod" ? null : "payment.succeeded";
  if (cause.kind === "attempt_failed") return "payment.failed";
  return null;
}

/** A transaction as merchant webhooks carry it. */
export function webhookTransaction(
  transaction: Pick<
    EventTransaction,
    "id" | "order_no" | "plugin" | "state" | "amount" | "currency_code" | "customer_email"
  >,
) {
  return {
    id: transaction.id,
    order_no: transaction.order_no,
    plugin: transaction.plugin,
    state: transaction.state,
    amount: toDecimalString(transaction.amount, transaction.currency_code),
    currency_code: transaction.currency_code,
    customer_email: transaction.customer_email,
  };
}

/** What a section hears: which of its transactions changed, from what to what, and why. */
export type TransitionEvent = {
  transaction: EventTransaction;
  from: TransactionState;
  to: TransactionState;
  cause: TransitionCause;
};

export type TransitionHook = (trx: DB, event: TransitionEvent) => Promise<void>;

type HookLookup = (sectionKey: string) => TransitionHook | undefined;

let hookOf: HookLookup | undefined;

let watchers: readonly TransitionHook[] = [];

/**
 * Where the sections' hooks plug in when the platform starts (app/boot): the owner's by section key,
 * and the watchers that hear every transaction's changes.
 */
export function connectTransitionHooks(lookup: HookLookup, watching: readonly TransitionHook[] = []) {
  hookOf = lookup;
  watchers = watching;
}

/** Columns written together with the state (what was paid, by which attempt…); never the state itself. */
export type StateChanges = Omit<
  Updateable<TransactionTable>,
  "state" | "state_changed_at" | "id" | "merchant_id" | "plugin"
>;

export type TransitionOutcome =
  { ok: true; from: TransactionState; transaction: EventTransaction } | (Refusal & { state?: TransactionState });

let savepoints = 0;

/**
 * Runs a watcher inside its own savepoint: what it wrote stays with the change, but its failure only
 * undoes its own writes (logged), never the change it heard, so a payment the gateway took is recorded.
 */
async function watchApart(trx: DB, watch: TransitionHook, event: TransitionEvent) {
  // Outside a database transaction on Postgres there is nothing to roll back to (nor a savepoint to take).
  if (engineOf(trx) === "postgres" && !trx.isTransaction) {
    try {
      await watch(trx, event);
    } catch (error) {
      log.error(
        { transaction_id: event.transaction.id, to: event.to, error: errorField(error) },
        "a watcher of a transaction's change failed",
      );
    }
    return;
  }
  const name = sql.raw(`watcher_${++savepoints}`);
  await sql`savepoint ${name}`.execute(trx);
  try {
    await watch(trx, event);
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(trx);
    log.error(
      { transaction_id: event.transaction.id, to: event.to, error: errorField(error) },
      "a watcher of a transaction's change failed",
    );
  }
  await sql`release savepoint ${name}`.execute(trx);
}

/**
 * The one place a transaction's state is written. It keeps to the table of allowed changes and
 * their causes (TRANSITIONS), refuses any other with the code transition.not_allowed, writes the columns that
 * change with it, and calls the owning section's hook inside the same database transaction.
 * `from` narrows the states the caller expects to move from (a racing writer moved it already:
 * refused, nothing written). Run it inside writeTransaction.
 */
export async function transitionTransaction(
  trx: DB,
  id: string,
  to: TransactionState,
  cause: TransitionCause,
  options: { from?: readonly TransactionState[]; changes?: StateChanges } = {},
): Promise<TransitionOutcome> {
  if (!hookOf)
    throw new Error(
      "transitionTransaction: the sections' hooks are not connected (start the platform through app/boot)",
    );
  let query = trx.selectFrom("transactions").select(EVENT_COLUMNS).where("id", "=", id);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  const current = await query.executeTakeFirst();
  if (!current) return refuse("transition.not_found");
  const from = current.state;
  if ((options.from && !options.from.includes(from)) || !allowsTransition(from, to, cause.kind)) {
    return { ...refuse("transition.not_allowed", { params: { from, to } }), state: from };
  }
  const changedAt = nowIso();
  const updated = await trx
    .updateTable("transactions")
    .set({ ...options.changes, state: to, state_changed_at: changedAt })
    .where("id", "=", id)
    .where("state", "=", from)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1)
    return { ...refuse("transition.not_allowed", { params: { from, to } }), state: from };
  const transaction = { ...current, state: to };
  await hookOf(current.plugin)?.(trx, { transaction, from, to, cause });
  for (const watch of watchers) await watchApart(trx, watch, { transaction, from, to, cause });
  const event = paymentEventOf(cause, to);
  if (event && "attemptId" in cause) {
    const gateway = await trx
      .selectFrom("payment_attempts")
      .innerJoin("gateways", (join) =>
        join
          .onRef("gateways.code", "=", "payment_attempts.gateway_code")
          .on("gateways.merchant_id", "=", current.merchant_id),
      )
      .select(["gateways.code", "gateways.mode"])
      .where("payment_attempts.id", "=", cause.attemptId)
      .executeTakeFirst();
    await emitWebhookEvent(trx, current.merchant_id, event, {
      transaction: webhookTransaction(transaction),
      attempt_id: cause.attemptId,
      gateway_code: gateway?.code ?? null,
      // Test money or real money: what the gateway's mode says.
      livemode: gateway?.mode === "live",
    });
  }
  return { ok: true, from, transaction };
}

/**
 * What a section says of a new transaction; the core adds its id, order number, state and times,
 * and its unit when the section names none (the merchant's default).
 */
export type NewTransaction = Omit<
  Insertable<TransactionTable>,
  "id" | "order_no" | "unit_id" | "state" | "created_at" | "state_changed_at" | "deleted_at" | "customer_email_lc"
> & {
  /** One of the merchant's units (another merchant's is refused by a throw: the section checks it first). */
  unit_id?: number | null;
};

/**
 * Records a new transaction of a section in state `created`: an unguessable id, the merchant's
 * next order number (taken under the merchant's lock), its unit (the default unless named), and its place in the
 * running totals. Run it inside writeTransaction.
 */
export async function createTransaction(
  trx: DB,
  values: NewTransaction,
): Promise<{ id: string; orderNo: number; createdAt: string }> {
  await lockMerchant(trx, values.merchant_id);
  const { last } = await trx
    .selectFrom("transactions")
    .select((eb) => eb.fn.max("order_no").as("last"))
    .where("merchant_id", "=", values.merchant_id)
    .executeTakeFirstOrThrow();
  const orderNo = Number(last ?? 0) + 1;
  const unit = await unitOf(trx, values.merchant_id, values.unit_id ?? null)
    .select("id")
    .executeTakeFirst();
  if (values.unit_id && !unit) throw new Error(`unit ${values.unit_id} is not merchant ${values.merchant_id}'s`);
  const id = publicId();
  const createdAt = nowIso();
  await trx
    .insertInto("transactions")
    .values({
      ...values,
      id,
      order_no: orderNo,
      unit_id: unit?.id ?? null,
      state: "created",
      customer_email_lc: values.customer_email?.toLowerCase() ?? null,
      created_at: createdAt,
      state_changed_at: createdAt,
      deleted_at: null,
    })
    .execute();
  await bumpTotals(
    trx,
    { merchantId: values.merchant_id, plugin: values.plugin, currency: values.currency_code, at: createdAt },
    { generated_count: 1, generated_amount: values.amount },
  );
  return { id, orderNo, createdAt };
}

/** Rows per INSERT of createTransactions: about 35 columns each, well under both engines' limits on bound values. */
const CREATE_BATCH = 400;

/**
 * Records many new transactions of one merchant at once (a bulk upload's thousands of requests),
 * as createTransaction does one: consecutive order numbers taken under the merchant's lock, the
 * default unit, the running totals — with one read of each and the rows inserted in batches.
 * Answers their ids and order numbers in the order given. Run it inside writeTransaction.
 */
export async function createTransactions(
  trx: DB,
  merchantId: number,
  rows: readonly Omit<NewTransaction, "merchant_id" | "unit_id">[],
): Promise<{ id: string; orderNo: number; createdAt: string }[]> {
  if (rows.length === 0) return [];
  await lockMerchant(trx, merchantId);
  const { last } = await trx
    .selectFrom("transactions")
    .select((eb) => eb.fn.max("order_no").as("last"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  const first = Number(last ?? 0) + 1;
  const unit = await unitOf(trx, merchantId).select("id").executeTakeFirst();
  const createdAt = nowIso();
  const made = rows.map((_, index) => ({ id: publicId(), orderNo: first + index, createdAt }));
  for (let from = 0; from < rows.length; from += CREATE_BATCH) {
    await trx
      .insertInto("transactions")
      .values(
        rows.slice(from, from + CREATE_BATCH).map((values, offset) => ({
          ...values,
          merchant_id: merchantId,
          id: made[from + offset].id,
          order_no: made[from + offset].orderNo,
          unit_id: unit?.id ?? null,
          state: "created" as const,
          customer_email_lc: values.customer_email?.toLowerCase() ?? null,
          created_at: createdAt,
          state_changed_at: createdAt,
          deleted_at: null,
        })),
      )
      .execute();
  }
  const totals = new Map<string, { plugin: string; currency: string; count: number; amount: number }>();
  for (const values of rows) {
    const key = `${values.plugin}\u0000${values.currency_code}`;
    const total = totals.get(key) ?? { plugin: values.plugin, currency: values.currency_code, count: 0, amount: 0 };
    total.count++;
    total.amount += values.amount;
    totals.set(key, total);
  }
  for (const total of totals.values()) {
    await bumpTotals(
      trx,
      { merchantId, plugin: total.plugin, currency: total.currency, at: createdAt },
      { generated_count: total.count, generated_amount: total.amount },
    );
  }
  return made;
}
