/**
 * The form in which customer names are compared by the search (docs/decisions/0019): Latin letters
 * lower-cased, the Arabic letters people write interchangeably made one (أ إ آ ٱ → ا, ة → ه,
 * ى ی → ي, ؤ → و, ئ → ي, ک → ك), tatweel and short vowels dropped, punctuation between words made a
 * space, runs of spaces made one. Migration 0010 computes the same form in SQL when it indexes a
 * transaction's name (its own copy of these steps, as a landed migration never changes), so they are
 * plain character replacements both engines repeat; a test holds the two in step. Changing them means a
 * new migration that re-creates the triggers and rebuilds the terms.
 */
export const NAME_FOLDS: readonly (readonly [string, string])[] = [
  ["أ", "ا"],
  ["إ", "ا"],
  ["آ", "ا"],
  ["ٱ", "ا"],
  ["ة", "ه"],
  ["ى", "ي"],
  ["ی", "ي"],
  ["ؤ", "و"],
  ["ئ", "ي"],
  ["ک", "ك"],
  ["ـ", ""],
  ["\u064B", ""],
  ["\u064C", ""],
  ["\u064D", ""],
  ["\u064E", ""],
  ["\u064F", ""],
  ["\u0650", ""],
  ["\u0651", ""],
  ["\u0652", ""],
  ["\u0670", ""],
  ["-", " "],
  [".", " "],
  ["_", " "],
  ["'", " "],
  [",", " "],
  ["\t", " "],
  ["\n", " "],
  ["\r", " "],
];

/** Space runs up to eight long become one space after this many halvings (the SQL repeats them as often). */
const SPACE_PASSES = 3;

export function nameSearchKey(text: string): string {
  let key = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  for (const [from, to] of NAME_FOLDS) key = key.split(from).join(to);
  for (let pass = 0; pass < SPACE_PASSES; pass++) key = key.split("  ").join(" ");
  return key.replace(/^ +| +$/g, "");
}

/** A word of Arabic letters, with the article and without: "الصباح" and "صباح". */
const ARTICLE = "ال";
const ARABIC_LETTER = /^[\u0621-\u064A]/;

/**
 * The name's forms a search looks for: its form, and the same with the Arabic article added or taken
 * away at its start, so "صباح" finds "الصباح" and "الصباح" finds "صباح". The stored terms stay as they
 * are (each word of a name is a term's start, article included); the search reads one more index range.
 */
export function nameSearchPrefixes(text: string): string[] {
  const key = nameSearchKey(text);
  if (!ARABIC_LETTER.test(key)) return key ? [key] : [];
  if (key.startsWith(ARTICLE))
    return key.length > ARTICLE.length + 1 && ARABIC_LETTER.test(key.slice(ARTICLE.length))
      ? [key, key.slice(ARTICLE.length)]
      : [key];
  return [key, ARTICLE + key];
}
