import { z } from "zod";
import { writeTransaction, type DB } from "~/db/database.server";
import type { BulkRowTable } from "~/db/schema";
import type { Selectable } from "kysely";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { checkBounds, editableAmountCap } from "~/domain/payments/amount-bounds.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { normalizePhone, parseExpiration } from "~/domain/payments/request-fields";
import { DateTime } from "luxon";
import { now, nowIso } from "~/lib/clock.server";
import { DISPLAY_ZONE } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { isSupportedCurrency, parseAmount } from "~/lib/money";
import { money, type TextParams } from "~/lib/outcome";
import {
  decodeCsvBytes,
  looksLikeZip,
  parseCsv,
  readXlsxApart,
  SpreadsheetError,
  type SheetRows,
} from "~/lib/spreadsheet.server";
import { ALL_COLUMNS, BULK_MAX_ROWS, REQUIRED_COLUMNS, type BulkColumn, type Schedule } from "./bulk-columns";
import { startRun } from "./bulk-runs.server";
import { nextRunAt } from "./schedule";

/**
 * A bulk upload (issue 15): one CSV or XLSX of payment requests, all or nothing. Every cell is
 * checked first, by the rules of the payment request create form; one bad cell and nothing is
 * created, and the answer names each bad cell. Otherwise the bulk, its rows, one payment request per
 * row and the first sending run are written in one database transaction, and a job sends them.
 */

/** A bad cell: its row in the spreadsheet (the header is row 1), its column, a translation key and the key's values. */
export type RowError = { row: number; column: string; code: string; params?: TextParams };

/** A row as it is kept (the bulk's id aside). */
export type CheckedRow = Omit<Selectable<BulkRowTable>, "id" | "bulk_id" | "merchant_id">;

/** What the upload form says about the whole file. */
export type UploadChoices = { sendEmail: boolean; sendSms: boolean; schedule: Schedule; lang: Language };

/**
 * The merchant's settings for payment requests that a file's rows obey as the create form does:
 * sending by e-mail or SMS and editable amounts may be turned off, and a request without an expiry
 * may get the default one.
 */
export type RequestRules = {
  emailNotifications: boolean;
  smsNotifications: boolean;
  editableAmount: boolean;
  defaultExpiryHours: number | null;
};

/** Nothing turned off, no default expiry. */
export const UNRESTRICTED_RULES: RequestRules = {
  emailNotifications: true,
  smsNotifications: true,
  editableAmount: true,
  defaultExpiryHours: null,
};

export type ReadOutcome =
  | { ok: true; rows: CheckedRow[] }
  | { ok: false; kind: "file"; code: string; params?: TextParams }
  | {
      ok: false;
      kind: "rows";
      errors: RowError[];
      rowsChecked: number;
      header: string[];
      rows: { number: number; cells: string[] }[];
    };

export type UploadOutcome =
  | { ok: true; bulkId: number; rows: number; created: number; dispatchLogId: number; repeated?: boolean }
  | Exclude<ReadOutcome, { ok: true }>;

const LIMITS: Partial<Record<BulkColumn, number>> = {
  customer_email: 254,
  customer_phone: 30,
  customer_first_name: 100,
  customer_last_name: 100,
  description: 2000,
  remarks: 2000,
  expiration_time: 40,
  pg_codes: 400,
  next_url: 500,
  min_amount: 20,
  max_amount: 20,
};
const YES = new Set(["1", "yes", "y", "true", "on", "نعم"]);
const NO = new Set(["0", "no", "n", "false", "off", "لا"]);
const LANGUAGES: Record<string, Language> = {
  en: "en",
  english: "en",
  ar: "ar",
  arabic: "ar",
  العربية: "ar",
  عربي: "ar",
};
const EmailSchema = z.email();
const HttpsUrlSchema = z.url({ protocol: /^https$/ });

/** Excel's serial dates (days since 1899-12-30, a fraction for the time) from 1954 to 2173: what a date cell of an XLSX holds. */
const EXCEL_SERIAL = /^[2-9]\d{4}(?:\.\d+)?$/;

