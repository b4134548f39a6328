import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import type { TransactionState } from "~/db/schema";
import { listUnreadNotifications, markNotificationsRead } from "~/domain/messaging/notifications.server";
import { parseListQuery } from "~/domain/transactions/filters";
import { bumpTotals } from "~/domain/payments/running-totals.server";
import { resetEnvCache } from "~/lib/env.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { runReadyJobs } from "~/lib/jobs.server";
import { exportConfig, neutraliseCell, runExport, writeReportFile } from "~/presentation/report-files.server";
import { recoverInterruptedExports, reportFileName, requestExport } from "./exports.server";
import { localPathOf } from "~/lib/storage.server";
import { openSession } from "~/domain/identity/sessions.server";
import { takeReportNotices } from "~/presentation/notifications.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let reportsDir: string;
let orderNo = 0;

type Row = {
  state?: TransactionState;
  plugin?: string;
  amount?: number;
  email?: string;
  phone?: string;
  firstName?: string;
  description?: string;
  created: string;
  merchantId?: number;
  gateway?: string;
};

async function insert(row: Row) {
  const merchantId = row.merchantId ?? shop.merchantId;
  const id = `X${String(++orderNo).padStart(21, "0")}`;
  const plugin = row.plugin ?? "payment_request";
  const amount = row.amount ?? 1500;
  await database.db
    .insertInto("transactions")
    .values({
      id,
      merchant_id: merchantId,
      unit_id: null,
      plugin,
      order_no: orderNo,
      state: row.state ?? "created",
      amount,
      currency_code: "KWD",
      editable_amount: 0,
      customer_email: row.email ?? null,
      customer_email_lc: row.email?.toLowerCase() ?? null,
      customer_phone: row.phone ?? null,
      customer_first_name: row.firstName ?? null,
      customer_last_name: null,
      description: row.description ?? null,
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: "cod",
      expiration_time: null,
      next_url: null,
      initiator_user_id: null,
      gateway_code: row.gateway ?? null,
      paid_attempt_id: null,
      send_email: 0,
      send_sms: 0,
      created_at: row.created,
      state_changed_at: row.created,
      deleted_at: null,
    })
    .execute();
  await bumpTotals(
    database.db,
    { merchantId, plugin, currency: "KWD", at: row.created },
    { generated_count: 1, generated_amount: amount },
  );
  return id;
}

const ids: Record<string, string> = {};
const admin = () => ({ ...shop.admin, is_superuser: 1, permissions: [] as string[] });
const staff = () => ({
  ...shop.staff,
  is_superuser: 0,
  permissions: ["view_paymenttransaction", "search_paymenttransaction"],
});
/** A storage key written straight to, and where the local storage keeps it. */
const file = (name: string) => ({ key: `reports/direct/${name}`, path: path.join(reportsDir, "direct", name) });

beforeAll(async () => {
  reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-reports-"));
  process.env.REPORTS_DIR = reportsDir;
  resetEnvCache();
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Exports");
  other = await seedMerchant(database.db, "Elsewhere");
  ids.paid = await insert({
    created: "2026-03-10T08:00:00.000Z",
    state: "paid",
    amount: 12500,
    gateway: "mpgs-sandbox",
    email: "paid@example.com",
    phone: "+96555501234",
    firstName: '=HYPERLINK("http://evil.example","x")',
  });
  ids.formulas = await insert({
    created: "2026-03-10T21:30:15.000Z",
    state: "paid",
    gateway: "knet-sandbox",
    email: "@evil.example",
    firstName: "+cmd|' /C calc'!A0",
    description: '-2+3, "quoted"\nsecond line',
  });
  ids.tab = await insert({
    created: "2026-03-10T10:00:00.000Z",
    state: "failed",
    firstName: "\t=1+1",
    description: "Bell\u0007 <b>&amp;</b>",
  });
  ids.shop = await insert({
    created: "2026-03-10T11:00:00.000Z",
    state: "paid",
    plugin: "e_commerce",
    email: "shop@example.com",
  });
  ids.foreign = await insert({
    created: "2026-03-10T12:00:00.000Z",
    state: "paid",
    merchantId: other.merchantId,
    email: "foreign@example.com",
  });
});

