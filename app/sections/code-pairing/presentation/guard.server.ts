import type { RouterContextProvider } from "react-router";
import { can } from "~/domain/identity/permissions";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { describe } from "~/presentation/texts.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";

type Context = Readonly<RouterContextProvider>;

/** The section's own permissions: to see its codes and sites, and to see a code's paired value (a civil ID…) in full. */
export const VIEW_PERMISSION = "view_pairingcode";
export const REVEAL_PERMISSION = "reveal_pairingcode";

/**
 * Who may open the section's dashboard pages: the merchant has the feature and the user holds the
 * section's view permission (viewing transactions is not enough: the codes are paired with
 * customers' civil IDs); issuing and deactivating codes and changing the sites also take
 * `add_paymenttransaction` (what making a payment request takes: each code makes them), asked again
 * by each action. Paired values are masked unless the user may reveal them (decision 0031).
 */
export async function guardPairingPage(
  context: Context,
  request: Request,
  params: { lang?: string },
  feature: "codes" | "sites",
  write = false,
) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "code_pairing", feature);
  requirePermission(auth, VIEW_PERMISSION);
  if (write) requirePermission(auth, "add_paymenttransaction");
  const lang: Language = isLanguage(params.lang) ? params.lang : "en";
  return {
    auth,
    lang,
    canChange: can(auth.user, "add_paymenttransaction"),
    canReveal: can(auth.user, REVEAL_PERMISSION),
  };
}

/** Field errors as a page shows them: the first message of each field, in the page's language. */
export function fieldMessages(errors: FieldErrors, lang: Language): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, [first]]) => [field, describe(first ?? "errors.required", undefined, lang)]),
  );
}