/** An expiry as a file gives it: an ISO date and time (Kuwait time unless it says otherwise), or an Excel date cell (Kuwait time). */
function readExpiration(value: string): Date | undefined {
  if (EXCEL_SERIAL.test(value)) {
    const wallClock = DateTime.fromMillis(Math.round((Number(value) - 25_569) * 86_400_000), { zone: "UTC" });
    return wallClock.setZone(DISPLAY_ZONE, { keepLocalTime: true }).toJSDate();
  }
  return parseExpiration(value);
}

/** The file's rows: XLSX when the bytes are a zip, else CSV (UTF-8). */
async function readSheet(bytes: Buffer): Promise<{ ok: true; rows: SheetRows } | { ok: false; code: string }> {
  if (bytes.length === 0) return { ok: false, code: "bulk.errors.empty_file" };
  if (looksLikeZip(bytes)) {
    try {
      return { ok: true, rows: await readXlsxApart(bytes) };
    } catch (error) {
      if (
        error instanceof SpreadsheetError ||
        error instanceof RangeError ||
        (error as { code?: string }).code?.startsWith("Z_")
      )
        return { ok: false, code: "bulk.errors.unreadable" };
      throw error;
    }
  }
  const text = decodeCsvBytes(bytes);
  if (text === null) return { ok: false, code: "bulk.errors.not_utf8" };
  if (text.includes("\u0000")) return { ok: false, code: "bulk.errors.unreadable" };
  return { ok: true, rows: parseCsv(text) };
}

/**
 * Checks every cell of a bulk file against the merchant's currency, country and gateways, as the
 * create form checks one request; answers the rows ready to keep, or every bad cell.
 */
