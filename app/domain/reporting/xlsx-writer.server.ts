import { once } from "node:events";
import type { Writable } from "node:stream";
import zlib from "node:zlib";

/**
 * A cell of a sheet: text (an inline string), a number shown with a fixed count of decimals, or a
 * moment shown as a date and time. A number comes as its decimal text ("12.500"), so what Excel
 * reads is exactly what was stored; a moment as the wall-clock time it should show.
 */
export type XlsxCell =
  | string
  | { number: string; decimals: number }
  | { dateTime: { year: number; month: number; day: number; hour: number; minute: number; second: number } };

/** Decimals a number cell can be shown with, each a format of its own ("0", "0.0", … "0.0000"). */
const MAX_DECIMALS = 4;
const FIRST_CUSTOM_FORMAT = 164;
const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";
/** Cell styles (cellXfs): 0 plain, 1 bold header, 2 date and time, 3 + n a number with n decimals. */
const STYLE_HEADER = 1;
const STYLE_DATE_TIME = 2;
const STYLE_NUMBER = 3;
const DECIMAL_NUMBER = /^-?\d{1,15}(?:\.\d{1,15})?$/;

/**
 * A one-sheet XLSX workbook written as a stream: a zip whose entries are deflated as they are
 * written, with back-pressure from the file down to the caller. Cells are inline strings, numbers
 * with a number format or dates; the header row is bold and frozen. Memory stays flat however many rows there are (exceljs' streaming
 * writer buffers the whole sheet when rows come faster than it zips them; see
 * docs/decisions/0006-exports.md).
 */
export class XlsxWriter {
  private readonly zip: ZipWriter;
  private sheet: ZipEntry | null = null;
  private rowNumber = 0;
  private columnNames: string[] = [];

  constructor(output: Writable) {
    this.zip = new ZipWriter(output);
  }

