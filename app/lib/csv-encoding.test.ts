import { describe, expect, it } from "vitest";
import { readSpreadsheet as readCatalogueFile } from "~/sections/catalogue/domain/bulk-import.server";
import { readSpreadsheet as readMenuFile } from "~/sections/food-ordering/domain/bulk-create.server";
import { decodeCsvBytes } from "./spreadsheet.server";

// "name_ar\nفاطمة" as Excel's plain "CSV" writes it on an Arabic system (Windows-1256).
const WINDOWS_1256 = Buffer.concat([Buffer.from("name_ar\r\n", "ascii"), Buffer.from([0xfa, 0xc7, 0xd8, 0xe3, 0xc9])]);

describe("a CSV file's encoding", () => {
  it("is read as UTF-8, with or without its byte-order mark", () => {
    expect(decodeCsvBytes(Buffer.from("name_ar\r\nفاطمة", "utf8"))).toBe("name_ar\r\nفاطمة");
    expect(decodeCsvBytes(Buffer.from("\ufeffname_ar\r\nفاطمة", "utf8"))).toBe("name_ar\r\nفاطمة");
  });

  it("is refused when not UTF-8 by the menu and product imports, rather than imported garbled", async () => {
    expect(decodeCsvBytes(WINDOWS_1256)).toBeNull();
    expect(await readMenuFile(WINDOWS_1256)).toEqual({ ok: false, code: "food_bulk.errors.not_utf8" });
    expect(await readCatalogueFile(WINDOWS_1256)).toEqual({
      ok: false,
      code: "catalogue_admin.import.errors.not_utf8",
    });
  });
});
