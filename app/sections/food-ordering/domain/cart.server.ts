import { z } from "zod";
import type { DB } from "~/db/database.server";
import type { FoodDeliveryType } from "~/db/schema";
import { offerDiscount } from "~/domain/commerce/offer-codes.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { nowIso } from "~/lib/clock.server";
import { newSignedToken, verifySignedToken } from "~/lib/signed-token.server";
import type { TextParams } from "~/lib/outcome";
import { CheckoutLineSchema, type CheckoutLineInput } from "./checkout-schema";
import {
  cateringCharges,
  checkVoucher,
  findVoucher,
  loadMenuItems,
  priceLine,
  type PricedLine,
} from "./pricing.server";
import { findArea, findPublicBranch } from "./public-menu.server";

/*
 * A visitor's cart (public spec §3 food cart), held on the server in food_carts under a random token
 * the browser keeps in a signed cookie. It holds what the visitor chose, never a price: prices are
 * computed from the menu each time the cart is shown (cartSummary) and at checkout (quoteCheckout).
 */

export const CartLineSchema = z.object({
  menu_item: z.number().int().positive(),
  category_id: z.number().int().positive(),
  quantity: z.number().int().min(1).max(999),
  size: z.number().int().positive().nullable(),
  add_ons: z.array(z.number().int().positive()).max(50),
  options: z.record(z.string(), z.union([z.number().int().positive(), z.array(z.number().int().positive()).max(20)])),
  special_instructions: z.string().max(256),
});

export const CartSchema = z.object({
  merchant_id: z.number().int().positive(),
  lines: z.array(CartLineSchema).max(100),
  delivery_type: z.enum(["pickup", "delivery", "catering"]),
  branch: z.number().int().positive().nullable(),
  delivery_area: z.number().int().positive().nullable(),
  voucher: z.string().max(40).nullable(),
  scheduled_for: z.string().max(40).nullable(),
});

export type CartLine = z.infer<typeof CartLineSchema>;
export type Cart = z.infer<typeof CartSchema>;

export const emptyCart = (merchantId: number): Cart => ({
  merchant_id: merchantId,
  lines: [],
  delivery_type: "delivery",
  branch: null,
  delivery_area: null,
  voucher: null,
  scheduled_for: null,
});

/** A new cart token and its signed form (what the cookie holds). */
export const newCartToken = (db: DB) => newSignedToken(db, "food-cart");

/** The token a signed value names, if the signature is ours. */
export const verifyCartToken = (db: DB, signed: string | null) => verifySignedToken(db, "food-cart", signed);

/** The cart under this token; a stored cart that cannot be read is discarded (public spec §8). */
export async function loadCart(db: DB, token: string | null): Promise<Cart | null> {
  if (!token) return null;
  const row = await db
    .selectFrom("food_carts")
    .select(["data", "merchant_id"])
    .where("token", "=", token)
    .executeTakeFirst();
  if (!row) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.data);
  } catch {
    parsed = null;
  }
  const cart = CartSchema.safeParse(parsed);
  if (!cart.success || cart.data.merchant_id !== row.merchant_id) {
    await db.deleteFrom("food_carts").where("token", "=", token).execute();
    return null;
  }
  return cart.data;
}

export async function saveCart(db: DB, token: string, cart: Cart) {
  const data = JSON.stringify(CartSchema.parse(cart));
  const at = nowIso();
  const updated = await db
    .updateTable("food_carts")
    .set({ data, merchant_id: cart.merchant_id, updated_at: at })
    .where("token", "=", token)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db.insertInto("food_carts").values({ token, merchant_id: cart.merchant_id, data, updated_at: at }).execute();
}

/** Carts nobody has touched for this long are removed by removeStaleCarts. */
export const CART_TTL_MS = 14 * 24 * 60 * 60_000;

export async function removeStaleCarts(db: DB, before: string) {
  await db.deleteFrom("food_carts").where("updated_at", "<", before).execute();
}

