/**
 * KNET's wire format (Merchant Integration Manual K-064 v1.4 and KNET's PHP sample), shared by the
 * platform's adapter and the sandbox that stands in for KNET:
 * - payment initialisation: a plain "k=v&k=v" string in the sample's order, values as they are,
 *   encrypted with AES-128-CBC where the terminal's 16-character resource key is both the key and
 *   the IV, PKCS#5 padded, hex-encoded (lowercase out, either case in);
 * - the result KNET posts to responseURL: the same encryption of a form-encoded string
 *   (`result=NOT+CAPTURED`);
 * - inquiry and refund ("raw" tranPipe calls): sibling XML elements both ways, unencrypted, over TLS.
 */
import { createCipheriv, createDecipheriv } from "node:crypto";

export const KNET_CURRENCY_KWD = "414";

export const KNET_ACTIONS = {
  purchase: "1",
  refund: "2",
  authorization: "4",
  inquiry: "8",
} as const;

/** What `transid` holds in an inquiry or refund, named in `udf5`. */
export type KnetTransIdKind = "TrackID" | "TransID" | "PaymentID" | "SeqNum";

export type KnetParams = Record<string, string>;

function keyBytes(resourceKey: string): Buffer {
  const key = Buffer.from(resourceKey, "utf8");
  if (key.length !== 16) throw new Error("A KNET resource key is 16 characters long");
  return key;
}

export function encryptTrandata(plain: string, resourceKey: string): string {
  const key = keyBytes(resourceKey);
  const cipher = createCipheriv("aes-128-cbc", key, key);
  return Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]).toString("hex");
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Throws on anything that is not a whole number of hex-encoded blocks decrypting to valid UTF-8. */
export function decryptTrandata(hex: string, resourceKey: string): string {
  if (hex.length > 16_384 || !/^(?:[0-9a-fA-F]{32})+$/.test(hex))
    throw new Error("trandata is not hex-encoded AES blocks");
  const key = keyBytes(resourceKey);
  const decipher = createDecipheriv("aes-128-cbc", key, key);
  // A wrong key almost always breaks the padding; when it does not, the text is rarely valid UTF-8.
  const plain = Buffer.concat([decipher.update(Buffer.from(hex, "hex")), decipher.final()]);
  return strictUtf8.decode(plain);
}

/** The fields of a payment initialisation, in the order KNET's sample sends them. */
export type KnetInitFields = {
  id: string;
  password: string;
  action: string;
  langid: "EN" | "AR";
  currencycode: string;
  amt: string;
  responseURL: string;
  errorURL: string;
  trackid: string;
  udf1?: string;
  udf2?: string;
  udf3?: string;
  udf4?: string;
  udf5?: string;
};

const INIT_ORDER = [
  "id",
  "password",
  "action",
  "langid",
  "currencycode",
  "amt",
  "responseURL",
  "errorURL",
  "trackid",
  "udf1",
  "udf2",
  "udf3",
  "udf4",
  "udf5",
] as const;

/** A value KNET's string can carry as it is: no separator, no line break (the manual's rule for UDFs). */
function plainValue(name: string, value: string) {
  if (/[&\r\n]/.test(value)) throw new Error(`KNET's ${name} cannot hold "&" or a line break`);
  return value;
}

/** The initialisation string exactly as KNET's sample builds it: values as they are, not URL-encoded. */
export function buildInitParams(fields: KnetInitFields): string {
  return INIT_ORDER.map((name) => `${name}=${plainValue(name, fields[name] ?? "")}`).join("&");
}

/** Reads a plain "k=v&k=v" string as KNET reads the initialisation: split, never decoded. */
export function parsePlainParams(text: string): KnetParams {
  const params: KnetParams = {};
  for (const pair of text.split("&")) {
    const at = pair.indexOf("=");
    if (at > 0) params[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return params;
}

/** KNET's result string, form-encoded as in the manual's samples (`result=NOT+CAPTURED`). */
export function buildResultParams(record: KnetParams): string {
  return new URLSearchParams(record).toString();
}

/** Reads KNET's result string; `+` and %-escapes are decoded, a malformed escape is kept as it is. */
export function parseResultParams(text: string): KnetParams {
  return Object.fromEntries(new URLSearchParams(text));
}

export function encryptResult(record: KnetParams, resourceKey: string): string {
  return encryptTrandata(buildResultParams(record), resourceKey);
}

export function decryptResult(hex: string, resourceKey: string): KnetParams {
  return parseResultParams(decryptTrandata(hex, resourceKey));
}

/* ------------------------------------------------------------------------------------------------
 * tranPipe's XML: flat sibling elements holding text. Written with escapes; read by one linear
 * scan over a bounded text, so no input (unclosed tags, nesting, a flood of '<') costs more than
 * one pass.
 * --------------------------------------------------------------------------------------------- */

/** The largest tranPipe document read; KNET's answers are a few hundred bytes. */
export const KNET_XML_MAX_CHARS = 64 * 1024;

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function buildTranPipeXml(fields: KnetParams): string {
  return Object.entries(fields)
    .map(([name, value]) => {
      if (!/^[A-Za-z][A-Za-z0-9_]{0,31}$/.test(name)) throw new Error(`Not an element name: ${name}`);
      return `<${name}>${value.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!)}</${name}>`;
    })
    .join("");
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos);/g, (whole, entity: string) => {
    if (!entity.startsWith("#")) return NAMED_ENTITIES[entity]!;
    const code = entity[1] === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function isNameChar(code: number) {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 45 ||
    code === 46
  );
}

/**
 * The text of each `<name>text</name>` found in order (the first of a name wins). Anything else —
 * an element holding other elements, a comment, an unclosed tag — is stepped over. Throws on a
 * document over KNET_XML_MAX_CHARS.
 */
export function readTranPipeXml(xml: string): KnetParams {
  if (xml.length > KNET_XML_MAX_CHARS) throw new Error("The tranPipe answer is too large");
  const found: KnetParams = {};
  let open: { name: string; textStart: number } | null = null;
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf("<", at);
    if (lt === -1) break;
    let cursor = lt + 1;
    const closing = xml.charCodeAt(cursor) === 47; // "/"
    if (closing) cursor++;
    const nameStart = cursor;
    while (cursor < xml.length && isNameChar(xml.charCodeAt(cursor))) cursor++;
    const name = xml.slice(nameStart, cursor);
    // Only "<name>" and "</name>" exactly count; attributes, comments and declarations do not.
    if (!name || xml[cursor] !== ">") {
      open = null;
      at = lt + 1;
      continue;
    }
    if (closing) {
      if (open && open.name === name && !(name in found))
        found[name] = decodeEntities(xml.slice(open.textStart, lt)).trim();
      open = null;
    } else {
      open = { name, textStart: cursor + 1 };
    }
    at = cursor + 1;
  }
  return found;
}