export async function readBulkFile(
  db: DB,
  input: { merchantId: number; bytes: Buffer; choices: UploadChoices; rules?: RequestRules },
): Promise<ReadOutcome> {
  const rules = input.rules ?? UNRESTRICTED_RULES;
  // The form's channel, against the merchant's settings, before the file is read.
  if (input.choices.sendEmail && !rules.emailNotifications)
    return { ok: false, kind: "file", code: "payment_request.settings.refused.email_notifications" };
  if (input.choices.sendSms && !rules.smsNotifications)
    return { ok: false, kind: "file", code: "payment_request.settings.refused.sms_notifications" };
  const read = await readSheet(input.bytes);
  if (!read.ok) return { ok: false, kind: "file", code: read.code };
  const [headerRow = [], ...body] = read.rows;
  const header = headerRow.map((name) => name.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length)
    return { ok: false, kind: "file", code: "bulk.errors.missing_columns", params: { columns: missing.join(", ") } };
  // A column the upload does not know (a misspelt "expiry_time") would be dropped without a word.
  const unknown = [
    ...new Set(
      headerRow
        .map((name) => name.trim())
        .filter((name) => name !== "" && !(ALL_COLUMNS as readonly string[]).includes(name.toLowerCase())),
    ),
  ];
  if (unknown.length)
    return {
      ok: false,
      kind: "file",
      code: "bulk.errors.unknown_columns",
      params: { columns: unknown.slice(0, 10).join(", ") },
    };
  const positions = new Map<BulkColumn, number>(
    ALL_COLUMNS.filter((column) => header.includes(column)).map((column) => [column, header.indexOf(column)]),
  );

  // Rows wholly blank (a spreadsheet's trailing lines) are not rows.
  const rows = body
    .map((cells, index) => ({ number: index + 2, cells }))
    .filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (rows.length === 0) return { ok: false, kind: "file", code: "bulk.errors.no_rows" };
  if (rows.length > BULK_MAX_ROWS)
    return { ok: false, kind: "file", code: "bulk.errors.too_many_rows", params: { max: BULK_MAX_ROWS } };

  const defaults = await loadMerchantDefaults(db, input.merchantId);
  const gateways = await listMerchantGateways(db, input.merchantId, { enabledOnly: true });
  const usableByCurrency = new Map<string, string[]>();
  const usable = (currency: string) => {
    let codes = usableByCurrency.get(currency);
    if (!codes)
      usableByCurrency.set(
        currency,
        (codes = gateways.filter((gateway) => supportsCurrency(gateway, currency)).map((gateway) => gateway.code)),
      );
    return codes;
  };
  const current = now();
  const errors: RowError[] = [];
  const checked: CheckedRow[] = [];

  for (const { number, cells } of rows) {
    const rowErrors: RowError[] = [];
    const cell = (column: BulkColumn) => {
      const at = positions.get(column);
      return at === undefined ? "" : (cells[at] ?? "").trim();
    };
    const fail = (column: BulkColumn, code: string, params?: TextParams) =>
      rowErrors.push({ row: number, column, code, ...(params ? { params } : {}) });
    const text = (column: BulkColumn) => {
      const value = cell(column);
      if (value.length > (LIMITS[column] ?? 500)) {
        fail(column, "errors.too_long");
        return "";
      }
      return value;
    };
    const flag = (column: BulkColumn): boolean | null => {
      const value = cell(column).toLowerCase();
      if (value === "") return null;
      if (YES.has(value)) return true;
      if (NO.has(value)) return false;
      fail(column, "bulk.errors.yes_no");
      return null;
    };

    const currencyText = cell("currency_code").toUpperCase();
    let currency: string = defaults.currency;
    if (currencyText) {
      if (isSupportedCurrency(currencyText)) currency = currencyText;
      else fail("currency_code", "payment_request.errors.currency");
    }

    const amountText = cell("amount");
    let amount: number | null = null;
    if (!amountText) fail("amount", "errors.required");
    else {
      const parsed = parseAmount(amountText, currency);
      if (!parsed.ok) fail("amount", parsed.error);
      else if (parsed.minor <= 0) fail("amount", "money.invalid");
      else amount = parsed.minor;
    }

    const email = text("customer_email");
    if (email && !EmailSchema.safeParse(email).success) fail("customer_email", "errors.invalid_email");
    const phoneText = text("customer_phone");
    let phone: string | null = null;
    if (phoneText) {
      phone = normalizePhone(phoneText, defaults.country) ?? null;
      if (!phone) fail("customer_phone", "payment_request.errors.phone");
    }
    if (!email && !phoneText) fail("customer_email", "bulk.errors.contact_required");

    const firstName = text("customer_first_name");
    const lastName = text("customer_last_name");
    const description = text("description");
    const remarks = text("remarks");

    const nextUrlText = text("next_url");
    let nextUrl: string | null = null;
    if (nextUrlText) {
      if (HttpsUrlSchema.safeParse(nextUrlText).success) nextUrl = new URL(nextUrlText).href;
      else fail("next_url", "payment_request.errors.next_url");
    }

    const expirationText = text("expiration_time");
    let expiresAfterMs: number | null = null;
    if (expirationText) {
      const expiration = readExpiration(expirationText);
      if (!expiration) fail("expiration_time", "payment_request.errors.expiration_format");
      else if (expiration <= current) fail("expiration_time", "payment_request.errors.expiration_past");
      else expiresAfterMs = expiration.getTime() - current.getTime();
    } else if (rules.defaultExpiryHours !== null) expiresAfterMs = rules.defaultExpiryHours * 3_600_000;

    // Blank: every gateway of the merchant that takes the row's currency.
    const codesText = text("pg_codes");
    const offered = usable(currency);
    let codes = [
      ...new Set(
        codesText
          .split(/[|,]/)
          .map((code) => code.trim())
          .filter(Boolean),
      ),
    ];
    if (codes.length === 0) {
      codes = offered;
      if (codes.length === 0) fail("pg_codes", "payment_request.errors.gateways_required");
    } else if (codes.some((code) => !offered.includes(code)))
      fail("pg_codes", "payment_request.errors.gateway_unavailable");

    // A row may ask for a channel itself; otherwise it gets the form's choice where it has the contact.
    const sendEmail = flag("send_email");
    const sendSms = flag("send_sms");
    if (sendEmail === true && !email) fail("customer_email", "payment_request.errors.email_for_sending");
    if (sendSms === true && !phoneText) fail("customer_phone", "payment_request.errors.phone_for_sending");
    if (sendEmail === true && !rules.emailNotifications)
      fail("send_email", "payment_request.settings.refused.email_notifications");
    if (sendSms === true && !rules.smsNotifications)
      fail("send_sms", "payment_request.settings.refused.sms_notifications");
    // A row to be sent that has no address for any of its channels would make a request nobody is sent.
    const wantsEmail = sendEmail ?? input.choices.sendEmail;
    const wantsSms = sendSms ?? input.choices.sendSms;
    if (
      (wantsEmail || wantsSms) &&
      !(wantsEmail && email) &&
      !(wantsSms && phoneText) &&
      sendEmail !== true &&
      sendSms !== true &&
      (email || phoneText)
    ) {
      if (wantsEmail) fail("customer_email", "bulk.errors.no_email_for_channel");
      else fail("customer_phone", "bulk.errors.no_phone_for_channel");
    }

    const languageText = cell("language").toLowerCase();
    let lang = input.choices.lang;
    if (languageText) {
      if (LANGUAGES[languageText]) lang = LANGUAGES[languageText];
      else fail("language", "bulk.errors.language");
    }

    const editable = flag("editable_amount") === true;
    if (editable && !rules.editableAmount) fail("editable_amount", "payment_request.settings.refused.editable_amount");
    let bounds: { min: number; max: number } | null = null;
    if (editable && amount !== null) {
      const result = checkBounds({
        amount,
        currency,
        min: text("min_amount") || undefined,
        max: text("max_amount") || undefined,
      });
      if (result.ok) bounds = result.bounds;
      else
        for (const refusal of result.refusals)
          fail(
            refusal.field,
            refusal.code,
            refusal.code === "payment_request.errors.above_cap"
              ? { cap: money(editableAmountCap(currency), currency) }
              : refusal.params,
          );
    }

    if (rowErrors.length || amount === null) {
      errors.push(...rowErrors);
      continue;
    }
    checked.push({
      row_number: number,
      amount,
      currency_code: currency,
      editable_amount: editable ? 1 : 0,
      min_amount: bounds?.min ?? null,
      max_amount: bounds?.max ?? null,
      customer_first_name: firstName || null,
      customer_last_name: lastName || null,
      customer_email: email || null,
      customer_phone: phone,
      description: description || null,
      remarks: remarks || null,
      next_url: nextUrl,
      pg_codes: codes.join(","),
      expires_after_ms: expiresAfterMs,
      send_email: (sendEmail ?? input.choices.sendEmail) && email ? 1 : 0,
      send_sms: (sendSms ?? input.choices.sendSms) && phone ? 1 : 0,
      lang,
    });
  }

  if (errors.length) return { ok: false, kind: "rows", errors, rowsChecked: rows.length, header: headerRow, rows };
  return { ok: true, rows: checked };
}

