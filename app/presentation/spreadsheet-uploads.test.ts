import { describe, expect, it } from "vitest";
import { checkUploadedFile, exampleFile, wordRefusedUpload } from "./spreadsheet-uploads.server";

const rules = {
  maxBytes: 1024 * 1024,
  keys: {
    chooseFile: "food_bulk.errors.choose_file",
    emptyFile: "food_bulk.errors.empty_file",
    tooLarge: "food_bulk.errors.too_large",
    fileType: "food_bulk.errors.file_type",
  },
};

describe("checkUploadedFile", () => {
  it("asks for a file when none came, and refuses an empty one, a large one and one of another type in the reader's language", () => {
    const refused = (file: FormDataEntryValue | null, lang: "en" | "ar" = "en") => {
      const checked = checkUploadedFile(file, rules, lang);
      return checked.ok ? null : checked.file;
    };
    expect(refused(null)).not.toEqual(refused(new File([], "menu.csv")));
    expect(refused(new File([new Uint8Array(rules.maxBytes + 1)], "menu.csv"))?.[0]).toContain("1");
    expect(refused(new File(["name"], "menu.pdf"))).toHaveLength(1);
    expect(refused(new File(["name"], "menu.pdf"), "ar")).not.toEqual(refused(new File(["name"], "menu.pdf")));
  });

  it("takes a CSV or XLSX file, and a multipart call's unnamed file to be read by its content", () => {
    for (const name of ["menu.csv", "MENU.XLSX", "blob"])
      expect(checkUploadedFile(new File(["name"], name), rules, "en").ok).toBe(true);
  });
});

describe("wordRefusedUpload", () => {
  it("words each refused row and gives the same words to the section's error report", () => {
    const errors = [{ row: 2, column: "price", code: "food_bulk.errors.file_type" }];
    const answer = wordRefusedUpload(
      { kind: "rows", errors, report: "the file", rowsChecked: 5 },
      (report, word) => `${report}: ${errors.map(word).join()}`,
      "en",
    );
    expect(answer).toMatchObject({ ok: false, rowsChecked: 5, rows: [{ row: 2, column: "price" }] });
    const message = answer.rows?.[0]?.message;
    expect(message).not.toBe("food_bulk.errors.file_type");
    expect(answer.report).toBe(`the file: ${message}`);
  });

  it("words a refusal of the whole file as one message under the field", () => {
    expect(wordRefusedUpload({ kind: "file", code: "food_bulk.errors.file_type" }, () => "", "en")).toEqual({
      ok: false,
      file: [expect.not.stringMatching(/^food_bulk/)],
    });
  });
});

describe("exampleFile", () => {
  const example = {
    rows: (type: string) =>
      type === "all_fields"
        ? [
            ["name", "note"],
            ["Tea", "hot"],
          ]
        : [["name"], ["Tea"]],
    fileName: "menu-items",
    sheetName: "Menu items",
    minColumnWidth: 12,
  };

  it("writes the section's rows as CSV under the section's name", async () => {
    const file = await exampleFile(example, "all_fields", "csv");
    expect(file.name).toBe("menu-items-all-fields.csv");
    expect(file.type).toBe("text/csv; charset=utf-8");
    expect(file.body.toString("utf8")).toContain("Tea,hot");
  });

  it("writes an XLSX workbook (a zip) for the xlsx format", async () => {
    const file = await exampleFile(example, "required_fields", "xlsx");
    expect(file.name).toBe("menu-items-required-fields.xlsx");
    expect(file.body.subarray(0, 2).toString("latin1")).toBe("PK");
  });
});