  /** `widths`: each column's width in characters (dates and long texts need more than the default). */
  async start(options: {
    sheetName: string;
    rightToLeft: boolean;
    header: readonly string[];
    widths?: readonly number[];
  }) {
    const sheetName = escapeXml(options.sheetName.replace(/[\\/?*:[\]]/g, " ").slice(0, 31) || "Sheet1");
    await this.zip.addFile("[Content_Types].xml", CONTENT_TYPES);
    await this.zip.addFile("_rels/.rels", ROOT_RELS);
    await this.zip.addFile(
      "xl/workbook.xml",
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${sheetName}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    );
    await this.zip.addFile("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
    await this.zip.addFile("xl/styles.xml", STYLES);
    this.columnNames = options.header.map((_, index) => columnName(index));
    this.sheet = await this.zip.openEntry("xl/worksheets/sheet1.xml");
    await this.sheet.write(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0"${options.rightToLeft ? ' rightToLeft="1"' : ""}>` +
        `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>${colsXml(options.widths ?? [])}<sheetData>`,
    );
    await this.sheet.write(this.rowXml(options.header, STYLE_HEADER));
  }

  /** Cells, one array per row, in the header's column order. */
  async writeRows(rows: readonly (readonly XlsxCell[])[]) {
    if (!this.sheet) throw new Error("XlsxWriter.start() first");
    let chunk = "";
    for (const row of rows) chunk += this.rowXml(row, 0);
    await this.sheet.write(chunk);
  }

  async finish() {
    if (!this.sheet) throw new Error("XlsxWriter.start() first");
    await this.sheet.write("</sheetData></worksheet>");
    await this.sheet.close();
    await this.zip.finish();
  }

  private rowXml(cells: readonly XlsxCell[], style: number) {
    const row = ++this.rowNumber;
    let xml = `<row r="${row}">`;
    for (let index = 0; index < cells.length; index++) {
      const value = cells[index];
      const reference = `${this.columnNames[index] ?? columnName(index)}${row}`;
      if (typeof value !== "string") {
        xml += typedCellXml(reference, value);
        continue;
      }
      if (value === "") continue;
      const text = escapeXml(value.length > MAX_CELL_LENGTH ? value.slice(0, MAX_CELL_LENGTH) : value);
      const space = /^\s|\s$/.test(value) ? ' xml:space="preserve"' : "";
      xml += `<c r="${reference}"${style ? ` s="${style}"` : ""} t="inlineStr"><is><t${space}>${text}</t></is></c>`;
    }
    return `${xml}</row>`;
  }
}

function colsXml(widths: readonly number[]) {
  const cols = widths.map(
    (width, index) =>
      `<col min="${index + 1}" max="${index + 1}" width="${Math.max(4, Math.min(80, Math.round(width)))}" customWidth="1"/>`,
  );
  return cols.length ? `<cols>${cols.join("")}</cols>` : "";
}

/** A number or a date: a value with the style that shows it. */
function typedCellXml(reference: string, cell: Exclude<XlsxCell, string>) {
  if ("number" in cell) {
    if (!DECIMAL_NUMBER.test(cell.number)) throw new Error(`Not a decimal number: ${cell.number}`);
    const decimals = Math.max(0, Math.min(MAX_DECIMALS, Math.trunc(cell.decimals)));
    return `<c r="${reference}" s="${STYLE_NUMBER + decimals}"><v>${cell.number}</v></c>`;
  }
  return `<c r="${reference}" s="${STYLE_DATE_TIME}"><v>${excelSerial(cell.dateTime)}</v></c>`;
}

/** Days since 1899-12-30 with the time of day as the fraction: how a spreadsheet stores a date and time. */
function excelSerial(moment: Extract<XlsxCell, { dateTime: unknown }>["dateTime"]) {
  const days = (Date.UTC(moment.year, moment.month - 1, moment.day) - Date.UTC(1899, 11, 30)) / 86_400_000;
  const seconds = moment.hour * 3600 + moment.minute * 60 + moment.second;
  return String(days + seconds / 86_400);
}

const MAX_CELL_LENGTH = 32767;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  "</Types>";
const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;
const NUMBER_FORMATS = Array.from({ length: MAX_DECIMALS + 1 }, (_, decimals) =>
  decimals === 0 ? "0" : `0.${"0".repeat(decimals)}`,
);
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  `<numFmts count="${NUMBER_FORMATS.length + 1}"><numFmt numFmtId="${FIRST_CUSTOM_FORMAT}" formatCode="${DATE_TIME_FORMAT}"/>` +
  NUMBER_FORMATS.map(
    (code, index) => `<numFmt numFmtId="${FIRST_CUSTOM_FORMAT + 1 + index}" formatCode="${code}"/>`,
  ).join("") +
  "</numFmts>" +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  `<cellXfs count="${STYLE_NUMBER + NUMBER_FORMATS.length}">` +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  `<xf numFmtId="${FIRST_CUSTOM_FORMAT}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  NUMBER_FORMATS.map(
    (_, index) =>
      `<xf numFmtId="${FIRST_CUSTOM_FORMAT + 1 + index}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
  ).join("") +
  "</cellXfs>" +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