const sameChoices = (a: CartLine, b: CartLine) => {
  const options = (line: CartLine) =>
    JSON.stringify(
      Object.entries(line.options)
        .map(([group, chosen]) => [group, Array.isArray(chosen) ? [...chosen].sort((x, y) => x - y) : chosen] as const)
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return (
    a.menu_item === b.menu_item &&
    a.size === b.size &&
    a.special_instructions.trim() === b.special_instructions.trim() &&
    JSON.stringify([...new Set(a.add_ons)].sort((x, y) => x - y)) ===
      JSON.stringify([...new Set(b.add_ons)].sort((x, y) => x - y)) &&
    options(a) === options(b)
  );
};

/** Adds a line; an identical one (same item, size, add-ons, options and instructions) takes the quantity instead (public spec §4). */
export function addLine(cart: Cart, line: CartLine): Cart {
  const index = cart.lines.findIndex((existing) => sameChoices(existing, line));
  if (index < 0) return { ...cart, lines: [...cart.lines, line] };
  return {
    ...cart,
    lines: cart.lines.map((existing, at) =>
      at === index ? { ...existing, quantity: Math.min(999, existing.quantity + line.quantity) } : existing,
    ),
  };
}

/** A line's new quantity; 0 removes it. */
export function setLineQuantity(cart: Cart, index: number, quantity: number): Cart {
  if (!cart.lines[index]) return cart;
  if (quantity <= 0) return { ...cart, lines: cart.lines.filter((_, at) => at !== index) };
  return {
    ...cart,
    lines: cart.lines.map((line, at) => (at === index ? { ...line, quantity: Math.min(999, quantity) } : line)),
  };
}

export type Location = { delivery_type: FoodDeliveryType; branch: number | null; delivery_area: number | null };

/**
 * A change of delivery type, branch or area (public spec §4): applied at once to an empty cart (or
 * when nothing changes); a cart with lines asks first (`confirm`), and a confirmed change empties it.
 */
export function changeLocation(
  cart: Cart,
  next: Location,
  confirmed: boolean,
): { kind: "applied"; cart: Cart } | { kind: "confirm" } {
  const area = next.delivery_type === "delivery" ? next.delivery_area : null;
  const changed =
    cart.delivery_type !== next.delivery_type ||
    cart.branch !== next.branch ||
    (cart.delivery_type === "delivery" && cart.delivery_area !== area);
  if (changed && cart.lines.length > 0 && !confirmed) return { kind: "confirm" };
  const lines = changed ? [] : cart.lines;
  return {
    kind: "applied",
    cart: {
      ...cart,
      lines,
      voucher: changed ? null : cart.voucher,
      delivery_type: next.delivery_type,
      branch: next.branch,
      delivery_area: area,
    },
  };
}

/** Whether a location is one the merchant offers: its branch active and offering the type, the area one of the branch's. */
export async function checkLocation(db: DB, merchantId: number, next: Location): Promise<FieldErrors> {
  if (next.branch === null) return {};
  const branch = await findPublicBranch(db, next.branch, merchantId);
  if (!branch) return { branch: ["food.errors.branch"] };
  const offers = { pickup: branch.offers_pickup, delivery: branch.offers_delivery, catering: branch.offers_catering }[
    next.delivery_type
  ];
  if (!offers) return { delivery_type: ["food.errors.delivery_type_unavailable"] };
  if (
    next.delivery_type === "delivery" &&
    next.delivery_area !== null &&
    !(await findArea(db, branch.id, next.delivery_area))
  )
    return { delivery_area: ["food.errors.outside_area"] };
  return {};
}

/** A line chosen on a food details page, checked against the menu (errors keyed by field: size, options…). */
export async function checkNewLine(
  db: DB,
  merchantId: number,
  raw: unknown,
): Promise<{ ok: true; line: CartLine } | { ok: false; errors: FieldErrors }> {
  const parsed = CheckoutLineSchema.safeParse(raw);
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "non_field_errors")] ??= [issue.message];
    return { ok: false, errors };
  }
  const items = await loadMenuItems(db, merchantId, [parsed.data.menu_item]);
  const found: FieldErrors = {};
  const priced = priceLine(items.get(parsed.data.menu_item), parsed.data, 0, found);
  if (!priced) {
    return {
      ok: false,
      errors: Object.fromEntries(Object.entries(found).map(([key, value]) => [key.replace(/^lines\.0\./, ""), value])),
    };
  }
  const item = priced.item;
  if (item.quantity !== null && parsed.data.quantity > item.quantity)
    return { ok: false, errors: { quantity: ["food.errors.only_left"] } };
  return { ok: true, line: toCartLine(parsed.data, item.category_id) };
}

