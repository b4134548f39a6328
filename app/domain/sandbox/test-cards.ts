/** The sandboxes' test cards and the rules a real issuer would apply to them. */

export const KNET_TEST_CARDS = { captured: "8888880000000001", notCaptured: "8888880000000002" } as const;

/**
 * The Mastercard Gateway's published test cards (Test Card Numbers by Brand), whose outcome its
 * test environment sets by the expiry date; and one of them taken by the sandbox for a 3-D Secure
 * challenge.
 */
export const MPGS_TEST_CARDS = {
  mastercard: "5123450000000008",
  visa: "4508750015741019",
  /** The sandbox asks the payer to authenticate with this one (code 1234), then decides by expiry. */
  challenge: "5111111111111118",
} as const;

/** The expiry that decides the test card's outcome, as in the gateway's test environment. */
export const MPGS_TEST_EXPIRIES = {
  approved: "01/39",
  declined: "05/39",
  expired: "04/27",
  timedOut: "08/28",
} as const;

/** The code the sandbox's 3-D Secure challenge accepts. */
export const MPGS_CHALLENGE_CODE = "1234";

/** Wallet tokens (Apple Pay, Google Pay) are JSON; the sandbox declines one that says {"sandbox":"declined"}. */
export const MPGS_DECLINED_WALLET_TOKEN = JSON.stringify({ sandbox: "declined" });

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

/** response.gatewayCode for a test card: APPROVED, DECLINED, EXPIRED_CARD, or TIMED_OUT (the issuer never answers: left pending). */
export type MpgsGatewayCode = "APPROVED" | "DECLINED" | "EXPIRED_CARD" | "TIMED_OUT";

export function mpgsGatewayCodeFor(cardNumber: string, expiry: string): MpgsGatewayCode {
  if (!(Object.values(MPGS_TEST_CARDS) as string[]).includes(cardNumber)) return "DECLINED";
  if (expiry === MPGS_TEST_EXPIRIES.approved) return "APPROVED";
  if (expiry === MPGS_TEST_EXPIRIES.expired) return "EXPIRED_CARD";
  if (expiry === MPGS_TEST_EXPIRIES.timedOut) return "TIMED_OUT";
  return "DECLINED";
}

const KUWAIT = "Asia/Kuwait";

function kuwaitParts(at: Date) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: KUWAIT,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  })
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
