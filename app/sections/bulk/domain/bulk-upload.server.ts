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
import { money } from "~/lib/outcome";
import {
  checkRows,
  readSheet,
  yesNoReader,
  type Cell,
  type FileRefusal,
  type RowsRefusal,
  type SheetSpec,
} from "~/lib/spreadsheet-import.server";
import { BULK_MAX_ROWS, REQUIRED_COLUMNS, type Schedule } from "./bulk-columns";
import { startRun } from "./bulk-runs.server";
import { nextRunAt } from "./schedule";

/**
 * A bulk upload (issue 15): one CSV or XLSX of payment requests, all or nothing. Every cell is
 * checked first, by the rules of the payment request create form; one bad cell and nothing is
 * created, and the answer names each bad cell. Otherwise the bulk, its rows, one payment request per
 * row and the first sending run are written in one database transaction, and a job sends them.
 */

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

export type ReadOutcome = { ok: true; rows: CheckedRow[] } | FileRefusal | RowsRefusal;

export type UploadOutcome =
  | { ok: true; bulkId: number; rows: number; created: number; dispatchLogId: number; repeated?: boolean }
  | FileRefusal
  | RowsRefusal;

/** What a file's cells are read against: the merchant's currency and country, the form's choices and settings. */
type BulkContext = {
  defaults: { currency: string; country: string };
  current: Date;
  choices: UploadChoices;
  rules: RequestRules;
};

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

/** A text of at most `max` characters; a longer one is refused and read as blank. */
const text = (max: number) => (value: string, cell: Cell<BulkContext>) => {
  if (value.length <= max) return value;
  cell.refuse("errors.too_long");
  return "";
};
/** Read as it is given, checked with the row's other cells. */
const asGiven = (value: string) => value;
const yesNo = yesNoReader("bulk.errors.yes_no", { yes: ["on"], no: ["off"] });

const BULK_SHEET = {
  required: REQUIRED_COLUMNS,
  columns: {
    currency_code: (value: string, cell: Cell<BulkContext>) => {
      const currency = value.toUpperCase();
      if (!currency) return cell.context.defaults.currency;
      if (isSupportedCurrency(currency)) return currency;
      cell.refuse("payment_request.errors.currency");
      return cell.context.defaults.currency;
    },
    amount: asGiven,
    customer_email: (value: string, cell: Cell<BulkContext>) => {
      const email = text(254)(value, cell);
      if (email && !EmailSchema.safeParse(email).success) cell.refuse("errors.invalid_email");
      return email;
    },
    customer_phone: (value: string, cell: Cell<BulkContext>) => {
      const given = text(30)(value, cell);
      const phone = given ? (normalizePhone(given, cell.context.defaults.country) ?? null) : null;
      if (given && !phone) cell.refuse("payment_request.errors.phone");
      return { given, phone };
    },
    customer_first_name: text(100),
    customer_last_name: text(100),
    description: text(2000),
    remarks: text(2000),
    next_url: (value: string, cell: Cell<BulkContext>) => {
      const given = text(500)(value, cell);
      if (!given) return null;
      if (HttpsUrlSchema.safeParse(given).success) return new URL(given).href;
      cell.refuse("payment_request.errors.next_url");
      return null;
    },
    /** How long after a run its request expires. */
    expiration_time: (value: string, cell: Cell<BulkContext>): number | null => {
      const given = text(40)(value, cell);
      const { current, rules } = cell.context;
      if (!given) return rules.defaultExpiryHours === null ? null : rules.defaultExpiryHours * 3_600_000;
      const expiration = readExpiration(given);
      if (!expiration) cell.refuse("payment_request.errors.expiration_format");
      else if (expiration <= current) cell.refuse("payment_request.errors.expiration_past");
      else return expiration.getTime() - current.getTime();
      return null;
    },
    pg_codes: (value: string, cell: Cell<BulkContext>) => [
      ...new Set(
        text(400)(value, cell)
          .split(/[|,]/)
          .map((code) => code.trim())
          .filter(Boolean),
      ),
    ],
    send_email: yesNo,
    send_sms: yesNo,
    language: (value: string, cell: Cell<BulkContext>) => {
      const given = value.toLowerCase();
      if (!given) return cell.context.choices.lang;
      if (!LANGUAGES[given]) cell.refuse("bulk.errors.language");
      return LANGUAGES[given] ?? cell.context.choices.lang;
    },
    editable_amount: yesNo,
    min_amount: asGiven,
    max_amount: asGiven,
  },
  maxRows: BULK_MAX_ROWS,
  refusals: {
    emptyFile: "bulk.errors.empty_file",
    unreadable: "bulk.errors.unreadable",
    notUtf8: "bulk.errors.not_utf8",
    missingColumns: "bulk.errors.missing_columns",
    unknownColumns: "bulk.errors.unknown_columns",
    noRows: "bulk.errors.no_rows",
    tooManyRows: "bulk.errors.too_many_rows",
  },
} satisfies SheetSpec<BulkContext>;

