import zlib from "node:zlib";

/**
 * A zip of the given texts, deflated or stored, for workbooks written by hand (a crafted sheet no
 * spreadsheet program would write). CRCs are left 0: the reader takes sizes from the central
 * directory and does not check them.
 */
export function zipOf(files: Record<string, string>, options: { deflate?: boolean } = {}) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const raw = Buffer.from(text, "utf8");
    const data = options.deflate ? zlib.deflateRawSync(raw) : raw;
    const method = options.deflate ? 8 : 0;
    const fileName = Buffer.from(name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const count = Object.keys(files).length;
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The hostile workbook of a few kilobytes: 80,000 phonetic runs and 20,000 rows, none of them closed. */
export function unclosedTagsWorkbook() {
  return zipOf(
    {
      "xl/sharedStrings.xml": `<sst><si>${"<rPh>".repeat(80_000)}<t>x</t></si></sst>`,
      "xl/worksheets/sheet1.xml": `<worksheet><sheetData>${"<row>".repeat(20_000)}<row r="1"><c t="s"><v>0</v></c></row></sheetData></worksheet>`,
    },
    { deflate: true },
  );
}
