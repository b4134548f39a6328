import { randomInt } from "node:crypto";
import { addressGroup } from "~/domain/identity/throttle.server";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";
import { engineOf, lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { claimOfferCode } from "~/domain/commerce/offer-codes.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { createTransaction, transitionTransaction } from "~/domain/payments/transaction-state.server";
import { MAX_UNPAID_CHECKOUTS } from "~/domain/payments/unpaid-holds.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import type { CheckoutInput } from "./checkout-schema.server";
import { heldUnitsOf } from "./orders.server";
import {
  DISCOUNTS,
  priceItems,
  shortProblem,
  zeroTotalProblem,
  type Held,
  type Problems,
  type Quote,
} from "./pricing.server";
import { loadShop, nameIn, storesCarrying, type PublicStore, type Shop } from "./shop.server";
import { takeUnits } from "./stock.server";

/**
 * How long an order's units stay reserved while the customer pays, once a payment attempt has
 * started; before that, only UNPAID_HOLD_MS (the sweep, orders.server.ts).
 */
export const PAYMENT_HOLD_MS = 15 * 60_000;

/**
 * The most units of limited stock the unpaid orders of one address may hold in a shop at once. Many
 * phones share an address behind a carrier's gateway, so it is generous: it stops one visitor from
 * holding a whole shop, not a crowd from buying.
 */
export const MAX_HELD_PER_ADDRESS = 60;

const NUMBER_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * An order's public key: 20 characters of 31 (99 bits), unguessable (the customer's pages name the order
 * by it). People read the order by its transaction's short order number (`orderNo`), never by this.
 */
export function newOrderNumber() {
  let number = "";
  for (let index = 0; index < 20; index++) number += NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)];
  return number;
}

/** "+96550001234" for a valid phone typed with or without its country code. */
export function normalizePhone(value: string, country: string) {
  const parsed = parsePhoneNumberFromString(value, (country.toUpperCase() as CountryCode) || "KW");
  return parsed?.isValid() ? parsed.number : undefined;
}

/** The payment methods a shop offers: the merchant's enabled gateways for the shop's currency (cash on delivery is not one). */
export async function shopGateways(db: DB, shop: Shop, lang: Language) {
  const gateways = await listMerchantGateways(db, shop.merchantId, { enabledOnly: true });
  return gateways
    .filter((gateway) => gateway.kind !== "cod" && supportsCurrency(gateway, shop.currency))
    .map((gateway) => ({
      code: gateway.code,
      name: lang === "ar" ? gateway.name_ar : gateway.name_en,
      logo_url: gateway.logo_url,
    }));
}

export type CheckoutRefusal = { ok: false; problems: Problems };
export type QuotedCheckout = {
  ok: true;
  shop: Shop;
  quote: Quote;
  phone: string | null;
  store: PublicStore | null;
  gatewayCode: string;
};

/**
 * Everything a checkout is checked against before anything is taken: each line priced from the
 * products now (and not above what is left), the discount code, the phone, the store (one that
 * carries every item), the payment method (one of the shop's), the terms when the page asks for them,
 * and a total above 0. Units the visitor's own unpaid order holds (`held`) count as left for them.
 */
