import { writeTransaction, type DB } from "~/db/database.server";
import { now } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { parseAmount, priceWithFee } from "~/lib/money";
import { money, type TextParams } from "~/lib/outcome";
import { boundsOf } from "./amount-bounds.server";
import { feeRuleOf, hasFee, listMerchantGateways, supportsCurrency, type GatewayRow } from "./gateway-settings.server";
import { GATEWAY_KINDS, isGatewayKind } from "./gateways/registry";
import { PAYABLE_STATES, SETTLED_STATES } from "./states";
import { transitionTransaction } from "./transaction-state.server";

export type PayChoice = {
  gateway_code: string;
  gateway: string;
  kind: GatewayRow["kind"];
  logo_url: string | null;
  /** What the customer pays with this choice (fee included when the customer pays it). */
  amount: number;
  base_amount: number;
  fee: number;
  fee_payer: "customer" | "merchant";
  currency_code: string;
};

const transactionColumns = [
  "id",
  "merchant_id",
  "unit_id",
  "plugin",
  "order_no",
  "state",
  "amount",
  "currency_code",
  "editable_amount",
  "min_amount",
  "max_amount",
  "customer_email",
  "customer_phone",
  "customer_first_name",
  "customer_last_name",
  "description",
  "remarks",
  "attachment_name",
  "pg_codes",
  "expiration_time",
  "next_url",
  "paid_amount",
  "fee",
  "gateway_code",
  "paid_attempt_id",
  "created_at",
  "state_changed_at",
  "deleted_at",
] as const;

/** A live transaction by its public id; `plugins`, when given, the sections whose transactions the caller serves. */
export async function findPublicTransaction(db: DB, id: string, plugins?: readonly string[]) {
  if (!/^[0-9A-Za-z]{22}$/.test(id) || plugins?.length === 0) return undefined;
  let query = db
    .selectFrom("transactions")
    .select(transactionColumns)
    .where("id", "=", id)
    .where("deleted_at", "is", null);
  if (plugins) query = query.where("plugin", "in", plugins);
  return query.executeTakeFirst();
}

export type PublicTransaction = NonNullable<Awaited<ReturnType<typeof findPublicTransaction>>>;

export function isExpired(transaction: Pick<PublicTransaction, "expiration_time">, at = now()) {
  return transaction.expiration_time !== null && new Date(transaction.expiration_time) <= at;
}

/** A payable transaction past its expiry becomes expired, on the server, whatever a page had shown before. */
export async function expireTransaction(db: DB, id: string) {
  return writeTransaction(db, (trx) =>
    transitionTransaction(trx, id, "expired", { kind: "expired" }, { from: PAYABLE_STATES }),
  );
}

/**
 * The gateways this transaction can be paid with, each priced for `amount` (minor units):
 * allowed by the request, enabled by the merchant, accepting the currency.
 */
export async function payChoicesFor(
  db: DB,
  transaction: Pick<PublicTransaction, "merchant_id" | "pg_codes" | "currency_code">,
  amount: number,
  lang: Language,
): Promise<PayChoice[]> {
  const allowed = new Set(transaction.pg_codes.split(","));
  const gateways = await listMerchantGateways(db, transaction.merchant_id, { enabledOnly: true });
  return gateways
    .filter((gateway) => allowed.has(gateway.code) && supportsCurrency(gateway, transaction.currency_code))
    .map((gateway) => {
      const price = priceWithFee(amount, feeRuleOf(gateway), gateway.fee_payer);
      return {
        gateway_code: gateway.code,
        gateway: lang === "ar" ? gateway.name_ar : gateway.name_en,
        kind: gateway.kind,
        logo_url: gateway.logo_url,
        amount: price.gross,
        base_amount: amount,
        fee: gateway.fee_payer === "customer" && hasFee(gateway) ? price.fee : 0,
        fee_payer: gateway.fee_payer,
        currency_code: transaction.currency_code,
      };
    });
}

/**
 * Public spec §4: one choice → it; some with fees → KNET (KPay) if offered, else the lowest fee;
 * none with fees → KNET if offered, else the first.
 */
export function defaultChoice(choices: PayChoice[]): PayChoice | undefined {
  if (choices.length <= 1) return choices[0];
  const preferred = choices.find(
    (choice) => isGatewayKind(choice.kind) && GATEWAY_KINDS[choice.kind].preferredChoice === true,
  );
  if (choices.some((choice) => choice.fee > 0)) {
    return preferred ?? choices.reduce((lowest, choice) => (choice.fee < lowest.fee ? choice : lowest));
  }
  return preferred ?? choices[0];
}

/**
 * The amount a customer asks to pay on an editable request; blank means the request's own amount.
 * A typed amount must lie within the request's bounds (decision 0015).
 */
export function chosenAmount(
  transaction: Pick<PublicTransaction, "amount" | "editable_amount" | "currency_code" | "min_amount" | "max_amount">,
  typed: string | null | undefined,
): { ok: true; amount: number } | { ok: false; error: string; params?: TextParams } {
  if (!transaction.editable_amount || !typed?.trim()) return { ok: true, amount: transaction.amount };
  const parsed = parseAmount(typed, transaction.currency_code);
  const bounds = boundsOf(transaction);
  const outside = {
    ok: false as const,
    error: "pay.errors.amount_out_of_range",
    params: { min: money(bounds.min, transaction.currency_code), max: money(bounds.max, transaction.currency_code) },
  };
  if (!parsed.ok)
    return parsed.error === "money.too_large"
      ? outside
      : { ok: false, error: parsed.error === "money.invalid" ? "pay.errors.positive_number" : parsed.error };
  if (parsed.minor <= 0) return { ok: false, error: "pay.errors.positive_number" };
  if (parsed.minor < bounds.min || parsed.minor > bounds.max) return outside;
  return { ok: true, amount: parsed.minor };
}

export type PayPage =
  | { status: "not_found" }
  | { status: "paused"; transaction: PublicTransaction }
  | { status: "expired" | "settled" | "closed" | "payable"; transaction: PublicTransaction };

/**
 * What the pay page shows. A person opening a new request marks it pending (`opens`: false for a
 * link previewer or a mail scanner fetching it); a request past its expiry becomes expired here, on
 * the server, whatever the page had shown before.
 */
export async function loadPayPage(
  db: DB,
  id: string,
  plugins: readonly string[],
  { opens = true }: { opens?: boolean } = {},
): Promise<PayPage> {
  const transaction = await findPublicTransaction(db, id, plugins);
  if (!transaction) return { status: "not_found" };
  const merchant = await db
    .selectFrom("merchants")
    .select("is_active")
    .where("id", "=", transaction.merchant_id)
    .executeTakeFirstOrThrow();
  if (!merchant.is_active) return { status: "paused", transaction };
  if (SETTLED_STATES.includes(transaction.state)) return { status: "settled", transaction };
  if (transaction.state === "expired") return { status: "expired", transaction };
  if (!PAYABLE_STATES.includes(transaction.state)) return { status: "closed", transaction };
  if (isExpired(transaction)) {
    await expireTransaction(db, transaction.id);
    return { status: "expired", transaction: { ...transaction, state: "expired" } };
  }
  if (opens && transaction.state === "created") {
    const opened = await writeTransaction(db, (trx) =>
      transitionTransaction(trx, transaction.id, "pending", { kind: "opened" }, { from: ["created"] }),
    );
    if (opened.ok) transaction.state = "pending";
  }
  return { status: "payable", transaction };
}
