import type { RouterContextProvider } from "react-router";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage, type Language } from "~/lib/i18n";

/**
 * Who may use the counter: signed in, the merchant has the section, and the user may see payments
 * (view_paymenttransaction) and, to make them (`add`), also add_paymenttransaction: a payment made
 * at the counter leads straight to its own page, which only someone who may see it can follow.
 * Checked on every page, action and the state answer.
 */
export async function requireCounter(context: Readonly<RouterContextProvider>, request: Request, need: "add" | "view") {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "pos", "pay");
  requirePermission(auth, "view_paymenttransaction");
  if (need === "add") requirePermission(auth, "add_paymenttransaction");
  return auth;
}

export function languageOf(params: { lang?: string }): Language {
  return isLanguage(params.lang) ? params.lang : "en";
}
