import { Worker } from "node:worker_threads";
import zlib from "node:zlib";

/**
 * Reading the one sheet of a merchant's upload, CSV or XLSX, into rows of texts (the first row is
 * the header), and writing rows back as CSV (the error report). No reader is among the project's
 * runtime dependencies (exceljs is for tests only), so XLSX is read here: a zip's central directory,
 * its entries inflated with node:zlib, and the first worksheet's cells with the shared strings.
 */

export type SheetRows = string[][];

/**
 * A CSV file's text, or null when its bytes are not UTF-8: Excel's plain "CSV" on an Arabic system
 * is Windows-1256, and read as UTF-8 its Arabic would be imported garbled, so it is refused with a
 * word on how to save it instead (decision 0027).
 */
export function decodeCsvBytes(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

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
/** How long a workbook may take to read before it is refused: a real one takes well under a second. */
const READ_DEADLINE_MS = 10_000;

/**
 * The first worksheet of an XLSX workbook as rows of texts. Numbers come as the shortest decimal
 * that reads back as the stored double ("2.5", not "2.4999999999999998"); booleans as TRUE/FALSE.
 * This runs on the caller's thread: uploads are read with readXlsxApart.
 */
export function readXlsx(file: Buffer): SheetRows {
  try {
    return readWorkbook(file, (data, limit) => zlib.inflateRawSync(data, { maxOutputLength: limit }), MAX_INFLATED);
  } catch (error) {
    throw new SpreadsheetError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * An uploaded workbook read on a thread of its own, so no request waits for it, and refused
 * (SpreadsheetError) when it is not read within READ_DEADLINE_MS or is no workbook at all.
 */
export function readXlsxApart(file: Buffer, deadlineMs = READ_DEADLINE_MS): Promise<SheetRows> {
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const zlib = require("node:zlib");
    const readWorkbook = ${readWorkbook.toString()};
    try {
      parentPort.postMessage({ rows: readWorkbook(Buffer.from(workbook.buffer, workbook.byteOffset, workbook.byteLength), (data, limit) => zlib.inflateRawSync(data, { maxOutputLength: limit }), workerData.maxInflated) });
    } catch (error) {
      parentPort.postMessage({ error: String(error && error.message || error) });
    }
  `.replace(
    "workbook.buffer, workbook.byteOffset, workbook.byteLength",
    "workerData.file.buffer, workerData.file.byteOffset, workerData.file.byteLength",
  );
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { file, maxInflated: MAX_INFLATED },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      outcome();
    };
    const deadline = setTimeout(
      () => settle(() => reject(new SpreadsheetError(`not read within ${deadlineMs / 1000} s`))),
      deadlineMs,
    );
    worker.on("message", (message: { rows?: SheetRows; error?: string }) =>
      settle(() =>
        message.rows ? resolve(message.rows) : reject(new SpreadsheetError(message.error ?? "unreadable")),
      ),
    );
    worker.on("error", (error) => settle(() => reject(new SpreadsheetError(error.message))));
    worker.on("exit", (code) => settle(() => reject(new SpreadsheetError(`the reader stopped (${code})`))));
  });
}

/**
 * Reads the workbook. Self-contained (it is also the source of the reading thread, so it refers to
 * nothing outside itself) and linear: every element is found by indexOf from where the last one
 * ended, and a start tag whose end tag is missing ends the walk, since no later one can have an end
 * either; no pattern ever scans ahead for a closing tag, which is what made a small file of
 * unclosed tags take minutes.
 */
function readWorkbook(
  file: Uint8Array,
  inflateRaw: (data: Uint8Array, limit: number) => Uint8Array,
  maxInflated: number,
): string[][] {
  const MAX_COLUMNS = 64;
  const MAX_ROWS = 20_000;
  const zip = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const fail = (reason: string): never => {
    throw new Error(reason);
  };

  // End of central directory: 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 65_535); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) fail("not a zip");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, { name: string; method: number; compressedSize: number; localOffset: number }>();
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) fail("broken central directory");
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    entries.set(name, {
      name,
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  const readEntry = (entry: { method: number; compressedSize: number; localOffset: number }) => {
    const local = entry.localOffset;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) fail("broken local header");
    // The sizes come from the central directory: a streamed zip leaves them 0 in the local header.
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return data.toString("utf8");
    if (entry.method !== 8) fail("unsupported compression");
    return Buffer.from(inflateRaw(data, maxInflated)).toString("utf8");
  };

  const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  const unescapeXml = (text: string) =>
    text.indexOf("&") < 0
      ? text
      : text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, code: string) => {
          if (code[0] !== "#") return NAMED[code.toLowerCase()];
          const point = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
          return Number.isFinite(point) && point <= 0x10ffff ? String.fromCodePoint(point) : "";
        });

  /**
   * Calls `visit` with each <name …>…</name> or <name …/> in `xml`: its attributes and its content
   * (a part of `xml`, so a search inside it never runs past its end). An element is not looked
   * into for another of the same name.
   */
  const eachElement = (xml: string, name: string, visit: (attributes: string, content: string) => void) => {
    const open = `<${name}`;
    const close = `</${name}>`;
    let at = 0;
    for (;;) {
      const tag = xml.indexOf(open, at);
      if (tag < 0) return;
      const next = xml.charCodeAt(tag + open.length);
      // <c> is not <col>: the name must end there.
      if (next !== 62 && next !== 47 && next !== 32 && next !== 9 && next !== 10 && next !== 13) {
        at = tag + open.length;
        continue;
      }
      const tagEnd = xml.indexOf(">", tag + open.length);
      if (tagEnd < 0) return;
      if (xml.charCodeAt(tagEnd - 1) === 47) {
        visit(xml.slice(tag + open.length, tagEnd - 1), "");
        at = tagEnd + 1;
        continue;
      }
      const closing = xml.indexOf(close, tagEnd + 1);
      if (closing < 0) return;
      visit(xml.slice(tag + open.length, tagEnd), xml.slice(tagEnd + 1, closing));
      at = closing + close.length;
    }
  };
  const firstElement = (xml: string, name: string) => {
    let found: { attributes: string; content: string } | undefined;
    eachElement(xml, name, (attributes, content) => {
      found ??= { attributes, content };
    });
    return found;
  };
  /** A shared or inline string: its <t> runs joined (rich text has several); phonetic runs (<rPh>) left out. */
  const runsText = (xml: string) => {
    let text = "";
    let at = 0;
    // The parts outside phonetic runs: an <rPh> without its end leaves the rest as it is.
    const plain: string[] = [];
    for (;;) {
      const phonetic = xml.indexOf("<rPh", at);
      const closing = phonetic < 0 ? -1 : xml.indexOf("</rPh>", phonetic);
      if (closing < 0) {
        plain.push(xml.slice(at));
        break;
      }
      plain.push(xml.slice(at, phonetic));
      at = closing + 6;
    }
    for (const part of plain) eachElement(part, "t", (_, content) => (text += content));
    return unescapeXml(text);
  };
  const attribute = (attributes: string, name: string) => {
    const match = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attributes);
    return match ? match[1] : undefined;
  };
  const columnIndex = (reference: string) => {
    let index = 0;
    for (const char of reference) {
      const code = char.charCodeAt(0);
      if (code < 65 || code > 90) break;
      index = index * 26 + (code - 64);
    }
    return index - 1;
  };
  /** A double as plain decimal notation (no exponent): 0.001, 1500, 2.5. */
  const decimalText = (value: number) => {
    const text = String(value);
    if (!/e/i.test(text)) return text;
    return value
      .toFixed(Math.min(20, Math.max(0, -Math.floor(Math.log10(Math.abs(value))) + 15)))
      .replace(/\.?0+$/, "");
  };

  const sheetEntry =
    entries.get("xl/worksheets/sheet1.xml") ??
    [...entries.values()]
      .filter((entry) => /^xl\/worksheets\/sheet\d+\.xml$/.test(entry.name))
      .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }))[0];
  if (!sheetEntry) fail("no worksheet");
  const sharedEntry = entries.get("xl/sharedStrings.xml");
  const shared: string[] = [];
  if (sharedEntry) {
    eachElement(readEntry(sharedEntry), "si", (_, content) => shared.push(runsText(content)));
  }
  const sheet = readEntry(sheetEntry!);
  const rows: string[][] = [];
  eachElement(sheet, "row", (rowAttributes, rowContent) => {
    const rowNumber = attribute(rowAttributes, "r");
    const rowIndex = rowNumber && /^\d+$/.test(rowNumber) ? Number(rowNumber) - 1 : rows.length;
    if (rowIndex > MAX_ROWS) fail("too many rows");
    const cells: string[] = [];
    eachElement(rowContent, "c", (attributes, content) => {
      const reference = /^([A-Z]+)\d*$/.exec(attribute(attributes, "r") ?? "")?.[1];
      const index = reference ? columnIndex(reference) : cells.length;
      if (index < 0 || index >= MAX_COLUMNS) return;
      const type = attribute(attributes, "t") ?? "n";
      const raw = firstElement(content, "v")?.content;
      let value = "";
      if (type === "s") value = shared[Number(raw)] ?? "";
      else if (type === "inlineStr") {
        value = runsText(firstElement(content, "is")?.content ?? "");
      } else if (type === "b") value = raw === "1" ? "TRUE" : raw === undefined ? "" : "FALSE";
      else if (type === "n" && raw !== undefined && raw.trim() !== "" && Number.isFinite(Number(raw)))
        value = decimalText(Number(raw));
      else value = unescapeXml(raw ?? "");
      while (cells.length < index) cells.push("");
      cells[index] = value;
    });
    while (rows.length < rowIndex) rows.push([]);
    rows[rowIndex] = cells;
  });
  return rows;
}

/** Whether the bytes are a zip (an XLSX workbook) rather than text. */
export function looksLikeZip(file: Buffer) {
  return file.length >= 4 && file.readUInt32LE(0) === 0x04034b50;
}