/** Rows per INSERT: 20 columns × 500, well under both engines' limits on bound values. */
const BATCH = 500;

/**
 * Keeps a checked bulk and its rows, and makes its first run (a payment request per row, and the
 * messages to send), in one database transaction.
 */
export async function createBulk(
  db: DB,
  input: {
    merchantId: number;
    user: { id: number; username: string };
    fileName: string;
    rows: readonly CheckedRow[];
    choices: UploadChoices;
    baseUrl: string;
    uploadToken?: string;
  },
): Promise<{ bulkId: number; rows: number; created: number; dispatchLogId: number; repeated?: boolean }> {
  return writeTransaction(db, async (trx) => {
    const createdAt = nowIso();
    const recurring = input.choices.schedule !== "none";
    const inserted = await trx
      .insertInto("bulk_uploads")
      .values({
        merchant_id: input.merchantId,
        file_name: input.fileName.slice(0, 200),
        row_count: input.rows.length,
        created_by: input.user.id,
        created_by_name: input.user.username,
        send_email: input.choices.sendEmail ? 1 : 0,
        send_sms: input.choices.sendSms ? 1 : 0,
        lang: input.choices.lang,
        base_url: input.baseUrl,
        schedule: input.choices.schedule,
        schedule_from: recurring ? createdAt : null,
        next_run_at:
          input.choices.schedule === "none"
            ? null
            : nextRunAt(input.choices.schedule, new Date(createdAt), new Date(createdAt)).toISOString(),
        runs: 1,
        created_at: createdAt,
        ended_at: null,
        upload_token: input.uploadToken ?? null,
      })
      // The same form posted twice (a double click, a refresh): the second makes nothing and answers the first bulk.
      .onConflict((conflict) => conflict.columns(["merchant_id", "upload_token"]).doNothing())
      .returning(["id", "merchant_id", "base_url", "file_name"])
      .executeTakeFirst();
    if (!inserted) {
      const first = await findUploadByToken(trx, input.merchantId, input.uploadToken!);
      if (!first) throw new Error("bulk upload token conflict without its bulk");
      return first;
    }
    const bulk = inserted;
    const kept: { id: number; row: CheckedRow }[] = [];
    for (let from = 0; from < input.rows.length; from += BATCH) {
      const batch = input.rows.slice(from, from + BATCH);
      const inserted = await trx
        .insertInto("bulk_rows")
        .values(batch.map((row) => ({ ...row, merchant_id: input.merchantId, bulk_id: bulk.id })))
        .returning(["id", "row_number"])
        .execute();
      const byNumber = new Map(batch.map((row) => [row.row_number, row]));
      for (const row of inserted) kept.push({ id: row.id, row: byNumber.get(row.row_number)! });
    }
    kept.sort((a, b) => a.row.row_number - b.row.row_number);
    const run = await startRun(trx, { bulk, rows: kept, kind: "upload", actor: input.user });
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.user,
      action: "bulk_uploaded",
      params: { bulkId: bulk.id, file: bulk.file_name, count: input.rows.length },
      objectType: "bulk",
      objectId: bulk.id,
    });
    return { bulkId: bulk.id, rows: input.rows.length, created: run.created, dispatchLogId: run.dispatchLogId };
  });
}