/** A, B, … Z, AA, AB, … */
function columnName(index: number) {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const XML_SPECIAL = /[&<>"]/g;
// Characters XML 1.0 cannot hold (controls other than tab and line breaks, lone surrogates, U+FFFE/FFFF).
const XML_INVALID =
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

// eslint-disable-next-line no-control-regex -- see XML_INVALID
const NEEDS_WORK = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;

export function escapeXml(value: string) {
  if (!NEEDS_WORK.test(value)) return value;
  return value.replace(XML_INVALID, "").replace(XML_SPECIAL, (char) => ESCAPES[char]);
}

// --- A streaming zip writer (deflate, data descriptors, no zip64) ------------------------------

const MAX_ZIP_OFFSET = 0xffffffff;

type CentralEntry = { name: Buffer; crc: number; compressed: number; size: number; offset: number };

class ZipWriter {
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  private readonly time: number;
  private readonly date: number;
  private failure: Error | null = null;
  private current: zlib.DeflateRaw | null = null;

  constructor(private readonly output: Writable) {
    // A failing file (disk full…) stops the entry being deflated, so no one waits for a drain forever.
    output.on("error", (error) => {
      this.failure = error;
      this.current?.destroy(error);
    });
    const now = new Date();
    this.time = (now.getHours() << 11) | (now.getMinutes() << 5) | Math.floor(now.getSeconds() / 2);
    this.date = ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
  }

  async addFile(name: string, text: string) {
    const entry = await this.openEntry(name);
    await entry.write(text);
    await entry.close();
  }

  async openEntry(name: string) {
    const nameBytes = Buffer.from(name, "utf8");
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    header.writeUInt16LE(nameBytes.length, 26);
    const offset = this.offset;
    await this.raw(Buffer.concat([header, nameBytes]));
    return new ZipEntry(this, (crc, compressed, size) =>
      this.entries.push({ name: nameBytes, crc, compressed, size, offset }),
    );
  }

  async raw(bytes: Buffer) {
    if (this.failure) throw this.failure;
    this.offset += bytes.length;
    if (this.offset > MAX_ZIP_OFFSET) throw new Error("The workbook is too large for a zip without zip64");
    if (!this.output.write(bytes)) await once(this.output, "drain");
  }

  /** For deflated bytes as they come: counted, written, pausing the deflater while the file catches up. */
  pipeFrom(deflate: zlib.DeflateRaw, count: (length: number) => void) {
    if (this.failure) deflate.destroy(this.failure);
    this.current = deflate;
    let waiting = false;
    deflate.on("data", (chunk: Buffer) => {
      count(chunk.length);
      this.offset += chunk.length;
      if (!this.output.write(chunk) && !waiting) {
        waiting = true;
        deflate.pause();
        this.output.once("drain", () => {
          waiting = false;
          deflate.resume();
        });
      }
    });
  }

  async finish() {
    const start = this.offset;
    for (const entry of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0808, 8);
      header.writeUInt16LE(8, 10);
      header.writeUInt16LE(this.time, 12);
      header.writeUInt16LE(this.date, 14);
      header.writeUInt32LE(entry.crc, 16);
      header.writeUInt32LE(entry.compressed, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      header.writeUInt32LE(entry.offset, 42);
      await this.raw(Buffer.concat([header, entry.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.raw(end);
  }
}

class ZipEntry {
  private crc = 0;
  private size = 0;
  private compressed = 0;
  private readonly deflate = zlib.createDeflateRaw({ level: 1 });
  private failure: Error | null = null;

  constructor(
    private readonly zip: ZipWriter,
    private readonly done: (crc: number, compressed: number, size: number) => void,
  ) {
    this.deflate.on("error", (error) => (this.failure = error));
    zip.pipeFrom(this.deflate, (length) => (this.compressed += length));
  }

  async write(text: string) {
    if (this.failure) throw this.failure;
    const bytes = Buffer.from(text, "utf8");
    this.crc = zlib.crc32(bytes, this.crc);
    this.size += bytes.length;
    if (this.size > MAX_ZIP_OFFSET) throw new Error("The workbook is too large for a zip without zip64");
    if (!this.deflate.write(bytes)) await once(this.deflate, "drain");
  }

  async close() {
    const ended = once(this.deflate, "end");
    this.deflate.end();
    await ended;
    if (this.failure) throw this.failure;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(this.crc, 4);
    descriptor.writeUInt32LE(this.compressed, 8);
    descriptor.writeUInt32LE(this.size, 12);
    await this.zip.raw(descriptor);
    this.done(this.crc, this.compressed, this.size);
  }
}
