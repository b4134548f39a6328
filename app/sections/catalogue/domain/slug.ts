/** A product's address on the shop: lower-case Latin letters, digits and hyphens. */
export const SLUG_PATTERN = /^[a-z0-9-]+$/;
export const SLUG_MAX = 80;

/** A slug suggested from an English name: "Oud Perfume 50ml" → "oud-perfume-50ml"; "" when nothing Latin is left. */
export function slugFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
}