function toCartLine(line: CheckoutLineInput, categoryId: number): CartLine {
  return {
    menu_item: line.menu_item,
    category_id: categoryId,
    quantity: line.quantity,
    size: line.size ?? null,
    add_ons: [...new Set(line.add_ons)].sort((a, b) => a - b),
    options: line.options,
    special_instructions: line.special_instructions,
  };
}

/** The cart's lines as the checkout takes them. */
export function checkoutLines(cart: Cart): CheckoutLineInput[] {
  return cart.lines.map((line) => ({ ...line, size: line.size ?? undefined }));
}

export type CartSummary = {
  lines: (PricedLine | null)[];
  lineErrors: Record<number, string>;
  subtotal: number;
  discount: number;
  deliveryCharge: number;
  serviceCharge: number;
  total: number;
  minimum: number;
  voucherError: { code: string; params?: TextParams } | null;
  count: number;
};

/**
 * The cart priced from the menu now (what the menu and checkout pages show): each line by priceLine,
 * the area's delivery charge, catering's service charges, the voucher's discount when it applies.
 * The order itself is priced again by quoteCheckout when placed.
 */
export async function cartSummary(db: DB, cart: Cart): Promise<CartSummary> {
  const items = await loadMenuItems(
    db,
    cart.merchant_id,
    cart.lines.map((line) => line.menu_item),
  );
  const errors: FieldErrors = {};
  const lines = checkoutLines(cart).map((line, index) => priceLine(items.get(line.menu_item), line, index, errors));
  const priced = lines.filter((line): line is PricedLine => line !== null);
  const lineErrors: Record<number, string> = {};
  for (const [key, [first]] of Object.entries(errors)) {
    const match = /^lines\.(\d+)\./.exec(key);
    if (match && first) lineErrors[Number(match[1])] ??= first;
  }
  const subtotal = priced.reduce((sum, line) => sum + line.lineTotal, 0);
  const serviceCharge = await cateringCharges(db, priced, cart.delivery_type, {}, {});
  let deliveryCharge = 0;
  let minimum = 0;
  if (cart.branch !== null) {
    const branch = await findPublicBranch(db, cart.branch, cart.merchant_id);
    minimum = branch?.min_order ?? 0;
    if (branch && cart.delivery_type === "delivery" && cart.delivery_area !== null) {
      const area = await findArea(db, branch.id, cart.delivery_area);
      if (area) {
        deliveryCharge = area.charge;
        minimum = Math.max(minimum, area.min_order);
      }
    }
  }
  let discount = 0;
  let voucherError: CartSummary["voucherError"] = null;
  if (cart.voucher) {
    const voucher = await findVoucher(db, cart.merchant_id, cart.voucher);
    const checked = await checkVoucher(db, voucher, subtotal, null);
    if (checked.ok) discount = offerDiscount(voucher!, subtotal);
    else voucherError = { code: checked.code, params: checked.params };
  }
  return {
    lines,
    lineErrors,
    subtotal,
    discount,
    deliveryCharge,
    serviceCharge,
    total: subtotal - discount + deliveryCharge + serviceCharge,
    minimum,
    voucherError,
    count: cart.lines.reduce((sum, line) => sum + line.quantity, 0),
  };
}

/** Public spec §5 beyond the checkout's schema: a custom address name (≤ 15) when the address is Custom, a PACI of at most 8 digits. */
export function addressRules(
  address: { address?: string; custom_address?: string; paci_no?: string } | undefined,
): FieldErrors {
  const errors: FieldErrors = {};
  if (!address) return errors;
  if (address.address === "Custom") {
    if (!address.custom_address) errors["address.custom_address"] = ["errors.required"];
    else if (address.custom_address.length > 15)
      errors["address.custom_address"] = ["food_public.errors.custom_address"];
  }
  if (address.paci_no && !/^\d{1,8}$/.test(address.paci_no)) errors["address.paci_no"] = ["food_public.errors.paci"];
  return errors;
}

/** The cart emptied once its order is placed: its lines and voucher go, the place chosen stays. */
export const afterOrder = (cart: Cart): Cart => ({ ...cart, lines: [], voucher: null, scheduled_for: null });
