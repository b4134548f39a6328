import type { Selectable } from "kysely";
import { engineOf, type DB } from "~/db/database.server";
import type { OfferCodeTable } from "~/db/schema";
import { nowIso } from "~/lib/clock.server";
import { refuse, type Refusal } from "~/lib/outcome";

/*
 * Offer codes: a code a customer types to take an amount off a basket (the food section's vouchers,
 * the catalogue's discount codes). One table, `offer_codes`, each row its section's (migration 0042).
 * A code is a percentage (basis points, rounded half up) or a fixed amount, never more than the
 * subtotal; it may have validity dates, a minimum subtotal, a limit of uses overall and one per
 * customer.
 *
 * The locking rule: a use is claimed inside the order's writeTransaction, by one conditional update
 * (`used < max_uses`), so that whoever updates second reads the first one's result; concurrent
 * checkouts never use a code more than allowed. A customer's own uses are counted after the code's
 * row is locked (FOR UPDATE on Postgres; SQLite's BEGIN IMMEDIATE already takes writers one at a
 * time), so that two orders of one customer cannot both count the same earlier use. A use is given
 * back by the write that ends its order's hold (the order's `holds_stock` cleared once), never
 * below zero.
 */

export type OfferCode = Selectable<OfferCodeTable>;

/** What a section declares of its codes. */
export type OfferCodeScope = {
  /** The section's key: the `section` of its codes. */
  section: string;
  /** The start of its customers' refusal texts: `${texts}unknown`, `${texts}used_up`, … */
  texts: string;
  /**
   * How many of a customer's orders hold a use of the code now (those not canceled). A section
   * that does not say has no per-customer limit.
   */
  customerUses?: (db: DB, offerCodeId: number, customerKey: string) => Promise<number>;
};

/** Why a code does not apply; the section's text is `${scope.texts}${reason}`. */
export type OfferRefusalReason = "unknown" | "not_yet" | "expired" | "minimum" | "used_up" | "customer_used";

export const OFFER_CODE_COLUMNS = [
  "id",
  "merchant_id",
  "section",
  "code",
  "code_lc",
  "discount_type",
  "amount",
  "valid_from",
  "valid_to",
  "min_total",
  "max_uses",
  "max_uses_per_customer",
  "used",
  "is_active",
  "copied_from",
  "created_at",
  "updated_at",
] as const;

function refusal(scope: OfferCodeScope, reason: OfferRefusalReason, params?: Refusal["params"]): Refusal {
  return refuse(`${scope.texts}${reason}`, params ? { params } : {});
}

/** The merchant's code of this section, whatever its case. */
export function findOfferCode(
  db: DB,
  scope: OfferCodeScope,
  merchantId: number,
  code: string,
): Promise<OfferCode | undefined> {
  const lower = code.trim().toLowerCase();
  if (!lower || lower.length > 40) return Promise.resolve(undefined);
  return db
    .selectFrom("offer_codes")
    .select(OFFER_CODE_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("section", "=", scope.section)
    .where("code_lc", "=", lower)
    .executeTakeFirst();
}

/**
 * Whether a code applies now to a basket: active, within its dates, the subtotal at least its
 * minimum (the refusal's `minimum`, in minor units), with uses left overall and, when the customer is
 * known, for them. Nothing is taken: claimOfferCode takes the use when the order is placed.
 */
export async function checkOfferCode(
  db: DB,
  scope: OfferCodeScope,
  offer: OfferCode | undefined,
  basket: { subtotal: number; customerKey: string | null },
): Promise<{ ok: true } | Refusal> {
  if (!offer || !offer.is_active) return refusal(scope, "unknown");
  const at = nowIso();
  if (offer.valid_from && at < new Date(offer.valid_from).toISOString()) return refusal(scope, "not_yet");
  if (offer.valid_to && at > new Date(offer.valid_to).toISOString()) return refusal(scope, "expired");
  if (basket.subtotal < Number(offer.min_total)) return refusal(scope, "minimum", { minimum: Number(offer.min_total) });
  if (offer.max_uses !== null && offer.used >= offer.max_uses) return refusal(scope, "used_up");
  if (
    basket.customerKey &&
    offer.max_uses_per_customer !== null &&
    scope.customerUses &&
    (await scope.customerUses(db, offer.id, basket.customerKey)) >= offer.max_uses_per_customer
  ) {
    return refusal(scope, "customer_used");
  }
  return { ok: true };
}

/** What a code takes off a subtotal (minor units): a percentage rounded half up, or a fixed amount; never more than the subtotal. */
export function offerDiscount(offer: Pick<OfferCode, "discount_type" | "amount">, subtotal: number) {
  const amount = Number(offer.amount);
  const off = offer.discount_type === "percentage" ? Math.floor((subtotal * amount + 5000) / 10000) : amount;
  return Math.max(0, Math.min(subtotal, off));
}

/**
 * Claims one use of a code for an order being written, inside its writeTransaction (the locking rule
 * above). A customer (`customerKey`) is refused when their own uses reached the code's limit per
 * customer; without one, only the overall limit counts (an order taking its use again after a late
 * payment was counted when it was placed).
 */
export async function claimOfferCode(
  trx: DB,
  scope: OfferCodeScope,
  offerCodeId: number,
  customerKey: string | null,
): Promise<{ ok: true } | Refusal> {
  let locked = trx
    .selectFrom("offer_codes")
    .select("max_uses_per_customer")
    .where("id", "=", offerCodeId)
    .where("section", "=", scope.section);
  if (engineOf(trx) === "postgres") locked = locked.forUpdate();
  const offer = await locked.executeTakeFirst();
  if (!offer) return refusal(scope, "unknown");
  if (
    customerKey &&
    offer.max_uses_per_customer !== null &&
    scope.customerUses &&
    (await scope.customerUses(trx, offerCodeId, customerKey)) >= offer.max_uses_per_customer
  ) {
    return refusal(scope, "customer_used");
  }
  const claimed = await trx
    .updateTable("offer_codes")
    .set((eb) => ({ used: eb("used", "+", 1) }))
    .where("id", "=", offerCodeId)
    .where((eb) => eb.or([eb("max_uses", "is", null), eb("used", "<", eb.ref("max_uses"))]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1 ? { ok: true } : refusal(scope, "used_up");
}

/**
 * Gives one use of a code back, inside the write that ends its order's hold (only the write that
 * clears the order's `holds_stock` calls it, so each order gives its use back once). Never below zero.
 */
export async function releaseOfferCode(trx: DB, offerCodeId: number) {
  const released = await trx
    .updateTable("offer_codes")
    .set((eb) => ({ used: eb("used", "-", 1) }))
    .where("id", "=", offerCodeId)
    .where("used", ">", 0)
    .executeTakeFirst();
  return Number(released.numUpdatedRows) === 1;
}
