import zlib from "node:zlib";

/**
 * Reading the one sheet of a merchant's upload, CSV or XLSX, into rows of texts (the first row is
 * the header), and writing rows back as CSV (the error report). No reader is among the project's
 * runtime dependencies (exceljs is for tests only), so XLSX is read here: a zip's central directory,
 * its entries inflated with node:zlib, and the first worksheet's cells with the shared strings.
 */

export type SheetRows = string[][];

/** RFC 4180: quoted fields may hold commas, quotes ("") and line breaks; CRLF, LF or CR ends a record; a BOM is dropped. */
export function parseCsv(text: string): SheetRows {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: SheetRows = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let index = 0;
  const length = source.length;
  while (index < length) {
    const char = source[index];
    if (quoted) {
      if (char === '"') {
        if (source[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
        index++;
        continue;
      }
      field += char;
      index++;
      continue;
    }
    if (char === '"' && field === "") {
      quoted = true;
      index++;
    } else if (char === ",") {
      row.push(field);
      field = "";
      index++;
    } else if (char === "\r" || char === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      index += char === "\r" && source[index + 1] === "\n" ? 2 : 1;
    } else {
      field += char;
      index++;
    }
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** One CSV record: fields with a comma, a quote, a line break or edge spaces are quoted; a leading =, +, - or @ is escaped so spreadsheets do not run it. */
export function csvLine(fields: readonly string[]) {
  return fields
    .map((value) => {
      const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
      return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
    })
    .join(",");
}

/** Rows as a CSV file with a BOM (so spreadsheet programs read Arabic as UTF-8) and CRLF line ends. */
export function toCsv(rows: readonly (readonly string[])[]) {
  return `\ufeff${rows.map(csvLine).join("\r\n")}\r\n`;
}

export class SpreadsheetError extends Error {}

/** Most bytes an entry of the zip may inflate to: a small upload that inflates to gigabytes is refused. */
const MAX_INFLATED = 50 * 1024 * 1024;
/** The columns and rows a menu file may use: far more than the template's, far fewer than a crafted sheet's. */
const MAX_COLUMNS = 64;
const MAX_ROWS = 20_000;

type ZipEntry = { name: string; method: number; compressedSize: number; localOffset: number };

function zipEntries(zip: Buffer): Map<string, ZipEntry> {
  // End of central directory: 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 65_535); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new SpreadsheetError("not a zip");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, ZipEntry>();
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw new SpreadsheetError("broken central directory");
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    entries.set(name, { name, method: zip.readUInt16LE(at + 10), compressedSize: zip.readUInt32LE(at + 20), localOffset: zip.readUInt32LE(at + 42) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

function readEntry(zip: Buffer, entry: ZipEntry): string {
  const local = entry.localOffset;
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new SpreadsheetError("broken local header");
  // The sizes come from the central directory: a streamed zip leaves them 0 in the local header.
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.toString("utf8");
  if (entry.method !== 8) throw new SpreadsheetError("unsupported compression");
  return zlib.inflateRawSync(data, { maxOutputLength: MAX_INFLATED }).toString("utf8");
}

const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeXml(text: string) {
  return text.replace(ENTITY, (_, code: string) => {
    if (code[0] !== "#") return NAMED[code.toLowerCase()];
    const point = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
    return Number.isFinite(point) && point <= 0x10ffff ? String.fromCodePoint(point) : "";
  });
}

/** The text of a shared string or an inline string: its <t> runs joined (rich text has several); phonetic runs left out. */
function runsText(xml: string) {
  let text = "";
  for (const match of xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, "").matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g)) text += match[1] ?? "";
  return unescapeXml(text);
}

function columnIndex(reference: string) {
  let index = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}

/**
 * The first worksheet of an XLSX workbook as rows of texts. Numbers come as the shortest decimal
 * that reads back as the stored double ("2.5", not "2.4999999999999998"); booleans as TRUE/FALSE.
 */
export function readXlsx(file: Buffer): SheetRows {
  const entries = zipEntries(file);
  const sheetEntry =
    entries.get("xl/worksheets/sheet1.xml") ??
    [...entries.values()].filter((entry) => /^xl\/worksheets\/sheet\d+\.xml$/.test(entry.name)).sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }))[0];
  if (!sheetEntry) throw new SpreadsheetError("no worksheet");
  const sharedEntry = entries.get("xl/sharedStrings.xml");
  const shared = sharedEntry ? [...readEntry(file, sharedEntry).matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g)].map((match) => runsText(match[1] ?? "")) : [];
  const sheet = readEntry(file, sheetEntry);
  const rows: SheetRows = [];
  for (const rowMatch of sheet.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const rowNumber = /\br="(\d+)"/.exec(rowMatch[1])?.[1];
    const rowIndex = rowNumber ? Number(rowNumber) - 1 : rows.length;
    if (rowIndex > MAX_ROWS) throw new SpreadsheetError("too many rows");
    const cells: string[] = [];
    for (const cellMatch of (rowMatch[2] ?? "").matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attributes = cellMatch[1];
      const body = cellMatch[2] ?? "";
      const reference = /\br="([A-Z]+)\d*"/.exec(attributes)?.[1];
      const index = reference ? columnIndex(reference) : cells.length;
      if (index < 0 || index >= MAX_COLUMNS) continue;
      const type = /\bt="(\w+)"/.exec(attributes)?.[1] ?? "n";
      const raw = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/.exec(body)?.[1];
      let value = "";
      if (type === "s") value = shared[Number(raw)] ?? "";
      else if (type === "inlineStr") value = runsText(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? "");
      else if (type === "b") value = raw === "1" ? "TRUE" : raw === undefined ? "" : "FALSE";
      else if (type === "n" && raw !== undefined && raw.trim() !== "" && Number.isFinite(Number(raw))) value = decimalText(Number(raw));
      else value = unescapeXml(raw ?? "");
      while (cells.length < index) cells.push("");
      cells[index] = value;
    }
    while (rows.length < rowIndex) rows.push([]);
    rows[rowIndex] = cells;
  }
  return rows;
}

/** A double as plain decimal notation (no exponent): 0.001, 1500, 2.5. */
function decimalText(value: number) {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(Math.min(20, Math.max(0, -Math.floor(Math.log10(Math.abs(value))) + 15))).replace(/\.?0+$/, "");
}

/** Whether the bytes are a zip (an XLSX workbook) rather than text. */
export function looksLikeZip(file: Buffer) {
  return file.length >= 4 && file.readUInt32LE(0) === 0x04034b50;
}