afterAll(async () => {
  await database?.destroy();
  fs.rmSync(reportsDir, { recursive: true, force: true });
  delete process.env.REPORTS_DIR;
  resetEnvCache();
});

/** Makes every new notification fail to be written (a trigger), or lets them through again. */
async function refuseNotifications(refuse: boolean) {
  if (database.engine === "postgres") {
    if (refuse) {
      await sql
        .raw(
          `create or replace function refuse_notices() returns trigger language plpgsql as $$ begin raise exception 'no notices'; end $$`,
        )
        .execute(database.db);
      await sql
        .raw(
          `create trigger refuse_notices before insert on notifications for each row execute function refuse_notices()`,
        )
        .execute(database.db);
    } else {
      await sql.raw(`drop trigger refuse_notices on notifications`).execute(database.db);
    }
  } else if (refuse) {
    await sql
      .raw(`create trigger refuse_notices before insert on notifications begin select raise(abort, 'no notices'); end`)
      .execute(database.db);
  } else {
    await sql.raw(`drop trigger refuse_notices`).execute(database.db);
  }
}

function csvLines(text: string) {
  return text.slice(1).split("\r\n");
}

describe("the export config", () => {
  it("offers the built-in fields with the merchant's labels, no custom fields, and the other fields, in both languages", async () => {
    const config = await exportConfig(database.db, shop.merchantId, "payment_request", "ar");
    expect(config.builtin_fields.find((field) => field.name === "amount")).toEqual({
      name: "amount",
      label: "المبلغ",
      label_en: "Amount",
      label_ar: "المبلغ",
    });
    expect(config.custom_fields).toEqual([]);
    expect(config.other_fields.map((field) => field.name)).toEqual(["extra", "auth_code", "card_type", "ref_number"]);
    expect(config.default).toEqual([
      "order_no",
      "created",
      "customer_email",
      "amount",
      "currency_code",
      "state",
      "gateway_name",
      "initiator",
    ]);
  });
});

