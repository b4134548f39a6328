import { randomInt } from "node:crypto";
import { addressGroup } from "~/domain/identity/throttle.server";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";
import { DateTime } from "luxon";
import { writeTransaction, type DB } from "~/db/database.server";
import { claimOfferCode, offerDiscount } from "~/domain/commerce/offer-codes.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { startAttempt, type PlatformAddresses } from "~/domain/payments/attempts.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { createTransaction, transitionTransaction } from "~/domain/payments/transaction-state.server";
import { lockCheckoutsOf, MAX_UNPAID_CHECKOUTS } from "~/domain/payments/unpaid-holds.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import type { TextParams } from "~/lib/outcome";
import type { CheckoutInput } from "./checkout-schema";
import { isOpenAt, parseScheduled } from "./hours";
import {
  cateringCharges,
  checkVoucher,
  findVoucher,
  loadMenuItems,
  priceLine,
  VOUCHERS,
  type PricedLine,
} from "./pricing.server";

/**
 * How long an order waits for its payment before its portions and voucher go back, once a payment
 * attempt has started; before that, only UNPAID_HOLD_MS (the sweep, orders.server.ts).
 */
export const PAYMENT_HOLD_MS = 15 * 60_000;
/** How far ahead an order may be scheduled. */
const SCHEDULE_DAYS = 7;

const NUMBER_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * An order's public key: 20 characters of 31 (99 bits), unguessable (it opens the customer's order pages).
 * People read the order by its transaction's short order number (`order_no`), never by this.
 */
export function newOrderNumber() {
  let number = "";
  for (let index = 0; index < 20; index++) number += NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)];
  return number;
}

export type Quote = {
  lines: PricedLine[];
  subtotal: number;
  discount: number;
  deliveryCharge: number;
  serviceCharge: number;
  total: number;
  currency: string;
  voucherId: number | null;
  minimum: number;
};

export type CheckoutRefusal = { ok: false; errors: FieldErrors; params: TextParams };

/** The open branch of a merchant, or of anyone's when no merchant is named (the public pages name a branch). */
export function findBranch(db: DB, id: number, merchantId?: number) {
  let query = db.selectFrom("food_branches").selectAll().where("id", "=", id).where("is_active", "=", 1);
  if (merchantId !== undefined) query = query.where("merchant_id", "=", merchantId);
  return query.executeTakeFirst();
}

export function branchHours(db: DB, branchId: number) {
  return db
    .selectFrom("food_branch_hours")
    .select(["weekday", "opens", "closes"])
    .where("branch_id", "=", branchId)
    .execute();
}

/** "+96550001234" for a valid phone typed with or without its country code. */
export function normalizeFoodPhone(value: string, country: string) {
  const parsed = parsePhoneNumberFromString(value, (country.toUpperCase() as CountryCode) || "KW");
  return parsed?.isValid() ? parsed.number : undefined;
}

/**
 * Everything a checkout is checked against before anything is taken: the branch and what it offers,
 * the delivery area (one of the branch's), the time (now or the scheduled one, within the branch's
 * hours), each line priced from the menu, catering's minimum plates, the minimum order, the voucher,
 * the gateway. Field errors use the API's names, a line's by its place (`lines.2.quantity`).
 */
export async function quoteCheckout(
  db: DB,
  request: CheckoutInput,
  options: { merchantId?: number } = {},
): Promise<
  | {
      ok: true;
      quote: Quote;
      merchantId: number;
      branchId: number;
      scheduledFor: string | null;
      phone: string;
      pgCodes: string[];
      cashOnDelivery: boolean;
    }
  | CheckoutRefusal
