import { describe, expect, it } from "vitest";
import { zipOf } from "../../tests/support/stored-zip";
import {
  checkRows,
  countReader,
  errorReportCsv,
  readSheet,
  textReader,
  yesNoReader,
  type Cell,
  type SheetSpec,
} from "./spreadsheet-import.server";
import { parseCsv } from "./spreadsheet.server";

/** A small importer's spec: a required name, a required price read with the context's rate, two optional columns. */
const SPEC = {
  required: ["name", "price"] as const,
  columns: {
    name: textReader(20, { tooLong: "test.too_long", required: true }),
    price: (value: string, cell: Cell<{ rate: number }>) => {
      if (/^\d+$/.test(value)) return Number(value) * cell.context.rate;
      cell.refuse("test.price");
      return null;
    },
    stock: countReader("test.stock"),
    active: yesNoReader("test.yes_no"),
  },
  maxRows: 3,
  refusals: {
    emptyFile: "test.empty_file",
    unreadable: "test.unreadable",
    notUtf8: "test.not_utf8",
    missingColumns: "test.missing_columns",
    noRows: "test.no_rows",
    tooManyRows: "test.too_many_rows",
  },
} satisfies SheetSpec<{ rate: number }>;

const STRICT = { ...SPEC, refusals: { ...SPEC.refusals, unknownColumns: "test.unknown_columns" } };

const utf8 = (text: string) => Buffer.from(text, "utf8");

async function rowsOf(bytes: Buffer) {
  const sheet = await readSheet(bytes, SPEC);
  if (!sheet.ok) throw new Error(JSON.stringify(sheet));
  return checkRows(sheet, SPEC, { rate: 10 }, (cells, row) => ({ row: row.number, ...cells }));
}

describe("reading a CSV file", () => {
  it("drops the byte-order mark and reads quoted fields holding commas, line breaks and doubled quotes", async () => {
    const text =
      '\ufeffName,PRICE,stock,active\r\n"Tea, hot",2,,yes\r\n"Say ""hi""\nthen go",3,7,لا\r\n,,,\r\nKarak,1,,\r\n';
    expect(await rowsOf(utf8(text))).toEqual({
      ok: true,
      rows: [
        { row: 2, name: "Tea, hot", price: 20, stock: null, active: true },
        { row: 3, name: 'Say "hi"\nthen go', price: 30, stock: 7, active: false },
        { row: 5, name: "Karak", price: 10, stock: null, active: null },
      ],
    });
  });

  it("refuses Excel's Windows-1256 Arabic CSV with the importer's word on saving it as CSV UTF-8", async () => {
    // "name,price\nشاي,1" as Excel's plain "CSV" writes it on an Arabic system.
    const bytes = Buffer.concat([Buffer.from("name,price\r\n", "ascii"), Buffer.from([0xd4, 0xc7, 0xed]), utf8(",1")]);
    expect(await readSheet(bytes, SPEC)).toEqual({ ok: false, kind: "file", code: "test.not_utf8" });
    expect(await readSheet(utf8("name,price\r\nشاي,1"), SPEC)).toMatchObject({ ok: true, rows: [{ number: 2 }] });
  });

  it("refuses an empty file and one that is text with NUL bytes", async () => {
    expect(await readSheet(Buffer.alloc(0), SPEC)).toMatchObject({ code: "test.empty_file" });
    expect(await readSheet(utf8("name,price\u0000"), SPEC)).toMatchObject({ code: "test.unreadable" });
  });
});

describe("reading an XLSX workbook", () => {
  it("reads its first sheet on a thread of its own, as a CSV's rows", async () => {
    const workbook = zipOf({
      "xl/sharedStrings.xml": "<sst><si><t>name</t></si><si><t>price</t></si><si><t>شاي</t></si></sst>",
      "xl/worksheets/sheet1.xml":
        '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>4</v></c><c r="D2" t="b"><v>1</v></c></row></sheetData></worksheet>',
    });
    expect(await rowsOf(workbook)).toEqual({
      ok: true,
      rows: [{ row: 2, name: "شاي", price: 40, stock: null, active: null }],
    });
    expect(await readSheet(Buffer.from("PK\u0003\u0004 not a workbook"), SPEC)).toMatchObject({
      code: "test.unreadable",
    });
  });
});

describe("a file's header and size", () => {
  it("names the required columns it lacks", async () => {
    expect(await readSheet(utf8("stock,Active\n1,yes\n"), SPEC)).toEqual({
      ok: false,
      kind: "file",
      code: "test.missing_columns",
      params: { columns: "name, price" },
    });
  });

  it("names the columns it does not know when the importer refuses them, and leaves them unread when not", async () => {
    const text = "name,price,Notes,expiry,notes\nTea,1,x,y,z\n";
    expect(await readSheet(utf8(text), STRICT)).toEqual({
      ok: false,
      kind: "file",
      code: "test.unknown_columns",
      params: { columns: "Notes, expiry, notes" },
    });
    expect(await rowsOf(utf8(text))).toMatchObject({ ok: true, rows: [{ name: "Tea", price: 10 }] });
  });

  it("counts the rows that are not blank against the importer's limit, and refuses a file with none", async () => {
    const rows = (count: number) => ["name,price", ...Array.from({ length: count }, (_, at) => `t${at},1`)].join("\n");
    expect(await readSheet(utf8(`${rows(3)}\n,\n\n`), SPEC)).toMatchObject({ ok: true });
    expect(await readSheet(utf8(rows(4)), SPEC)).toEqual({
      ok: false,
      kind: "file",
      code: "test.too_many_rows",
      params: { max: 3 },
    });
    expect(await readSheet(utf8("name,price\n,\n"), SPEC)).toMatchObject({ code: "test.no_rows" });
  });
});

describe("checking the rows", () => {
  it("names every bad cell of every row, a row's in the spec's column order, and keeps none", async () => {
    const sheet = await readSheet(
      utf8("active,price,name,stock\nmaybe,x,,ten\nyes,2,=SUM(A1),-1\nno,1,A name far too long to keep,2\n"),
      SPEC,
    );
    if (!sheet.ok) throw new Error("expected rows");
    const checked = checkRows(sheet, SPEC, { rate: 1 }, (cells, row) => {
      // A check of the row as a whole, on the column it concerns.
      if (cells.stock !== null && cells.stock > 0 && cells.active === false) row.refuse("stock", "test.stock_inactive");
      if (cells.name.startsWith("=")) row.refuse("name", "test.formula");
      return cells;
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.map((error) => `${error.row}:${error.column}:${error.code}`)).toEqual([
      "2:name:errors.required",
      "2:price:test.price",
      "2:stock:test.stock",
      "2:active:test.yes_no",
      "3:name:test.formula",
      "3:stock:test.stock",
      "4:name:test.too_long",
      "4:stock:test.stock_inactive",
    ]);
    expect(checked.errors.at(-2)?.params).toEqual({ max: 20 });
    expect(checked.rowsChecked).toBe(3);
    // The error report is the file with an `error` column; a cell a spreadsheet would run as a formula is not run.
    const report = parseCsv(errorReportCsv(checked.report, (error) => error.code));
    expect(report[0]).toEqual(["active", "price", "name", "stock", "error"]);
    expect(report[1].at(-1)).toBe("name: errors.required; price: test.price; stock: test.stock; active: test.yes_no");
    expect(report[2]).toEqual(["yes", "2", "'=SUM(A1)", "-1", "name: test.formula; stock: test.stock"]);
  });
});