describe("the file writer", () => {
  const fields = ["order_no", "customer_name", "customer_phone", "description", "amount", "state"];

  it("writes a CSV with a BOM, labels in English, RFC 4180 quoting, formula cells neutralised and the filters applied", async () => {
    const target = file("paid.csv");
    const result = await writeReportFile(database.db, {
      scope: { merchantId: shop.merchantId, plugin: "payment_request", deleted: false },
      filters: parseListQuery(new URLSearchParams("state=paid")).filters,
      fields,
      labels: ["Order", "Name", "Phone", "Description", "Amount", "State"],
      format: "csv",
      language: "en",
      key: target.key,
    });
    const text = fs.readFileSync(target.path, "utf8");
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(result).toEqual({ rows: 2, bytes: fs.statSync(target.path).size });
    expect(csvLines(text)).toEqual([
      "Order,Name,Phone,Description,Amount,State",
      `2,'+cmd|' /C calc'!A0,,"'-2+3, ""quoted""\nsecond line",1.500,Paid`,
      `1,"'=HYPERLINK(""http://evil.example"",""x"")",+96555501234,,12.500,Paid`,
      "",
    ]);
    expect(fs.readdirSync(path.dirname(target.path)).filter((name) => name.endsWith(".part"))).toEqual([]);
  });

  it("writes times in Kuwait time and gateways by their name in the report's language, in CSV", async () => {
    const write = async (language: "en" | "ar") => {
      const target = file(`times-${language}.csv`);
      await writeReportFile(database.db, {
        scope: { merchantId: shop.merchantId, plugin: "payment_request", deleted: false },
        filters: parseListQuery(new URLSearchParams("state=paid")).filters,
        fields: ["order_no", "created", "gateway_name", "amount"],
        labels: ["Order", "Created", "Gateway", "Amount"],
        format: "csv",
        language,
        key: target.key,
      });
      return csvLines(fs.readFileSync(target.path, "utf8"));
    };
    // 21:30:15 UTC is half past midnight the next day in Kuwait (UTC+3).
    expect(await write("en")).toEqual([
      "Order,Created,Gateway,Amount",
      "2,2026-03-11 00:30:15,KNET,1.500",
      "1,2026-03-10 11:00:00,Credit Card,12.500",
      "",
    ]);
    expect((await write("ar")).slice(1, 3)).toEqual([
      "2,2026-03-11 00:30:15,كي نت,1.500",
      "1,2026-03-10 11:00:00,بطاقة ائتمان,12.500",
    ]);
  });

  it("writes an XLSX that Excel's format readers open, with Arabic labels, translated states and neutralised cells", async () => {
    const target = file("all.xlsx");
    const result = await writeReportFile(database.db, {
      scope: { merchantId: shop.merchantId, deleted: false },
      filters: {},
      fields: [...fields, "customer_email"],
      labels: { order_no: "رقم الطلب", customer_name: "اسم العميل", state: "الحالة" },
      format: "xls",
      language: "ar",
      key: target.key,
    });
    expect(result.rows).toBe(4);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(target.path);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe("المعاملات");
    expect(sheet.views[0]?.rightToLeft).toBe(true);
    const values = (row: number) =>
      Array.from({ length: 7 }, (_, index) => sheet.getRow(row).getCell(index + 1).value ?? "");
    expect(values(1)).toEqual([
      "رقم الطلب",
      "اسم العميل",
      "customer_phone",
      "description",
      "amount",
      "الحالة",
      "customer_email",
    ]);
    expect(sheet.rowCount).toBe(5);
    // Newest first: the formulas row (21:30 UTC), the e-commerce one, the failed one, the first paid one.
    expect(values(2)).toEqual([
      2,
      "'+cmd|' /C calc'!A0",
      "",
      '\'-2+3, "quoted"\nsecond line',
      1.5,
      "مدفوع",
      "'@evil.example",
    ]);
    expect(values(3)).toEqual([4, "", "", "", 1.5, "مدفوع", "shop@example.com"]);
    expect(values(4)).toEqual([3, "'\t=1+1", "", "Bell <b>&amp;</b>", 1.5, "فشل", ""]);
    expect(values(5)[1]).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(values(5)[4]).toBe(12.5);
  });

  it("writes amounts as number cells with the currency's decimals and times as Kuwait date cells, so a spreadsheet sums and sorts them", async () => {
    const target = file("typed.xlsx");
    await writeReportFile(database.db, {
      scope: { merchantId: shop.merchantId, plugin: "payment_request", deleted: false },
      filters: parseListQuery(new URLSearchParams("state=paid")).filters,
      fields: ["order_no", "created", "amount", "fee", "gateway_name", "expiration_time"],
      labels: ["Order", "Created", "Amount", "Fee", "Gateway", "Expires"],
      format: "xls",
      language: "en",
      key: target.key,
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(target.path);
    const sheet = workbook.worksheets[0];
    expect(sheet.views[0]?.rightToLeft).toBeFalsy();
    const [newest, oldest] = [sheet.getRow(2), sheet.getRow(3)];
    expect(newest.getCell(1).type).toBe(ExcelJS.ValueType.Number);
    expect(newest.getCell(1).value).toBe(2);
    for (const row of [newest, oldest]) {
      for (const column of [3, 4]) {
        expect(row.getCell(column).type).toBe(ExcelJS.ValueType.Number);
        expect(row.getCell(column).numFmt).toBe("0.000");
      }
      expect(row.getCell(2).type).toBe(ExcelJS.ValueType.Date);
      expect(row.getCell(2).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
      // Nothing expires: the cell is empty, not a date of 1900.
      expect(row.getCell(6).value).toBeNull();
    }
    expect(newest.getCell(3).value).toBe(1.5);
    expect(oldest.getCell(3).value).toBe(12.5);
    expect(oldest.getCell(4).value).toBe(0);
    // A spreadsheet's dates have no zone: the cell holds the Kuwait wall-clock time (11:00 for 08:00 UTC).
    expect(oldest.getCell(2).value).toEqual(new Date("2026-03-10T11:00:00.000Z"));
    expect(newest.getCell(2).value).toEqual(new Date("2026-03-11T00:30:15.000Z"));
    expect(newest.getCell(5).value).toBe("KNET");
    expect(oldest.getCell(5).value).toBe("Credit Card");
    // Wide enough for a date and time (Excel shows ##### in a narrower column).
    expect(sheet.getColumn(2).width).toBeGreaterThanOrEqual(19);
  });

  it("reads every row exactly once across batches, however many share a timestamp", async () => {
    const created = ["2026-04-01T08:00:00.000Z", "2026-04-01T08:00:00.000Z", "2026-04-02T08:00:00.000Z"];
    for (let index = 0; index < 90; index++) await insert({ created: created[index % 3], plugin: "bulk" });
    const target = file("bulk.csv");
    const result = await writeReportFile(database.db, {
      scope: { merchantId: shop.merchantId, plugin: "bulk", deleted: false },
      filters: {},
      fields: ["id"],
      labels: ["id"],
      format: "csv",
      language: "en",
      key: target.key,
      batchSize: 7,
    });
    const rows = csvLines(fs.readFileSync(target.path, "utf8")).slice(1, -1);
    expect(result.rows).toBe(90);
    expect(new Set(rows).size).toBe(90);
  });

  it("neutralises formula starts but leaves plain signed numbers alone", () => {
    expect(
      ["=1", "+A1", "-A1", "@SUM(A1)", "\t=1", "\r=1", "+96555501234", "-12.5", "plain"].map(neutraliseCell),
    ).toEqual(["'=1", "'+A1", "'-A1", "'@SUM(A1)", "'\t=1", "'\r=1", "+96555501234", "-12.5", "plain"]);
  });
});

describe("a report's file name", () => {
  it("says the list, its filters and when it was asked for, in Kuwait time, in ASCII only", () => {
    const at = "2026-11-24T11:05:00.000Z";
    expect(
      reportFileName("payment_request", "xls", at, "state=paid&created_after=2026-11-01&created_before=2026-11-24"),
    ).toBe("payment-request_paid_2026-11-01_2026-11-24_20261124-1405.xlsx");
    expect(reportFileName("all", "csv", at, "")).toBe("transactions_20261124-1405.csv");
    expect(
      reportFileName("e_commerce", "csv", at, "state=paid,failed&gateway_code=knet-sandbox&currency_code=KWD"),
    ).toBe("e-commerce_paid-failed_knet-sandbox_kwd_20261124-1405.csv");
    // A search or any other filter is named, not spelled out: a customer's email stays out of file names.
    expect(
      reportFileName("payment_request", "csv", at, "q=%D8%A3%D8%AD%D9%85%D8%AF%40example.com&created_after=2026-11-01"),
    ).toBe("payment-request_from-2026-11-01_filtered_20261124-1405.csv");
    // Just after midnight in Kuwait is still the day before in UTC.
    expect(reportFileName("bulk", "csv", "2026-11-23T21:30:00.000Z", "")).toBe("bulk_20261124-0030.csv");
  });
});

describe("asking for an export", () => {
  const ask = (overrides: Partial<Parameters<typeof requestExport>[1]> = {}) =>
    requestExport(database.db, {
      merchantId: shop.merchantId,
      user: admin(),
      section: "payment_request",
      query: "state=paid&page=3",
      fileFormat: "csv",
      exportType: "selected",
      fields: ["order_no,customer_email", "state", "auth_code"],
      language: "en",
      ...overrides,
    });

  it("refuses unknown fields, an empty selection, unknown formats and sections", async () => {
    expect(await ask({ fields: ["order_no", "password"] })).toEqual({
      ok: false,
      error: "invalid",
      errors: { fields: "exports.errors.unknown_field" },
    });
    expect(await ask({ fields: [] })).toEqual({
      ok: false,
      error: "invalid",
      errors: { fields: "exports.errors.no_fields" },
    });
    expect(await ask({ fileFormat: "pdf", section: "nowhere" })).toEqual({
      ok: false,
      error: "invalid",
      errors: { file_format: "exports.errors.unknown_format", section: "exports.errors.unknown_section" },
    });
  });

  it("refuses staff without view_export_settings", async () => {
    expect(await ask({ user: staff() })).toEqual({ ok: false, error: "forbidden" });
    expect(await ask({ user: { ...staff(), permissions: ["view_export_settings"] } })).toEqual({
      ok: false,
      error: "forbidden",
    });
  });

  it("leaves the list's filters out for a user who may export but not search, as the list does", async () => {
    const exporter = {
      ...shop.staff,
      is_superuser: 0,
      permissions: ["view_paymenttransaction", "view_export_settings"],
    };
    const asked = await ask({ user: exporter });
    if (!asked.ok) throw new Error("export refused");
    const queued = await database.db
      .selectFrom("reports")
      .select(["query"])
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(queued.query).toBe("");
    await database.db.deleteFrom("jobs").execute();
    await database.db.deleteFrom("reports").where("id", "=", asked.id).execute();
  });

  it("queues a report that a job builds, then tells the user it is exported, with an audit trail", async () => {
    const asked = await ask();
    if (!asked.ok) throw new Error("export refused");
    const queued = await database.db
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(queued).toMatchObject({
      state: "queued",
      query: "state=paid",
      fields: "order_no,customer_email,state,auth_code",
      user_name: shop.admin.username,
    });
    expect(queued.file_name).toMatch(/^payment-request_paid_\d{8}-\d{4}\.csv$/);

    expect(await runReadyJobs(database.db)).toBe(1);
    const done = await database.db
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ state: "done", rows_total: 2, rows_done: 2, error: null });
    expect(csvLines(fs.readFileSync(localPathOf(done.file_path!), "utf8"))).toEqual([
      "Order no.,Customer email,State,Auth code",
      "2,'@evil.example,Paid,",
      "1,paid@example.com,Paid,",
      "",
    ]);
    expect(done.file_size).toBe(fs.statSync(localPathOf(done.file_path!)).size);

    const notifications = await listUnreadNotifications(database.db, {
      merchantId: shop.merchantId,
      userId: shop.admin.id,
    });
    expect(notifications).toEqual([
      expect.objectContaining({
        kind: "report_exported",
        title: "Report exported",
        link: `/en/generated-reports?id=${asked.id}`,
      }),
    ]);
    expect(await listUnreadNotifications(database.db, { merchantId: shop.merchantId, userId: shop.staff.id })).toEqual(
      [],
    );
    expect(
      await markNotificationsRead(database.db, { merchantId: shop.merchantId, userId: shop.staff.id }, [
        notifications[0].id,
      ]),
    ).toBe(0);
    expect(
      await markNotificationsRead(database.db, { merchantId: shop.merchantId, userId: shop.admin.id }, [
        notifications[0].id,
      ]),
    ).toBe(1);
    expect(await listUnreadNotifications(database.db, { merchantId: shop.merchantId, userId: shop.admin.id })).toEqual(
      [],
    );

    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name"])
      .where("object_type", "=", "report")
      .where("object_id", "=", String(asked.id))
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "export_requested", actor_name: shop.admin.username },
      { action: "export_finished", actor_name: shop.admin.username },
    ]);
  });

  it("exports the section's default fields in Arabic as XLSX and notifies in Arabic", async () => {
    const asked = await ask({ exportType: "default", fields: undefined, fileFormat: "xls", language: "ar", query: "" });
    if (!asked.ok) throw new Error("export refused");
    await runReadyJobs(database.db);
    const done = await database.db
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(done.file_name).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(localPathOf(done.file_path!));
    expect((workbook.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual([
      "رقم الطلب",
      "تاريخ الإنشاء",
      "بريد العميل",
      "المبلغ",
      "العملة",
      "الحالة",
      "طريقة الدفع",
      "أنشأها",
    ]);
    expect(workbook.worksheets[0].rowCount).toBe(4);
    const [notification] = await listUnreadNotifications(database.db, {
      merchantId: shop.merchantId,
      userId: shop.admin.id,
    });
    expect(notification).toMatchObject({ title: "تم تصدير التقرير", link: `/ar/generated-reports?id=${asked.id}` });
  });

  it("is done only together with its notice: when telling the user fails, the report is not done and the retried job tells them", async () => {
    const asked = await ask();
    if (!asked.ok) throw new Error("export refused");
    await refuseNotifications(true);
    try {
      await expect(runExport(database.db, asked.id)).rejects.toThrow(/no notices/);
    } finally {
      await refuseNotifications(false);
    }
    const unfinished = await database.db
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(unfinished.state).toBe("running");
    expect(unfinished.finished_at).toBeNull();
    const finishedAudit = () =>
      database.db
        .selectFrom("audit_log")
        .select("action")
        .where("object_type", "=", "report")
        .where("object_id", "=", String(asked.id))
        .where("action", "in", ["export_finished", "export_failed"])
        .execute();
    expect(await finishedAudit()).toEqual([]);

    await runExport(database.db, asked.id);
    expect(
      (await database.db.selectFrom("reports").select("state").where("id", "=", asked.id).executeTakeFirstOrThrow())
        .state,
    ).toBe("done");
    const notices = await listUnreadNotifications(database.db, { merchantId: shop.merchantId, userId: shop.admin.id });
    expect(notices.filter((notice) => notice.link === `/en/generated-reports?id=${asked.id}`)).toEqual([
      expect.objectContaining({ kind: "report_exported" }),
    ]);
    expect(await finishedAudit()).toEqual([{ action: "export_finished" }]);
  });

  it("Generated reports takes a report's notice only beside the report shown finished: one that finished after its row was read waits for the next read", async () => {
    const { session } = await openSession(database.db, {
      userId: shop.admin.id,
      merchantId: shop.merchantId,
      kind: "web",
      ip: null,
      userAgent: null,
    });
    const reader = { merchantId: shop.merchantId, userId: shop.admin.id, sessionId: session.id };
    await markNotificationsRead(database.db, reader);
    const asked = await ask();
    if (!asked.ok) throw new Error("export refused");
    // The page read the row while the report was being made; the report finished before the page read its notices.
    await runReadyJobs(database.db);
    expect(await takeReportNotices(database.db, reader, "en", [{ id: asked.id, state: "running" }])).toEqual([]);
    // The next read shows the report ready, with its notice, once.
    expect(await takeReportNotices(database.db, reader, "en")).toEqual([
      expect.objectContaining({
        kind: "report_exported",
        title: "Report exported",
        link: `/en/generated-reports?id=${asked.id}`,
      }),
    ]);
    expect(await takeReportNotices(database.db, reader, "en")).toEqual([]);
  });

  it("marks a report failed and says so when the file cannot be made", async () => {
    const asked = await ask();
    if (!asked.ok) throw new Error("export refused");
    await database.db
      .updateTable("reports")
      .set({ fields: "order_no,not_a_field" })
      .where("id", "=", asked.id)
      .execute();
    await runExport(database.db, asked.id);
    const failed = await database.db
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ state: "failed", file_path: null });
    expect(failed.error).toContain("not_a_field");
    const notifications = await listUnreadNotifications(database.db, {
      merchantId: shop.merchantId,
      userId: shop.admin.id,
    });
    expect(notifications.at(-1)).toMatchObject({ kind: "report_failed", title: "Report export failed" });
  });
});