/** The bulk an upload form's one-time token already made, as an upload answers it; undefined when none did. */
export async function findUploadByToken(db: DB, merchantId: number, uploadToken: string) {
  const bulk = await db
    .selectFrom("bulk_uploads")
    .select(["id", "row_count"])
    .where("merchant_id", "=", merchantId)
    .where("upload_token", "=", uploadToken)
    .executeTakeFirst();
  if (!bulk) return undefined;
  const run = await db
    .selectFrom("bulk_dispatch_logs")
    .select(["id", "requests_created"])
    .where("merchant_id", "=", merchantId)
    .where("bulk_id", "=", bulk.id)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return {
    bulkId: bulk.id,
    rows: bulk.row_count,
    created: run.requests_created,
    dispatchLogId: run.id,
    repeated: true,
  };
}

/**
 * Checks a bulk file and, when every cell is good, creates all its payment requests and queues their
 * sending. With the form's one-time token, a form posted again answers the bulk it already made.
 */
export async function uploadBulk(
  db: DB,
  input: {
    merchantId: number;
    user: { id: number; username: string };
    fileName: string;
    bytes: Buffer;
    choices: UploadChoices;
    baseUrl: string;
    rules?: RequestRules;
    uploadToken?: string;
  },
): Promise<UploadOutcome> {
  if (input.uploadToken) {
    const first = await findUploadByToken(db, input.merchantId, input.uploadToken);
    if (first) return { ok: true, ...first };
  }
  const read = await readBulkFile(db, input);
  if (!read.ok) return read;
  return { ok: true, ...(await createBulk(db, { ...input, rows: read.rows })) };
}
