/**
 * A branch's address as HTML safe to show: only b, i, strong, em, br and p survive, without any
 * attribute; every other tag is dropped (script and style with what they hold), text is escaped,
 * and the tags kept are balanced.
 */
const ALLOWED = new Set(["b", "i", "strong", "em", "br", "p"]);
const DROPPED_WITH_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "noscript",
  "template",
  "textarea",
  "title",
]);

function escapeText(value: string) {
  // Entities already written (&amp; &#1587;) are kept; any other & is escaped.
  return value
    .replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

export function sanitizeAddressHtml(input: string): string {
  let html = input.replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  for (const tag of DROPPED_WITH_CONTENT)
    html = html.replace(new RegExp(`<${tag}\\b[\\s\\S]*?(?:<\\/${tag}\\s*>|$)`, "gi"), "");
  const out: string[] = [];
  const open: string[] = [];
  const tagPattern = /<\s*(\/?)\s*([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g;
  let last = 0;
  for (let match = tagPattern.exec(html); match; match = tagPattern.exec(html)) {
    out.push(escapeText(html.slice(last, match.index)));
    last = match.index + match[0].length;
    const name = match[2].toLowerCase();
    if (!ALLOWED.has(name)) continue;
    if (name === "br") {
      out.push("<br>");
    } else if (match[1]) {
      const at = open.lastIndexOf(name);
      if (at === -1) continue;
      while (open.length > at) out.push(`</${open.pop()}>`);
    } else {
      open.push(name);
      out.push(`<${name}>`);
    }
  }
  out.push(escapeText(html.slice(last)));
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join("").trim();
}

/** The address as plain text (lists, mails): tags become spaces, entities of the escaping undone. */
export function addressText(html: string): string {
  return html
    .replace(/<br>|<\/p>/g, ", ")
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/(,\s*)+$/, "")
    .trim();
}
