import type { RouterContextProvider } from "react-router";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage, type Language } from "~/lib/i18n";

/**
 * Who may use the counter: signed in, the merchant has the section, and the user may make payments
 * (`add`: add_paymenttransaction) or see them (`view`: view_paymenttransaction). Checked on every
 * page, action and the state answer.
 */
export async function requireCounter(context: Readonly<RouterContextProvider>, request: Request, need: "add" | "view") {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "pos", "pay");
  requirePermission(auth, need === "add" ? "add_paymenttransaction" : "view_paymenttransaction");
  return auth;
}

export function languageOf(params: { lang?: string }): Language {
  return isLanguage(params.lang) ? params.lang : "en";
}