export async function quoteCheckout(
  db: DB,
  merchantId: number,
  input: CheckoutInput,
  options: { requireTerms?: boolean; lang?: Language; held?: Held } = {},
): Promise<QuotedCheckout | CheckoutRefusal> {
  const shop = await loadShop(db, merchantId);
  if (!shop) return { ok: false, problems: { non_field_errors: { code: "catalogue_public.errors.shop_not_found" } } };
  const { quote, problems } = await priceItems(db, shop, input.items, input.discount_code || null, options.held);
  if (!Object.keys(problems).some((key) => key.startsWith("items") || key === "discount_code"))
    Object.assign(problems, zeroTotalProblem(quote));
  let phone: string | null = null;
  if (input.customer_phone) {
    phone = normalizePhone(input.customer_phone, shop.country) ?? null;
    if (!phone) problems.customer_phone = { code: "errors.invalid_phone" };
  }
  let store: PublicStore | null = null;
  if (input.store !== null) {
    const stores = await storesCarrying(
      db,
      merchantId,
      quote.lines.map((line) => line.product.id),
    );
    store = stores.find((candidate) => candidate.id === input.store) ?? null;
    if (!store) problems.store = { code: "catalogue_public.errors.store" };
  }
  const gateways = await shopGateways(db, shop, options.lang ?? "en");
  if (!gateways.some((gateway) => gateway.code === input.gateway_code))
    problems.gateway_code = { code: "catalogue_public.errors.gateway" };
  const terms =
    options.lang === "ar"
      ? shop.settings.terms_ar || shop.settings.terms_en
      : shop.settings.terms_en || shop.settings.terms_ar;
  if (options.requireTerms && terms.trim() && !input.accept_terms)
    problems.accept_terms = { code: "catalogue_public.errors.terms" };
  if (Object.keys(problems).length) return { ok: false, problems };
  return { ok: true, shop, quote, phone, store, gatewayCode: input.gateway_code };
}

/** Thrown inside the write to roll back an order whose units or discount ran out meanwhile. */
class TakenMeanwhile extends Error {
  constructor(readonly problems: Problems) {
    super("taken meanwhile");
  }
}

export type PlacedOrder = {
  id: number;
  number: string;
  /** The order's number for people: its transaction's. */
  orderNo: number;
  transactionId: string;
  total: number;
  currency: string;
  checkoutUrl: string;
};

/**
 * Places an order: checks and prices it (nothing taken yet), then in one database transaction takes
 * the merchant's lock, ends the same cart's earlier unpaid order (its units come back first, so the
 * customer checking out again is never blocked by their own hold, nor holds twice), takes each
 * product's units by conditional updates in product id order and the discount's use (so 30 customers
 * racing for the last 10 units get exactly 10, and a discount is never used more than allowed),
 * refuses an address or a cart already holding MAX_UNPAID_CHECKOUTS unpaid orders, and an address
 * holding more than MAX_HELD_PER_ADDRESS units, records the order, its lines
 * (each remembering whether it took units) and its transaction of the catalogue section, due when
 * the hold ends. The customer then pays on the platform's pay page; the section's hook settles it.
 */
