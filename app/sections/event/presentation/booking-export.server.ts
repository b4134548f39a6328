import { once } from "node:events";
import type { Writable } from "node:stream";
import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import { failReport, finishReport, reportFileOf, reportProgress, startReport } from "~/domain/reporting/exports.server";
import { XlsxWriter, type XlsxCell } from "~/domain/reporting/xlsx-writer.server";
import { DISPLAY_ZONE } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { storage } from "~/lib/storage.server";
import { neutraliseCell } from "~/presentation/report-files.server";
import { BOOKING_LIST_COLUMNS, BOOKING_OTHER_COLUMNS, exportExtraFields } from "../domain/booking-export.server";
import { countBookings, iterateBookings, parseBookingQuery, type BookingListRow } from "../domain/booking-list.server";

const PROGRESS_EVERY_ROWS = 2000;

type Cell = string | { number: string; decimals: number } | { moment: string };

/** A booking's cell of one of the file's columns, in the report's language. */
function cellOf(
  row: BookingListRow,
  field: string,
  lang: Language,
  ticketNames: Map<number, { name_en: string; name_ar: string }>,
): Cell {
  const t = translator(lang);
  if (field.startsWith("extra:")) return row.extra[field.slice(6)] ?? "";
  switch (field) {
    case "event":
      return lang === "ar" ? row.event_title_ar : row.event_title_en;
    case "quantity":
      return { number: String(row.quantity), decimals: 0 };
    case "full_name":
      return [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" ");
    case "purchase_type":
      return t(row.is_free ? "bookings.purchase_types.free" : "bookings.purchase_types.paid");
    case "email":
      return row.email;
    case "event_date":
      return row.event_date;
    case "created":
      return { moment: row.created_at };
    case "customer_phone":
      return row.customer_phone ?? "";
    case "id":
      return { number: String(row.id), decimals: 0 };
    case "ticket": {
      const ticket = ticketNames.get(row.ticket_id);
      return ticket ? (lang === "ar" ? ticket.name_ar : ticket.name_en) : "";
    }
    case "paid_places":
      return { number: String(row.paid), decimals: 0 };
    case "scanned_places":
      return { number: String(row.scanned), decimals: 0 };
    default:
      return "";
  }
}

function kuwaitTime(iso: string) {
  return DateTime.fromISO(iso, { zone: "utc" }).setZone(DISPLAY_ZONE);
}

function csvCell(cell: Cell) {
  const text =
    typeof cell === "string"
      ? neutraliseCell(cell)
      : "number" in cell
        ? cell.number
        : kuwaitTime(cell.moment).toFormat("yyyy-LL-dd HH:mm:ss");
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function xlsxCell(cell: Cell): XlsxCell {
  if (typeof cell === "string") return neutraliseCell(cell);
  if ("number" in cell) return cell;
  const time = kuwaitTime(cell.moment);
  return {
    dateTime: {
      year: time.year,
      month: time.month,
      day: time.day,
      hour: time.hour,
      minute: time.minute,
      second: time.second,
    },
  };
}

async function write(output: Writable, chunk: string) {
  if (output.errored) throw output.errored;
  if (!output.write(chunk)) await once(output, "drain");
}

/**
 * Builds a queued bookings report (the event_bookings_export job): the list's columns, then the
 * events' own fields by their label, then the booking number, ticket and places paid and scanned,
 * in the report's language; CSV (UTF-8 with a BOM, for Excel's Arabic) or an XLSX workbook.
 */
export async function runBookingExport(db: DB, payload: { reportId: number }) {
  const report = await startReport(db, payload.reportId);
  if (!report) return;
  const lang: Language = isLanguage(report.language) ? report.language : "en";
  const t = translator(lang);
  const { filters } = parseBookingQuery(new URLSearchParams(report.query));
  const fields = report.fields.split(",").filter(Boolean);
  const { fileName, key } = reportFileOf(report);
  await storage().removeIncomplete(key);
  try {
    const extra = new Map(
      (await exportExtraFields(db, report.merchant_id, filters.event)).map((field) => [field.name, field]),
    );
    const known = new Set<string>([...BOOKING_LIST_COLUMNS, ...BOOKING_OTHER_COLUMNS]);
    const headers = fields.map((field) => {
      if (field.startsWith("extra:")) {
        const own = extra.get(field.slice(6));
        return neutraliseCell(own ? (lang === "ar" ? own.label_ar : own.label_en) : field.slice(6));
      }
      return known.has(field) ? t(`bookings.columns.${field}`) : field;
    });
    const tickets = await db
      .selectFrom("event_tickets")
      .select(["id", "name_en", "name_ar"])
      .where("merchant_id", "=", report.merchant_id)
      .execute();
    const ticketNames = new Map(tickets.map((ticket) => [ticket.id, ticket]));
    await reportProgress(db, report.id, { rows_total: await countBookings(db, report.merchant_id, filters) });
    let rows = 0;
    let reported = 0;
    const progress = async () => {
      if (rows - reported < PROGRESS_EVERY_ROWS) return;
      reported = rows;
      await reportProgress(db, report.id, { rows_done: rows });
    };
    const { bytes } = await storage().putStream(key, async (output) => {
      if (report.file_format === "csv") {
        await write(output, `\uFEFF${headers.map((header) => csvCell(header)).join(",")}\r\n`);
        for await (const batch of iterateBookings(db, report.merchant_id, filters)) {
          await write(
            output,
            batch
              .map((row) => `${fields.map((field) => csvCell(cellOf(row, field, lang, ticketNames))).join(",")}\r\n`)
              .join(""),
          );
          rows += batch.length;
          await progress();
        }
        return;
      }
      const workbook = new XlsxWriter(output);
      await workbook.start({
        sheetName: t("bookings.title"),
        rightToLeft: lang === "ar",
        header: headers,
        widths: headers.map((header) => Math.max(14, header.length + 4)),
      });
      for await (const batch of iterateBookings(db, report.merchant_id, filters)) {
        await workbook.writeRows(
          batch.map((row) => fields.map((field) => xlsxCell(cellOf(row, field, lang, ticketNames)))),
        );
        rows += batch.length;
        await progress();
      }
      await workbook.finish();
    });
    await finishReport(db, report, { key, fileName, rows, bytes });
  } catch (error) {
    await failReport(db, report, fileName, String(error instanceof Error ? error.message : error));
  }
}