describe("an export whose worker died", () => {
  const ask = () =>
    requestExport(database.db, {
      merchantId: shop.merchantId,
      user: admin(),
      section: "payment_request",
      query: "state=paid",
      fileFormat: "csv",
      exportType: "selected",
      fields: ["order_no"],
      language: "ar",
    });

  /** A worker took the report's job, wrote part of the file and died: a stale .part, a running report, a running job. */
  async function interrupted(options: { attempts: number }) {
    const asked = await ask();
    if (!asked.ok) throw new Error("export refused");
    const report = await database.db
      .selectFrom("reports")
      .select(["id", "file_name"])
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    const finalPath = localPathOf(`reports/${shop.merchantId}/${report.id}/${report.file_name}`);
    const stale = `${finalPath}.4242.1700000000000.part`;
    fs.mkdirSync(path.dirname(stale), { recursive: true });
    fs.writeFileSync(stale, "\uFEFFOrder no.\r\n1\r\n");
    await database.db
      .updateTable("reports")
      .set({ state: "running", rows_total: 2, rows_done: 1 })
      .where("id", "=", report.id)
      .execute();
    await database.db
      .updateTable("jobs")
      .set({
        status: "running",
        locked_by: "gone:1",
        locked_at: new Date(Date.now()).toISOString(),
        attempts: options.attempts,
      })
      .where("type", "=", "export_report")
      .where("status", "=", "queued")
      .execute();
    return { id: report.id, finalPath, stale };
  }

  const partFiles = () =>
    fs
      .readdirSync(path.join(reportsDir, String(shop.merchantId)), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".part"));
  const report = (id: number) =>
    database.db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  afterEach(() => resetClock());

  it("is taken again within a minute and starts clean: the stale .part is gone and the file complete", async () => {
    const { id, finalPath, stale } = await interrupted({ attempts: 1 });
    await runReadyJobs(database.db);
    expect((await report(id)).state).toBe("running");
    advanceClock(40_000);
    await runReadyJobs(database.db);
    expect(await report(id)).toMatchObject({ state: "done", rows_done: 2, rows_total: 2 });
    expect(fs.existsSync(stale)).toBe(false);
    expect(partFiles()).toEqual([]);
    expect(csvLines(fs.readFileSync(finalPath, "utf8"))).toEqual(["رقم الطلب", "2", "1", ""]);
  });

  it("on its last attempt is marked failed, its .part removed and the user told", async () => {
    const { id, stale } = await interrupted({ attempts: 3 });
    advanceClock(40_000);
    await runReadyJobs(database.db);
    const failed = await report(id);
    expect(failed).toMatchObject({ state: "failed", file_path: null });
    expect(failed.error).toBe("توقف التصدير قبل اكتماله. اطلبه مرة أخرى.");
    expect(fs.existsSync(stale)).toBe(false);
    const notifications = await listUnreadNotifications(database.db, {
      merchantId: shop.merchantId,
      userId: shop.admin.id,
    });
    expect(notifications.at(-1)).toMatchObject({ kind: "report_failed", link: `/ar/generated-reports?id=${id}` });
  });

  it("left over from before a restart is failed at start, and .part files of reports no longer being made are removed", async () => {
    // A report running with no job left to make it, and an orphan .part of a finished report.
    const { id, stale } = await interrupted({ attempts: 1 });
    await database.db
      .updateTable("jobs")
      .set({ status: "failed" })
      .where("type", "=", "export_report")
      .where("status", "=", "running")
      .execute();
    const done = await database.db
      .selectFrom("reports")
      .select(["id", "file_path"])
      .where("state", "=", "done")
      .executeTakeFirstOrThrow();
    const orphan = `${localPathOf(done.file_path!)}.4243.1700000000000.part`;
    fs.writeFileSync(orphan, "partial");
    // And one being made right now by a live worker, which is left alone.
    const live = await interrupted({ attempts: 1 });
    await database.db.updateTable("jobs").set({ locked_by: "alive:1" }).where("locked_by", "=", "gone:1").execute();

    await recoverInterruptedExports(database.db);
    expect((await report(id)).state).toBe("failed");
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(orphan)).toBe(false);
    expect((await report(live.id)).state).toBe("running");
    expect(fs.existsSync(live.stale)).toBe(true);
    await database.db.deleteFrom("jobs").where("locked_by", "=", "alive:1").execute();
  });
});