export async function placeOrder(
  db: DB,
  input: {
    merchantId: number;
    request: CheckoutInput;
    lang: Language;
    baseUrl: string;
    requireTerms?: boolean;
    cartToken?: string | null;
    previousOrder?: string | null;
    /** The customer's address: the units it holds at once are capped. */
    clientAddress?: string | null;
  },
): Promise<{ ok: true; order: PlacedOrder } | CheckoutRefusal> {
  // Counted as throttles count an address: an IPv6 address by its /64.
  input = { ...input, clientAddress: input.clientAddress ? addressGroup(input.clientAddress) : null };
  const held = await heldUnitsOf(db, input.merchantId, input.previousOrder);
  const quoted = await quoteCheckout(db, input.merchantId, input.request, {
    requireTerms: input.requireTerms,
    lang: input.lang,
    held,
  });
  if (!quoted.ok) return quoted;
  const { quote, shop, store } = quoted;
  const request = input.request;
  try {
    const placed = await writeTransaction(db, async (trx) => {
      await lockMerchant(trx, input.merchantId);
      const asked = new Map<number, { quantity: number; index: number }>();
      for (const line of quote.lines) {
        const entry = asked.get(line.product.id);
        asked.set(line.product.id, {
          quantity: (entry?.quantity ?? 0) + line.quantity,
          index: entry?.index ?? line.index,
        });
      }
      if (input.previousOrder) await endPreviousOrder(trx, input.merchantId, input.previousOrder, [...asked.keys()]);
      if (
        (await unpaidOrdersFrom(trx, input.merchantId, input.clientAddress, input.cartToken)) >= MAX_UNPAID_CHECKOUTS
      ) {
        throw new TakenMeanwhile({
          items: { code: "catalogue_public.errors.too_many_unpaid", params: { max: MAX_UNPAID_CHECKOUTS } },
        });
      }
      const reserved = new Set<number>();
      for (const [productId, { quantity, index }] of [...asked].sort(([a], [b]) => a - b)) {
        const taken = await takeUnits(trx, productId, quantity);
        if (!taken.ok) throw new TakenMeanwhile({ [`items.${index}.quantity`]: shortProblem(taken.left) });
        if (taken.taken) reserved.add(productId);
      }
      if (input.clientAddress && reserved.size) {
        const adding = [...reserved].reduce((sum, productId) => sum + asked.get(productId)!.quantity, 0);
        if ((await unitsHeldFrom(trx, input.merchantId, input.clientAddress)) + adding > MAX_HELD_PER_ADDRESS) {
          throw new TakenMeanwhile({
            items: { code: "catalogue_public.errors.too_many_held", params: { max: MAX_HELD_PER_ADDRESS } },
          });
        }
      }
      const claimed = quote.discountRow && (await claimOfferCode(trx, DISCOUNTS, quote.discountRow.id, null));
      if (claimed && !claimed.ok) throw new TakenMeanwhile({ discount_code: { code: claimed.code } });
      const at = nowIso();
      const holdUntil = addMs(now(), PAYMENT_HOLD_MS).toISOString();
      const number = newOrderNumber();
      const lines = quote.lines.map((line) => ({
        slug: line.product.slug,
        sku: line.product.sku,
        name_en: line.product.name_en,
        name_ar: line.product.name_ar,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        line_total: line.lineTotal,
      }));
      const transaction = await createTransaction(trx, {
        merchant_id: input.merchantId,
        plugin: "catalogue",
        amount: quote.total,
        currency_code: shop.currency,
        editable_amount: 0,
        customer_email: request.customer_email,
        customer_phone: quoted.phone,
        customer_first_name: request.customer_name,
        customer_last_name: null,
        description: lines
          .map((line) => `${line.quantity} × ${nameIn(line, input.lang)}`)
          .join(", ")
          .slice(0, 1000),
        remarks: null,
        attachment_path: null,
        attachment_name: null,
        pg_codes: quoted.gatewayCode,
        expiration_time: holdUntil,
        next_url: null,
        initiator_user_id: null,
        gateway_code: null,
        paid_attempt_id: null,
        send_email: 0,
        send_sms: 0,
        // What the order bought and where it is collected, as the transaction's details show it
        // (section.server.ts); the hook keeps its status up to date (orders.server.ts).
        extra: JSON.stringify({
          order: number,
          status: "pending_payment",
          lines,
          subtotal: quote.subtotal,
          discount: quote.discount,
          discount_code: quote.discountRow?.code ?? null,
          store: store
            ? {
                id: store.id,
                name_en: store.name_en,
                name_ar: store.name_ar,
                address_en: store.address_en,
                address_ar: store.address_ar,
              }
            : null,
        }),
      });
      const order = await trx
        .insertInto("catalogue_orders")
        .values({
          merchant_id: input.merchantId,
          number,
          order_no: transaction.orderNo,
          status: "pending_payment",
          subtotal: quote.subtotal,
          discount: quote.discount,
          total: quote.total,
          currency_code: shop.currency,
          offer_code_id: quote.discountRow?.id ?? null,
          store_id: store?.id ?? null,
          customer_name: request.customer_name,
          customer_email: request.customer_email,
          customer_phone: quoted.phone,
          gateway_code: quoted.gatewayCode,
          transaction_id: transaction.id,
          lang: input.lang,
          holds_stock: 1,
          hold_until: holdUntil,
          cart_token: input.cartToken ?? null,
          client_address: input.clientAddress?.slice(0, 100) ?? null,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("catalogue_order_lines")
        .values(
          quote.lines.map((line) => ({
            order_id: order.id,
            product_id: line.product.id,
            slug: line.product.slug,
            sku: line.product.sku,
            name_en: line.product.name_en,
            name_ar: line.product.name_ar,
            quantity: line.quantity,
            unit_price: line.unitPrice,
            line_total: line.lineTotal,
            reserved: reserved.has(line.product.id) ? 1 : 0,
          })),
        )
        .execute();
      await recordAudit(trx, {
        merchantId: input.merchantId,
        actor: "customer",
        action: "catalogue_order_placed",
        params: { orderId: order.id, number },
        objectType: "catalogue_order",
        objectId: order.id,
      });
      return { id: order.id, number, orderNo: transaction.orderNo, transactionId: transaction.id };
    });
    return {
      ok: true,
      order: {
        ...placed,
        total: quote.total,
        currency: shop.currency,
        checkoutUrl: payUrlOf(input.baseUrl, input.lang, placed.transactionId),
      },
    };
  } catch (error) {
    if (error instanceof TakenMeanwhile) return { ok: false, problems: error.problems };
    throw error;
  }
}

/** The unpaid orders still holding stock that were placed from an address or from a visitor's cart (its device). */
async function unpaidOrdersFrom(
  trx: DB,
  merchantId: number,
  address: string | null | undefined,
  cartToken: string | null | undefined,
) {
  if (!address && !cartToken) return 0;
  const row = await trx
    .selectFrom("catalogue_orders")
    .select((eb) => eb.fn.countAll<number | string>().as("orders"))
    .where("merchant_id", "=", merchantId)
    .where("status", "=", "pending_payment")
    .where("holds_stock", "=", 1)
    .where((eb) =>
      eb.or([
        ...(address ? [eb("client_address", "=", address.slice(0, 100))] : []),
        ...(cartToken ? [eb("cart_token", "=", cartToken)] : []),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.orders);
}

/** Units of limited stock the unpaid orders placed from an address hold in the shop now. */
async function unitsHeldFrom(trx: DB, merchantId: number, address: string) {
  const row = await trx
    .selectFrom("catalogue_orders")
    .innerJoin("catalogue_order_lines", "catalogue_order_lines.order_id", "catalogue_orders.id")
    .select((eb) => eb.fn.sum<number | string | null>("catalogue_order_lines.quantity").as("units"))
    .where("catalogue_orders.merchant_id", "=", merchantId)
    .where("catalogue_orders.client_address", "=", address.slice(0, 100))
    .where("catalogue_orders.holds_stock", "=", 1)
    .where("catalogue_orders.status", "=", "pending_payment")
    .where("catalogue_order_lines.reserved", "=", 1)
    .executeTakeFirst();
  return Number(row?.units ?? 0);
}

/**
 * Inside a checkout's database transaction: the cart's earlier unpaid order ends (its transaction
 * expires and the hook gives its units back) before the new order takes any. Its transaction row and
 * then every product either order touches are locked first, in id order, as the sweep and the
 * payments lock them, so that concurrent writers wait instead of deadlocking.
 */
async function endPreviousOrder(trx: DB, merchantId: number, number: string, productIds: number[]) {
  const order = await trx
    .selectFrom("catalogue_orders")
    .select(["id", "transaction_id", "status"])
    .where("merchant_id", "=", merchantId)
    .where("number", "=", number)
    .executeTakeFirst();
  if (!order?.transaction_id || order.status !== "pending_payment") return;
  if (engineOf(trx) === "postgres") {
    await trx.selectFrom("transactions").select("id").where("id", "=", order.transaction_id).forUpdate().execute();
    const own = await trx
      .selectFrom("catalogue_order_lines")
      .select("product_id")
      .where("order_id", "=", order.id)
      .execute();
    const ids = [...new Set([...productIds, ...own.map((line) => line.product_id)])];
    if (ids.length)
      await trx
        .selectFrom("catalogue_products")
        .select("id")
        .where("id", "in", ids)
        .orderBy("id")
        .forUpdate()
        .execute();
  }
  await transitionTransaction(trx, order.transaction_id, "expired", { kind: "expired" }, { from: PAYABLE_STATES });
}

/** The order's total as the API answers it. */
export const decimalTotal = (order: Pick<PlacedOrder, "total" | "currency">) =>
  toDecimalString(order.total, order.currency);
