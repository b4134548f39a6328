import { data } from "react-router";
import type { DB } from "~/db/database.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { isLanguage, type Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { emptyCart, loadCart, newCartToken, saveCart, verifyCartToken, type Cart } from "../../domain/cart.server";
import { defaultFoodMerchant, merchantExists } from "../../domain/public-menu.server";
import { cartCookie, readCartCookie } from "./cart-cookie.server";

/** The page's language from its path. */
export function languageOf(params: { lang?: string }): Language {
  return isLanguage(params.lang) ? params.lang : "en";
}

const idOf = (value: string | null | undefined) => (value && /^\d{1,10}$/.test(value) ? Number(value) : undefined);

export type Visitor = { db: DB; token: string | null; cart: Cart; merchantId: number };

/**
 * The visitor's cart and the merchant the pages show: `?merchant=` when given (a cart of another
 * merchant starts over for it), else the cart's, else the installation's first merchant with
 * branches; 404 when there is none.
 */
export async function loadVisitor(db: DB, request: Request): Promise<Visitor> {
  const token = await verifyCartToken(db, readCartCookie(request));
  const stored = await loadCart(db, token);
  const asked = idOf(new URL(request.url).searchParams.get("merchant"));
  let merchantId =
    asked !== undefined && (await merchantExists(db, asked))
      ? asked
      : (stored?.merchant_id ?? (await defaultFoodMerchant(db)));
  if (merchantId === null || merchantId === undefined) throw data(null, { status: 404 });
  merchantId = Number(merchantId);
  const cart = stored && stored.merchant_id === merchantId ? stored : emptyCart(merchantId);
  return { db, token, cart, merchantId };
}

/** Keeps the visitor's cart; answers the Set-Cookie header when the visitor had no cart yet. */
export async function storeCart(visitor: Visitor, request: Request, cart: Cart): Promise<HeadersInit | undefined> {
  if (visitor.token) {
    await saveCart(visitor.db, visitor.token, cart);
    return undefined;
  }
  const fresh = await newCartToken(visitor.db);
  await saveCart(visitor.db, fresh.token, cart);
  return { "Set-Cookie": cartCookie(request, fresh.signed) };
}

export function unitHeader(db: DB, merchantId: number, lang: Language) {
  return loadUnitHeader(db, { merchant_id: merchantId, unit_id: null }, lang);
}

/** Field errors as the page shows them: the first message of each field, in the page's language. */
export function fieldMessages(
  errors: FieldErrors,
  params: TextParams | undefined,
  lang: Language,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, [first]]) => [field, describe(first ?? "errors.required", params, lang)]),
  );
}

export const positiveId = idOf;
