/** What every point-of-sale page shares with the browser: its cache rule and its window title. */

type LayoutData = { texts?: { pos?: { titles?: Record<string, string> } } };

/** The pages are about one sale at a time, and a form of theirs must not come back from a cache. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/**
 * A page title from the section's words, which the section's layout carries (`pos.titles.*`); the
 * dashboard's own title when they are not there (an error page).
 */
export function posTitle(
  matches: readonly unknown[],
  key: string,
  values: Record<string, string> = {},
): { title: string }[] {
  const layout = matches.find((match) => (match as { id?: string } | undefined)?.id === "pos-layout") as
    { data?: LayoutData; loaderData?: LayoutData } | undefined;
  const text = (layout?.loaderData ?? layout?.data)?.texts?.pos?.titles?.[key];
  return text ? [{ title: text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? "") }] : [];
}
