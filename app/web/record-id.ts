/** A record's id from the path or a form (at most 9 digits, so it fits the database's integers), or null. */
export function recordId(value: string | null | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}
