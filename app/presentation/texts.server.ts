import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import {
  isListParam,
  isMoneyParam,
  isNameParam,
  isWordParam,
  type NameParam,
  type TextParams,
  type WordParam,
} from "~/lib/outcome";
import type { Texts } from "~/lib/texts.server";

/** Parameters as a message shows them in `lang`: amounts with their currency, the rest as text. */
export function formatParams(params: TextParams | undefined, lang: Language): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === null || value === undefined) values[name] = "";
    else if (isMoneyParam(value)) values[name] = formatAmount(value.minor, value.currency, lang);
    else if (isWordParam(value) || isNameParam(value)) values[name] = wordOrName(value, lang);
    else if (isListParam(value))
      values[name] = value.list
        .map((item) => (typeof item === "string" ? item : wordOrName(item, lang)))
        .join(lang === "ar" ? "، " : ", ");
    else values[name] = String(value);
  }
  return values;
}

function wordOrName(value: WordParam | NameParam, lang: Language): string {
  if (isWordParam(value))
    return translator(lang)(value.word, value.otherwise === undefined ? undefined : { defaultValue: value.otherwise });
  return value[lang] || value.en;
}

/** A code (a translation key) with its parameters, in the reader's language. */
export function describe(code: string, params: TextParams | undefined, lang: Language): string {
  return translator(lang)(code, formatParams(params, lang));
}

/** The port through which the domain has its mails, messages, notices and audit lines written (lib/texts.server.ts). */
export const platformTexts: Texts = { line: describe };
