import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { toDecimalString } from "~/lib/money";
import { toCsv } from "~/lib/spreadsheet.server";
import type { listCodes } from "../domain/codes.server";
import { displayCode, maskPair } from "../domain/normalize";

type CodeRow = Awaited<ReturnType<typeof listCodes>>[number];

/** A code as the API and the export give it: its paired value masked (last four shown) unless revealed. */
export function serializeCode(row: CodeRow, reveal: boolean) {
  return {
    id: row.id,
    code: displayCode(row.code),
    pair: reveal ? row.pair : maskPair(row.pair),
    amount: toDecimalString(row.amount, row.currency_code),
    currency_code: row.currency_code,
    description: row.description,
    uses: row.uses,
    max_uses: row.max_uses,
    paid: row.paid,
    state: row.state,
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}

/** The codes as a CSV file, headed in the reader's language. */
export function codesCsv(rows: readonly CodeRow[], reveal: boolean, lang: Language) {
  const t = translator(lang);
  const header = [
    t("code_pairing.fields.code"),
    t("code_pairing.fields.pair"),
    t("code_pairing.fields.amount"),
    t("code_pairing.fields.currency_code"),
    t("code_pairing.fields.description"),
    t("code_pairing.codes.uses"),
    t("code_pairing.fields.max_uses"),
    t("code_pairing.codes.state"),
    t("code_pairing.fields.expires_at"),
  ];
  const lines = rows.map((row) => {
    const code = serializeCode(row, reveal);
    return [
      code.code,
      code.pair,
      code.amount,
      code.currency_code,
      code.description,
      String(code.uses),
      String(code.max_uses),
      t(`code_pairing.states.${code.state}`),
      code.expires_at ?? "",
    ];
  });
  return toCsv([header, ...lines]);
}
