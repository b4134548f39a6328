import type { DB } from "~/db/database.server";
import { addressGroup, isThrottled, recordHits, type ThrottleRule } from "~/domain/identity/throttle.server";

/*
 * What one address may do to a shop in ten minutes (decision 0025). Checkouts, on the page or the
 * API, share one bucket: each holds units for 15 minutes. Discount codes tried (applied on the page,
 * priced through the API, or sent with a checkout) share another, so codes cannot be guessed.
 */

const WINDOW_MS = 10 * 60_000;

export const checkoutRule = (address: string | null): ThrottleRule => ({
  bucket: `catalogue-checkout:${addressGroup(address)}`,
  limit: 120,
  windowMs: WINDOW_MS,
});

export const discountRule = (address: string | null): ThrottleRule => ({
  bucket: `catalogue-discount:${addressGroup(address)}`,
  limit: 30,
  windowMs: WINDOW_MS,
});

/** Counts one more try against each rule; true (and nothing counted) when one is already at its limit. */
export async function overLimit(db: DB, rules: ThrottleRule[]) {
  if (rules.length === 0) return false;
  if (await isThrottled(db, rules)) return true;
  await recordHits(db, rules);
  return false;
}