> {
  const errors: FieldErrors = {};
  const params: TextParams = {};
  const branch = await findBranch(db, request.branch, options.merchantId);
  if (!branch) return { ok: false, errors: { branch: ["food.errors.branch"] }, params };
  const offers = { pickup: branch.offers_pickup, delivery: branch.offers_delivery, catering: branch.offers_catering }[
    request.delivery_type
  ];
  if (!offers) errors.delivery_type = ["food.errors.delivery_type_unavailable"];

  let area: { id: number; charge: number; min_order: number } | undefined;
  if (request.delivery_type === "delivery") {
    if (request.delivery_area === undefined) errors.delivery_area = ["errors.required"];
    else {
      area = await db
        .selectFrom("food_delivery_areas")
        .select(["id", "charge", "min_order"])
        .where("id", "=", request.delivery_area)
        .where("branch_id", "=", branch.id)
        .where("is_active", "=", 1)
        .executeTakeFirst();
      if (!area) errors.delivery_area = ["food.errors.outside_area"];
    }
    const address = request.address;
    for (const field of ["area", "block", "street", "house_no"] as const)
      if (!address?.[field]) errors[`address.${field}`] = ["errors.required"];
  }

  // When: as soon as possible (the branch open now), or a scheduled time within its hours.
  const hours = await branchHours(db, branch.id);
  let scheduledFor: string | null = null;
  const current = DateTime.fromJSDate(now());
  if (request.scheduled_for) {
    const at = parseScheduled(request.scheduled_for);
    if (!at) errors.scheduled_for = ["food.errors.scheduled_for"];
    else if (at < current) errors.scheduled_for = ["food.errors.scheduled_past"];
    else if (at > current.plus({ days: SCHEDULE_DAYS })) errors.scheduled_for = ["food.errors.scheduled_too_far"];
    else if (!isOpenAt(hours, at)) errors.scheduled_for = ["food.errors.closed_then"];
    else scheduledFor = at.toUTC().toISO();
  } else if (request.delivery_type === "catering") errors.scheduled_for = ["food.errors.catering_date"];
  else if (!isOpenAt(hours, current)) errors.branch = ["food.errors.closed_now"];

  const { country, currency } = await loadMerchantDefaults(db, branch.merchant_id);
  const phone = normalizeFoodPhone(request.customer_phone, country);
  if (!phone) errors.customer_phone = ["food.errors.phone"];

  const items = await loadMenuItems(
    db,
    branch.merchant_id,
    request.lines.map((line) => line.menu_item),
  );
  const lines = request.lines
    .map((line, index) => priceLine(items.get(line.menu_item), line, index, errors))
    .filter((line): line is PricedLine => line !== null);
  // Portions asked for in all lines of an item, against what is left.
  const asked = new Map<number, number>();
  for (const line of lines) asked.set(line.item.id, (asked.get(line.item.id) ?? 0) + line.quantity);
  for (const line of lines) {
    if (line.item.quantity !== null && (asked.get(line.item.id) ?? 0) > line.item.quantity) {
      errors[`lines.${line.index}.quantity`] = ["food.errors.only_left"];
      params.left = line.item.quantity;
    }
  }
  const serviceCharge = await cateringCharges(db, lines, request.delivery_type, errors, params);
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  const minimum = Math.max(branch.min_order, area?.min_order ?? 0);
  if (lines.length === request.lines.length && subtotal < minimum) {
    errors.lines ??= ["food.errors.minimum_order"];
    params.minimum = toDecimalString(minimum, currency);
  }

  let discount = 0;
  let voucherId: number | null = null;
  if (request.voucher) {
    const voucher = await findVoucher(db, branch.merchant_id, request.voucher);
    const checked = await checkVoucher(db, voucher, subtotal, phone ?? null);
    if (!checked.ok) {
      errors.voucher = [checked.code];
      Object.assign(params, checked.params ?? {});
      if (checked.params?.minimum !== undefined)
        params.minimum = toDecimalString(Number(checked.params.minimum), currency);
    } else {
      discount = offerDiscount(voucher!, subtotal);
      voucherId = voucher!.id;
    }
  }

  const gateways = await listMerchantGateways(db, branch.merchant_id, { enabledOnly: true });
  const gateway = gateways.find(
    (candidate) => candidate.code === request.gateway_code && supportsCurrency(candidate, currency),
  );
  if (!gateway) errors.gateway_code = ["food.errors.gateway"];

  if (Object.keys(errors).length) return { ok: false, errors, params };
  const deliveryCharge = area?.charge ?? 0;
  return {
    ok: true,
    merchantId: branch.merchant_id,
    branchId: branch.id,
    scheduledFor,
    phone: phone!,
    pgCodes: [gateway!.code],
    cashOnDelivery: gateway!.kind === "cod",
    quote: {
      lines,
      subtotal,
      discount,
      deliveryCharge,
      serviceCharge,
      total: subtotal - discount + deliveryCharge + serviceCharge,
      currency,
      voucherId,
      minimum,
    },
  };
}

/** Thrown inside the write to roll back an order whose portions or voucher ran out meanwhile. */
class TakenMeanwhile extends Error {
  constructor(
    readonly errors: FieldErrors,
    readonly params: TextParams = {},
  ) {
    super("taken meanwhile");
  }
}

