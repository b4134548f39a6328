import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import { isMoneyParam, isWordParam, type TextParams } from "~/lib/outcome";
import type { Texts } from "~/lib/texts.server";

/** Parameters as a message shows them in `lang`: amounts with their currency, the rest as text. */
export function formatParams(params: TextParams | undefined, lang: Language): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === null || value === undefined) values[name] = "";
    else if (isMoneyParam(value)) values[name] = formatAmount(value.minor, value.currency, lang);
    else if (isWordParam(value)) values[name] = translator(lang)(value.word);
    else values[name] = String(value);
  }
  return values;
}

/** A code (a translation key) with its parameters, in the reader's language. */
export function describe(code: string, params: TextParams | undefined, lang: Language): string {
  return translator(lang)(code, formatParams(params, lang));
}

/** The port through which the domain has its mails, messages, notices and audit lines written (lib/texts.server.ts). */
export const platformTexts: Texts = { line: describe };