/**
 * Checks every cell of a bulk file against the merchant's currency, country and gateways, as the
 * create form checks one request; answers the rows ready to keep, or every bad cell.
 */
export async function readBulkFile(
  db: DB,
  input: { merchantId: number; bytes: Buffer; choices: UploadChoices; rules?: RequestRules },
): Promise<ReadOutcome> {
  const { choices } = input;
  const rules = input.rules ?? UNRESTRICTED_RULES;
  // The form's channel, against the merchant's settings, before the file is read.
  if (choices.sendEmail && !rules.emailNotifications)
    return { ok: false, kind: "file", code: "payment_request.settings.refused.email_notifications" };
  if (choices.sendSms && !rules.smsNotifications)
    return { ok: false, kind: "file", code: "payment_request.settings.refused.sms_notifications" };
  const sheet = await readSheet(input.bytes, BULK_SHEET);
  if (!sheet.ok) return sheet;

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
  const context = { defaults, current: now(), choices, rules };

  const checked = checkRows(sheet, BULK_SHEET, context, (cells, row): CheckedRow => {
    const { currency_code: currency, customer_email: email, send_email: sendEmail, send_sms: sendSms } = cells;
    const phoneText = cells.customer_phone.given;
    let amount = 0;
    if (!cells.amount) row.refuse("amount", "errors.required");
    else {
      const parsed = parseAmount(cells.amount, currency);
      if (!parsed.ok) row.refuse("amount", parsed.error);
      else if (parsed.minor <= 0) row.refuse("amount", "money.invalid");
      else amount = parsed.minor;
    }
    if (!email && !phoneText) row.refuse("customer_email", "bulk.errors.contact_required");

    // Blank: every gateway of the merchant that takes the row's currency.
    const offered = usable(currency);
    const codes = cells.pg_codes.length ? cells.pg_codes : offered;
    if (codes.length === 0) row.refuse("pg_codes", "payment_request.errors.gateways_required");
    else if (codes.some((code) => !offered.includes(code)))
      row.refuse("pg_codes", "payment_request.errors.gateway_unavailable");

    // A row may ask for a channel itself; otherwise it gets the form's choice where it has the contact.
    if (sendEmail === true && !email) row.refuse("customer_email", "payment_request.errors.email_for_sending");
    if (sendSms === true && !phoneText) row.refuse("customer_phone", "payment_request.errors.phone_for_sending");
    if (sendEmail === true && !rules.emailNotifications)
      row.refuse("send_email", "payment_request.settings.refused.email_notifications");
    if (sendSms === true && !rules.smsNotifications)
      row.refuse("send_sms", "payment_request.settings.refused.sms_notifications");
    // A row to be sent that has no address for any of its channels would make a request nobody is sent.
    const wantsEmail = sendEmail ?? choices.sendEmail;
    const wantsSms = sendSms ?? choices.sendSms;
    if (
      (wantsEmail || wantsSms) &&
      !(wantsEmail && email) &&
      !(wantsSms && phoneText) &&
      sendEmail !== true &&
      sendSms !== true &&
      (email || phoneText)
    ) {
      if (wantsEmail) row.refuse("customer_email", "bulk.errors.no_email_for_channel");
      else row.refuse("customer_phone", "bulk.errors.no_phone_for_channel");
    }

    const editable = cells.editable_amount === true;
    if (editable && !rules.editableAmount)
      row.refuse("editable_amount", "payment_request.settings.refused.editable_amount");
    let bounds: { min: number; max: number } | null = null;
    if (editable && amount > 0) {
      const bound = (column: "min_amount" | "max_amount") => {
        if (cells[column].length <= 20) return cells[column] || undefined;
        row.refuse(column, "errors.too_long");
        return undefined;
      };
      const result = checkBounds({ amount, currency, min: bound("min_amount"), max: bound("max_amount") });
      if (result.ok) bounds = result.bounds;
      else
        for (const refusal of result.refusals)
          row.refuse(
            refusal.field,
            refusal.code,
            refusal.code === "payment_request.errors.above_cap"
              ? { cap: money(editableAmountCap(currency), currency) }
              : refusal.params,
          );
    }

    return {
      row_number: row.number,
      amount,
      currency_code: currency,
      editable_amount: editable ? 1 : 0,
      min_amount: bounds?.min ?? null,
      max_amount: bounds?.max ?? null,
      customer_first_name: cells.customer_first_name || null,
      customer_last_name: cells.customer_last_name || null,
      customer_email: email || null,
      customer_phone: cells.customer_phone.phone,
      description: cells.description || null,
      remarks: cells.remarks || null,
      next_url: cells.next_url,
      pg_codes: codes.join(","),
      expires_after_ms: cells.expiration_time,
      send_email: wantsEmail && email ? 1 : 0,
      send_sms: wantsSms && cells.customer_phone.phone ? 1 : 0,
      lang: cells.language,
    };
  });
  return checked;
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
