/** Remarks (spec, both sides): rows split by "~", each row split at its first ":" into a label and a value. */
export function remarkRows(remarks: string | null): [string, string][] {
  if (!remarks) return [];
  return remarks
    .split("~")
    .map((row) => row.trim())
    .filter(Boolean)
    .map((row) => {
      const index = row.indexOf(":");
      return index === -1 ? [row, ""] : [row.slice(0, index).trim(), row.slice(index + 1).trim()];
    });
}