/** Takes an item's portions by one conditional update (an unlimited item takes none); false when fewer are left. */
export async function takePortions(trx: DB, itemId: number, quantity: number) {
  const taken = await trx
    .updateTable("food_items")
    .set((eb) => ({ quantity: eb("quantity", "-", quantity) }))
    .where("id", "=", itemId)
    .where("quantity", "is not", null)
    .where("quantity", ">=", quantity)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return true;
  const row = await trx.selectFrom("food_items").select("quantity").where("id", "=", itemId).executeTakeFirst();
  return row !== undefined && row.quantity === null;
}

/** The unpaid orders still holding portions that were placed from an address or a device. */
async function unpaidOrdersFrom(trx: DB, merchantId: number, address: string | null, device: string | null) {
  if (!address && !device) return 0;
  const row = await trx
    .selectFrom("food_orders")
    .select((eb) => eb.fn.countAll<number | string>().as("orders"))
    .where("merchant_id", "=", merchantId)
    .where("status", "=", "pending_payment")
    .where("holds_stock", "=", 1)
    .where((eb) =>
      eb.or([
        ...(address ? [eb("client_address", "=", address)] : []),
        ...(device ? [eb("device_token", "=", device)] : []),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.orders);
}

export type PlacedOrder = {
  id: number;
  number: string;
  /** The order's number for people: its transaction's. */
  order_no: number;
  total: string;
  total_minor: number;
  currency_code: string;
  checkout_url: string | null;
  status: string;
};

/**
 * Places an order: quotes it (nothing taken yet), then in one database transaction takes each
 * item's portions and the voucher's use by conditional updates (so 20 customers racing for the last
 * 5 portions get exactly 5, and a single-use voucher discounts one order), refuses an address or a
 * device already holding MAX_UNPAID_CHECKOUTS unpaid orders (cash on delivery holds nothing unpaid), records the order and
 * its transaction of the section. A card or KNET order then waits on the pay page for its payment
 * (the section's hook confirms it); cash on delivery is recorded at once and needs no payment page.
 */
export async function placeOrder(
  db: DB,
  input: {
    request: CheckoutInput;
    lang: Language;
    baseUrl: string;
    addresses: PlatformAddresses;
    merchantId?: number;
    /** The customer's address and device (their cart's token): each holds only MAX_UNPAID_CHECKOUTS unpaid orders at once. */
    clientAddress?: string | null;
    deviceToken?: string | null;
  },
): Promise<{ ok: true; order: PlacedOrder } | CheckoutRefusal> {
  const quoted = await quoteCheckout(db, input.request, { merchantId: input.merchantId });
  if (!quoted.ok) return quoted;
  const { quote, request } = { quote: quoted.quote, request: input.request };
  const cod = quoted.cashOnDelivery;
  let placed: { id: number; number: string; orderNo: number; transactionId: string };
  try {
    placed = await writeTransaction(db, async (trx) => {
      // Counted as throttles count an address: an IPv6 address by its /64.
      const clientAddress = input.clientAddress ? addressGroup(input.clientAddress) : null;
      if (clientAddress) await lockCheckoutsOf(trx, quoted.merchantId, clientAddress);
      if (
        !cod &&
        (await unpaidOrdersFrom(trx, quoted.merchantId, clientAddress, input.deviceToken ?? null)) >=
          MAX_UNPAID_CHECKOUTS
      ) {
        throw new TakenMeanwhile(
          { non_field_errors: ["food_public.errors.too_many_unpaid"] },
          { max: MAX_UNPAID_CHECKOUTS },
        );
      }
      const asked = new Map<number, { quantity: number; index: number }>();
      for (const line of quote.lines) {
        const entry = asked.get(line.item.id);
        asked.set(line.item.id, {
          quantity: (entry?.quantity ?? 0) + line.quantity,
          index: entry?.index ?? line.index,
        });
      }
      for (const [itemId, { quantity, index }] of [...asked].sort(([a], [b]) => a - b)) {
        if (!(await takePortions(trx, itemId, quantity))) {
          const left = await trx
            .selectFrom("food_items")
            .select("quantity")
            .where("id", "=", itemId)
            .executeTakeFirst();
          throw new TakenMeanwhile(
            { [`lines.${index}.quantity`]: [left?.quantity ? "food.errors.only_left" : "food.errors.sold_out"] },
            { left: left?.quantity ?? 0 },
          );
        }
      }
      if (quote.voucherId !== null) {
        const claimed = await claimOfferCode(trx, VOUCHERS, quote.voucherId, quoted.phone);
        if (!claimed.ok) throw new TakenMeanwhile({ voucher: [claimed.code] });
      }
      const at = nowIso();
      const number = newOrderNumber();
      const transaction = await createTransaction(trx, {
        merchant_id: quoted.merchantId,
        plugin: "food_ordering",
        amount: quote.total,
        currency_code: quote.currency,
        editable_amount: 0,
        customer_email: request.customer_email ?? null,
        customer_phone: quoted.phone,
        customer_first_name: request.customer_name,
        customer_last_name: null,
        description: quote.lines
          .map((line) => `${line.quantity} × ${input.lang === "ar" ? line.item.name_ar : line.item.name_en}`)
          .join(", ")
          .slice(0, 1000),
        remarks: null,
        attachment_path: null,
        attachment_name: null,
        pg_codes: quoted.pgCodes.join(","),
        // Cash on delivery is recorded at once; should that fail, the sweep gives its portions back like an unpaid order's.
        expiration_time: addMs(now(), PAYMENT_HOLD_MS).toISOString(),
        next_url: null,
        initiator_user_id: null,
        gateway_code: null,
        paid_attempt_id: null,
        send_email: 0,
        send_sms: 0,
        extra: JSON.stringify({ order: number }),
      });
      const order = await trx
        .insertInto("food_orders")
        .values({
          merchant_id: quoted.merchantId,
          number,
          order_no: transaction.orderNo,
          branch_id: quoted.branchId,
          delivery_type: request.delivery_type,
          delivery_area_id: request.delivery_type === "delivery" ? (request.delivery_area ?? null) : null,
          scheduled_for: quoted.scheduledFor,
          status: "pending_payment",
          subtotal: quote.subtotal,
          discount: quote.discount,
          delivery_charge: quote.deliveryCharge,
          service_charge: quote.serviceCharge,
          total: quote.total,
          currency_code: quote.currency,
          offer_code_id: quote.voucherId,
          customer_name: request.customer_name,
          customer_email: request.customer_email ?? null,
          customer_phone: quoted.phone,
          customer_key: quoted.phone,
          address: request.delivery_type === "delivery" && request.address ? JSON.stringify(request.address) : null,
          lat: request.address?.delivery_location?.lat ?? null,
          lng: request.address?.delivery_location?.lng ?? null,
          gateway_code: quoted.pgCodes[0],
          transaction_id: transaction.id,
          lang: input.lang,
          holds_stock: 1,
          client_address: clientAddress,
          device_token: input.deviceToken ?? null,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("food_order_lines")
        .values(
          quote.lines.map((line) => ({
            order_id: order.id,
            item_id: line.item.id,
            category_id: line.categoryId,
            name_en: line.item.name_en,
            name_ar: line.item.name_ar,
            size_id: line.size?.id ?? null,
            size_en: line.size?.name_en ?? null,
            size_ar: line.size?.name_ar ?? null,
            add_ons: JSON.stringify(line.addOns),
            options: JSON.stringify(line.options),
            special_instructions: line.specialInstructions,
            quantity: line.quantity,
            unit_price: line.unitPrice,
            line_total: line.lineTotal,
          })),
        )
        .execute();
      await recordAudit(trx, {
        merchantId: quoted.merchantId,
        actor: "customer",
        action: "food_order_placed",
        params: { orderId: order.id, number },
        objectType: "food_order",
        objectId: order.id,
      });
      return { id: order.id, number, orderNo: transaction.orderNo, transactionId: transaction.id };
    });
  } catch (error) {
    if (error instanceof TakenMeanwhile) return { ok: false, errors: error.errors, params: error.params };
    throw error;
  }
  const order = {
    id: placed.id,
    number: placed.number,
    order_no: placed.orderNo,
    total: toDecimalString(quote.total, quote.currency),
    total_minor: quote.total,
    currency_code: quote.currency,
  };
  if (cod) {
    // Cash on delivery: the platform's own gateway records it at once; the hook makes the order new.
    const recorded = await startAttempt(db, {
      transactionId: placed.transactionId,
      gatewayCode: quoted.pgCodes[0],
      submissionToken: `order-${placed.number}`,
      lang: input.lang,
      addresses: input.addresses,
      plugins: ["food_ordering"],
    });
    if (!recorded.ok) {
      // Not recorded (the merchant paused, the method refused): the order ends now and gives back what it took.
      await writeTransaction(db, (trx) =>
        transitionTransaction(trx, placed.transactionId, "expired", { kind: "expired" }, { from: PAYABLE_STATES }),
      );
      return { ok: false, errors: { gateway_code: [recorded.error] }, params: recorded.params ?? {} };
    }
    return { ok: true, order: { ...order, checkout_url: null, status: "new" } };
  }
  return {
    ok: true,
    order: {
      ...order,
      checkout_url: payUrlOf(input.baseUrl, input.lang, placed.transactionId),
      status: "pending_payment",
    },
  };
}
