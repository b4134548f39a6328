/**
 * The Mastercard Gateway's REST API, version 100, as its documentation gives it: the paths, the
 * order and transaction documents (RETRIEVE_ORDER, RETRIEVE_TRANSACTION and the webhook carry the
 * same fields) and the error document. Amounts are decimals in major units, numbers in answers.
 */
import { z } from "zod";
import { exponentOf, parseAmount, toDecimalString } from "~/lib/money";

export const MPGS_API_VERSION = "100";

/** The header that carries the merchant's notification secret on every webhook. */
export const MPGS_NOTIFICATION_SECRET_HEADER = "X-Notification-Secret";

/** A decimal amount as the gateway writes it (a JSON number in answers, a string in requests). */
const DecimalSchema = z.union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d+)?$/)]);

export const TransactionDocumentSchema = z.object({
  result: z.enum(["SUCCESS", "FAILURE", "PENDING", "UNKNOWN"]),
  response: z.object({ gatewayCode: z.string() }).partial().optional(),
  transaction: z.object({
    id: z.string(),
    type: z.string(),
    amount: DecimalSchema.optional(),
    currency: z.string().optional(),
    authorizationCode: z.string().optional(),
    receipt: z.string().optional(),
  }),
});

export const OrderSchema = z.object({
  id: z.string(),
  amount: DecimalSchema,
  currency: z.string(),
  status: z.string(),
  totalAuthorizedAmount: DecimalSchema.optional(),
  totalCapturedAmount: DecimalSchema.optional(),
  totalRefundedAmount: DecimalSchema.optional(),
  authenticationStatus: z.string().optional(),
});

const SourceOfFundsSchema = z
  .object({ provided: z.object({ card: z.object({ number: z.string().optional() }).optional() }).optional() })
  .optional();

/** RETRIEVE_ORDER: the order with its transactions. */
export const RetrievedOrderSchema = OrderSchema.extend({
  result: z.string().optional(),
  sourceOfFunds: SourceOfFundsSchema,
  transaction: z.array(TransactionDocumentSchema).default([]),
});

/** RETRIEVE_TRANSACTION, an operation's answer and a webhook: one transaction with its order. */
export const TransactionAnswerSchema = TransactionDocumentSchema.extend({
  order: OrderSchema,
  sourceOfFunds: SourceOfFundsSchema,
});

export const ErrorAnswerSchema = z.object({
  result: z.literal("ERROR"),
  error: z.object({ cause: z.string(), explanation: z.string().optional(), field: z.string().optional() }),
});

export type RetrievedOrder = z.infer<typeof RetrievedOrderSchema>;
export type TransactionAnswer = z.infer<typeof TransactionAnswerSchema>;

/** Minor units of a decimal amount; throws on one the currency cannot hold (the gateway's answer is not ours). */
export function minorOf(value: number | string, currency: string): number {
  const text = typeof value === "number" ? decimalText(value, currency) : value;
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new Error(`The gateway answered an amount that is not ${currency}: ${text}`);
  return parsed.minor;
}

/** A JSON number written with no more decimals than the currency has (12.5 KWD → "12.500"). */
function decimalText(value: number, currency: string) {
  const scale = 10 ** exponentOf(currency);
  const minor = Math.round(value * scale);
  if (!Number.isSafeInteger(minor) || Math.abs(minor / scale - value) > 1e-9) return String(value);
  return toDecimalString(minor, currency);
}

/** Requests carry the amount as a decimal string in major units. */
export const decimalOf = toDecimalString;

/** The gateway masks a card as 512345xxxxxx0008; the platform keeps it as 512345******0008, and nothing else. */
export function maskedCardOf(number: string | undefined): string | undefined {
  if (!number) return undefined;
  const masked = number.replace(/[xX*]/g, "*");
  return /^\d{6}\*{2,9}\d{4}$/.test(masked) ? masked : undefined;
}
