import { describe, expect, it } from "vitest";
import { unclosedTagsWorkbook, zipOf } from "../../tests/support/stored-zip";
import { readXlsx, readXlsxApart, SpreadsheetError } from "./spreadsheet.server";

const SHARED = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3" uniqueCount="3">
<si><t>name_en</t></si>
<si><r><rPr><b/></rPr><t xml:space="preserve">Chicken </t></r><r><t>&amp; rice</t></r><rPh sb="0" eb="1"><t>ちきん</t></rPh><phoneticPr fontId="1"/></si>
<si/>
</sst>`;

const SHEET = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cols><col min="1" max="3" width="10"/></cols><sheetData>
<row r="1" spans="1:4"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>price</t></is></c><c r="D1" t="b"><v>1</v></c></row>
<row r="3"><c r="A3" t="s"><v>1</v></c><c r="B3"><v>2.4999999999999998</v></c><c r="C3" t="str"><v>&lt;b&gt; &#1605;</v></c><c r="D3" t="b"><v>0</v></c><c r="E3" t="s"><v>2</v></c></row>
<row r="4"/>
</sheetData></worksheet>`;

const EXPECTED = [["name_en", "price", "", "TRUE"], [], ["Chicken & rice", "2.5", "<b> م", "FALSE", ""], []];

describe("readXlsx", () => {
  it("reads shared, rich, inline, numeric, boolean and escaped cells in their columns, phonetic runs left out", () => {
    const file = zipOf({ "xl/sharedStrings.xml": SHARED, "xl/worksheets/sheet1.xml": SHEET });
    expect(readXlsx(file)).toEqual(EXPECTED);
  });

  it("reads a workbook of unclosed tags in one pass (the patterns it replaces took tens of seconds)", () => {
    const rows = readXlsx(unclosedTagsWorkbook());
    expect(rows.length).toBeLessThanOrEqual(1);
  });

  it("refuses what is not a workbook, and a sheet claiming more rows than an import takes", () => {
    expect(() => readXlsx(Buffer.from("PK\u0003\u0004 not really"))).toThrow(SpreadsheetError);
    expect(() =>
      readXlsx(zipOf({ "xl/worksheets/sheet1.xml": '<worksheet><sheetData><row r="50000"/></sheetData></worksheet>' })),
    ).toThrow(SpreadsheetError);
  });
});

describe("readXlsxApart", () => {
  it("reads on a thread of its own what readXlsx reads", async () => {
    const file = zipOf({ "xl/sharedStrings.xml": SHARED, "xl/worksheets/sheet1.xml": SHEET });
    expect(await readXlsxApart(file)).toEqual(EXPECTED);
    expect((await readXlsxApart(unclosedTagsWorkbook())).length).toBeLessThanOrEqual(1);
  });

  it("refuses a workbook it cannot read, and one not read before its deadline", async () => {
    await expect(readXlsxApart(Buffer.from("PK\u0003\u0004 not really"))).rejects.toBeInstanceOf(SpreadsheetError);
    await expect(
      readXlsxApart(zipOf({ "xl/sharedStrings.xml": SHARED, "xl/worksheets/sheet1.xml": SHEET }), 0),
    ).rejects.toThrow(/not read within/);
  });
});
