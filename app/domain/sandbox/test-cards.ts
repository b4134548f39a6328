/** The sandboxes' test cards and the rules a real issuer would apply to them. */

export const KNET_TEST_CARDS = { captured: "8888880000000001", notCaptured: "8888880000000002" } as const;

export const CARD_TEST_CARDS = {
  approved: "4111111111111111",
  declined: "4000000000000002",
  noAnswer: "4000000000009995",
} as const;

/** The most of a card number anything may keep: first six and last four. */
export function maskCardNumber(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}${"*".repeat(Math.max(cardNumber.length - 10, 0))}${cardNumber.slice(-4)}`;
}

/** KNET's test environment (manual K-064 §4): the test card captures with expiry 09/2021, and only then. */
export const KNET_CAPTURING_EXPIRY = "09/2021";

/**
 * The sandbox's two fixed cards decide by number whatever the expiry; any other card follows
 * KNET's own test rule: expiry 09/2021 is CAPTURED, any other (or none) NOT CAPTURED.
 */
export function knetResultForCard(cardNumber: string, expiry?: string): "CAPTURED" | "NOT CAPTURED" {
  if (cardNumber === KNET_TEST_CARDS.captured) return "CAPTURED";
  if (cardNumber === KNET_TEST_CARDS.notCaptured) return "NOT CAPTURED";
  return expiry === KNET_CAPTURING_EXPIRY ? "CAPTURED" : "NOT CAPTURED";
}

export type CardDecision = "approved" | "declined" | "no_answer";

export function cardDecisionFor(cardNumber: string): CardDecision {
  if (cardNumber === CARD_TEST_CARDS.approved) return "approved";
  if (cardNumber === CARD_TEST_CARDS.noAnswer) return "no_answer";
  return "declined";
}

const KUWAIT = "Asia/Kuwait";

function kuwaitParts(at: Date) {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: KUWAIT, year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(at)
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return { year: Number(parts.year), month: parts.month, day: parts.day };
}

/** KNET's post date: MMDD of the business day in Kuwait. */
export function knetPostDate(at: Date): string {
  const { month, day } = kuwaitParts(at);
  return `${month}${day}`;
}

/** "MM/YY" is valid through the end of that month, in Kuwait. */
export function isExpiryCurrent(expiry: string, at: Date): boolean {
  const match = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(expiry);
  if (!match) return false;
  const { year, month } = kuwaitParts(at);
  const expiresAt = (2000 + Number(match[2])) * 12 + Number(match[1]);
  return expiresAt >= year * 12 + Number(month);
}
