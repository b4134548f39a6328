import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import "~/domain/reporting/exports.server";
import { bumpTotals } from "~/domain/payments/running-totals.server";
import { resetEnvCache } from "~/lib/env.server";
import { runReadyJobs } from "~/lib/jobs.server";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let reportsDir: string;
const cookies: Record<string, string> = {};
const tokens: Record<string, string> = {};

async function insert(
  merchantId: number,
  orderNo: number,
  state: "paid" | "created",
  created: string,
  gateway: string | null = null,
) {
  await database.db
    .insertInto("transactions")
    .values({
      id: `H${String(orderNo).padStart(21, "0")}`,
      merchant_id: merchantId,
      unit_id: null,
      plugin: "payment_request",
      order_no: orderNo,
      state,
      amount: 2500,
      currency_code: "KWD",
      customer_email: `c${orderNo}@example.com`,
      customer_email_lc: `c${orderNo}@example.com`,
      customer_phone: null,
      customer_first_name: orderNo === 2 ? "=cmd()" : null,
      customer_last_name: null,
      description: null,
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: "cod",
      expiration_time: null,
      next_url: null,
      initiator_user_id: null,
      gateway_code: gateway,
      paid_attempt_id: null,
      send_email: 0,
      send_sms: 0,
      created_at: created,
      state_changed_at: created,
      deleted_at: null,
    })
    .execute();
  await bumpTotals(
    database.db,
    { merchantId, plugin: "payment_request", currency: "KWD", at: created },
    { generated_count: 1, generated_amount: 2500 },
  );
}

beforeAll(async () => {
  reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-http-reports-"));
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await insert(alpha.merchantId, 1, "paid", "2026-03-10T08:00:00.000Z", "mpgs-sandbox");
  await insert(alpha.merchantId, 2, "paid", "2026-03-10T09:00:00.000Z", "knet-sandbox");
  await insert(alpha.merchantId, 3, "created", "2026-03-10T10:00:00.000Z");
  app = await loadApp({ ...database.env, SEED_DEMO: "0", REPORTS_DIR: reportsDir });
  resetEnvCache();
  for (const user of [alpha.admin, alpha.staff, beta.admin]) {
    cookies[user.username] = await app.signIn(user.username, DEMO_PASSWORD);
    tokens[user.username] = (await app.apiToken(user.username, DEMO_PASSWORD)).access;
  }
});

afterAll(async () => {
  await database?.destroy();
  fs.rmSync(reportsDir, { recursive: true, force: true });
});

const exportForm = (overrides: Record<string, string> = {}) => ({
  section: "payment_request",
  query: "state=paid",
  file_format: "csv",
  export_type: "selected",
  fields: "order_no,customer_name,state",
  language: "en",
  ...overrides,
});

describe("the Export Transactions form", () => {
  it("refuses staff without view_export_settings", async () => {
    const response = await app.request("/en/transactions/export", {
      form: exportForm(),
      cookie: cookies[alpha.staff.username],
    });
    expect(response.status).toBe(403);
    expect(await database.db.selectFrom("reports").select("id").execute()).toEqual([]);
  });

  it("sends a refused request back to the list with the reason", async () => {
    const response = await app.request("/en/transactions/export", {
      form: exportForm({ fields: "" }),
      cookie: cookies[alpha.admin.username],
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/en/payment-request/transactions?state=paid&export_error=no_fields");
  });

  it("opens Generated Reports on the new report, which a job builds and the user downloads", async () => {
    const cookie = cookies[alpha.admin.username];
    const response = await app.request("/en/transactions/export", {
      form: exportForm({ query: "state=paid&created_after=2026-03-01&created_before=2026-03-31" }),
      cookie,
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/en\/generated-reports\?id=\d+$/);
    const id = Number(location.split("=")[1]);

    const queued = await app.request(location, { cookie });
    expect(queued.status).toBe(200);
    const html = await queued.text();
    // The file's name says the list, the filters and when (Kuwait time); the page says the filters in words.
    const fileName = /payment-request_paid_2026-03-01_2026-03-31_\d{8}-\d{4}\.csv/.exec(html)?.[0];
    expect(fileName).toBeDefined();
    expect(text(html)).toContain("State: Paid");
    expect(text(html)).toContain("Created: 01 Mar 2026 – 31 Mar 2026");
    expect(html).toContain("Queued");
    expect(html).toContain(alpha.admin.username);
    expect(noticeOf(html)).toBeNull();

    await runReadyJobs(database.db);
    const ready = await (await app.request(location, { cookie })).text();
    expect(ready).toContain(`/en/generated-reports/${id}/download`);
    // The page showing the finished report shows its notice, naming the file, once.
    expect(noticeOf(ready)).toContain("Report exported");
    expect(noticeOf(ready)).toContain(fileName);
    expect(noticeOf(await (await app.request(location, { cookie })).text())).toBeNull();
    expect((await (await app.request("/en/notifications", { cookie })).json()).notifications).toEqual([]);

    const download = await app.request(`/en/generated-reports/${id}/download`, { cookie });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("Content-Disposition")).toBe(
      `attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`,
    );
    // A byte-order mark first, so Excel reads the file as UTF-8 (and Arabic text as Arabic).
    expect(Buffer.from(await download.arrayBuffer()).toString("utf8")).toBe(
      "\uFEFFOrder no.,Customer name,State\r\n2,'=cmd(),Paid\r\n1,,Paid\r\n",
    );

    expect(
      (await app.request(`/en/generated-reports/${id}/download`, { cookie: cookies[alpha.staff.username] })).status,
    ).toBe(403);
    expect(
      (await app.request(`/en/generated-reports/${id}/download`, { cookie: cookies[beta.admin.username] })).status,
    ).toBe(404);
    expect((await app.request("/en/generated-reports", { cookie: cookies[alpha.staff.username] })).status).toBe(403);
    expect(
      await (await app.request("/en/generated-reports", { cookie: cookies[beta.admin.username] })).text(),
    ).not.toContain(`report-${id}`);
  });

  it("says each report's filters in the page's language, and a report of the whole list says so", async () => {
    const cookie = cookies[alpha.admin.username];
    await app.request("/en/transactions/export", { form: exportForm({ query: "" }), cookie });
    const arabic = text(await (await app.request("/ar/generated-reports", { cookie })).text());
    expect(arabic).toContain("الحالة: مدفوع");
    expect(arabic).toContain("لا شيء: القائمة كاملة");
    await runReadyJobs(database.db);
    // Seen on that page: the notice of the report is not shown again.
    await app.request("/en/generated-reports", { cookie });
  });

  it("tells the user the report is exported, naming the file, in this session only, until it is seen", async () => {
    const cookie = cookies[alpha.admin.username];
    const asked = await app.request("/en/transactions/export", {
      form: exportForm({ query: "state=created", file_format: "xls" }),
      cookie,
    });
    const id = Number((asked.headers.get("Location") ?? "").split("=")[1]);
    await runReadyJobs(database.db);

    const unread = await app.request("/en/notifications", { cookie });
    expect(unread.status).toBe(200);
    const { notifications } = (await unread.json()) as {
      notifications: { id: number; title: string; link: string; file: string }[];
    };
    expect(notifications).toEqual([
      expect.objectContaining({
        title: "Report exported",
        link: `/en/generated-reports?id=${id}`,
        file: expect.stringMatching(/^payment-request_created_\d{8}-\d{4}\.xlsx$/),
      }),
    ]);
    // The same notice read from an Arabic page reads in Arabic and links to the Arabic page.
    const arabic = (await (await app.request("/ar/notifications", { cookie })).json()).notifications;
    expect(arabic).toEqual([
      expect.objectContaining({
        id: notifications[0].id,
        title: "تم تصدير التقرير",
        link: `/ar/generated-reports?id=${id}`,
        file: notifications[0].file,
      }),
    ]);
    expect(
      (await (await app.request("/en/notifications", { cookie: cookies[alpha.staff.username] })).json()).notifications,
    ).toEqual([]);
    expect((await app.request("/en/notifications")).status).toBe(401);
    // A new sign-in is not greeted by what arrived before it: the report is in Generated Reports.
    const later = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    expect((await (await app.request("/en/notifications", { cookie: later })).json()).notifications).toEqual([]);
    // Shown, then marked seen: not shown again.
    const marked = await app.request("/en/notifications", { form: { id: String(notifications[0].id) }, cookie });
    expect(await marked.json()).toEqual({ ok: true, marked: 1, taken: [notifications[0].id] });
    // Taken once: a second reader at the same moment (another tab, the page's own data) is told it has nothing to show.
    const again = await app.request("/en/notifications", { form: { id: String(notifications[0].id) }, cookie });
    expect(await again.json()).toEqual({ ok: true, marked: 0, taken: [] });
    expect((await (await app.request("/en/notifications", { cookie })).json()).notifications).toEqual([]);
    expect(noticeOf(await (await app.request(`/en/generated-reports?id=${id}`, { cookie })).text())).toBeNull();
  });

  it("brings the notice with the next page without JavaScript, once", async () => {
    const cookie = cookies[alpha.admin.username];
    await app.request("/en/transactions/export", { form: exportForm({ query: "state=paid" }), cookie });
    await runReadyJobs(database.db);
    const next = noticeOf(await (await app.request("/en/payment-request/transactions", { cookie })).text());
    expect(next).toContain("Report exported");
    expect(next).toMatch(/payment-request_paid_\d{8}-\d{4}\.csv/);
    expect(noticeOf(await (await app.request("/en", { cookie })).text())).toBeNull();
  });
});

/** The text of a page without its tags, spaces collapsed. */
function text(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** The notices region of a page, as text, or null when the page shows none. */
function noticeOf(html: string) {
  const start = html.indexOf('aria-label="Notifications"');
  if (start === -1) return null;
  return text(html.slice(start, start + 2000));
}

describe("GET /api/v1/plugins/{plugin}/transaction/export", () => {
  const url = "/api/v1/plugins/payment_request/transaction/export/";
  const bearer = (username: string) => ({ Authorization: `Bearer ${tokens[username]}` });

  it("describes the export config on OPTIONS", async () => {
    const response = await app.request(url, { method: "OPTIONS", headers: bearer(alpha.admin.username) });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.builtin_fields[0]).toEqual({ name: "order_no", label_en: "Order no.", label_ar: "رقم الطلب" });
    expect(body.custom_fields).toEqual([]);
    expect(body.other_fields.map((field: { name: string }) => field.name)).toEqual([
      "extra",
      "auth_code",
      "card_type",
      "ref_number",
    ]);
  });

  it("needs view_export_settings and an available section", async () => {
    expect((await app.request(url, { method: "OPTIONS", headers: bearer(alpha.staff.username) })).status).toBe(403);
    expect((await app.request(`${url}?file_format=csv`, { headers: bearer(alpha.staff.username) })).status).toBe(403);
    expect((await app.request(`${url}?auth_token=${tokens[alpha.staff.username]}`)).status).toBe(403);
    expect((await app.request(url)).status).toBe(401);
    expect(
      (await app.request("/api/v1/plugins/nowhere/transaction/export/", { headers: bearer(alpha.admin.username) }))
        .status,
    ).toBe(404);
  });

  it("answers field errors in DRF's shape", async () => {
    const response = await app.request(`${url}?export_type=selected&fields=order_no,password`, {
      headers: bearer(alpha.admin.username),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ fields: ["One of the chosen fields does not exist."] });
  });

  it("creates an export with the list filters, answers its progress, then the file with auth_token", async () => {
    const created = await app.request(
      `${url}?state=created&file_format=xls&export_type=selected&fields=order_no,customer_email&language=ar`,
      {
        headers: bearer(alpha.admin.username),
      },
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const report = await database.db
      .selectFrom("reports")
      .select(["query", "fields", "file_format", "language"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(report).toEqual({
      query: "state=created",
      fields: "order_no,customer_email",
      file_format: "xls",
      language: "ar",
    });

    const fetchFile = () => app.request(`${url}?auth_token=${tokens[alpha.admin.username]}&id=${id}`);
    const pending = await fetchFile();
    expect(pending.status).toBe(202);
    expect(await pending.json()).toMatchObject({ id, state: "queued", rows_done: 0 });

    await runReadyJobs(database.db);
    const ready = await fetchFile();
    expect(ready.status).toBe(200);
    expect(ready.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const bytes = new Uint8Array(await ready.arrayBuffer());
    expect([...bytes.slice(0, 2)]).toEqual([0x50, 0x4b]);

    expect(
      (await app.request(`${url}?id=${id}`, { headers: { Authorization: `Bearer ${tokens[beta.admin.username]}` } }))
        .status,
    ).toBe(404);
  });

  it("makes an XLSX an accountant can use: Arabic headers right to left, number cells with 3 decimals, Kuwait dates, gateway names", async () => {
    const created = await app.request(
      `${url}?state=paid&file_format=xls&export_type=selected&fields=order_no,created,amount,gateway_name,state&language=ar`,
      {
        headers: bearer(alpha.admin.username),
      },
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await runReadyJobs(database.db);
    const ready = await app.request(`${url}?auth_token=${tokens[alpha.admin.username]}&id=${id}`);
    expect(ready.status).toBe(200);
    const disposition = ready.headers.get("Content-Disposition") ?? "";
    const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? "";
    expect(fileName).toMatch(/^payment-request_paid_\d{8}-\d{4}\.xlsx$/);
    expect(disposition).toContain(`filename*=UTF-8''${fileName}`);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await ready.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect(sheet.views[0]?.rightToLeft).toBe(true);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      "رقم الطلب",
      "تاريخ الإنشاء",
      "المبلغ",
      "طريقة الدفع",
      "الحالة",
    ]);
    const rows = [sheet.getRow(2), sheet.getRow(3)];
    expect(rows.map((row) => row.getCell(1).value)).toEqual([2, 1]);
    for (const row of rows) {
      expect(row.getCell(3).type).toBe(ExcelJS.ValueType.Number);
      expect(row.getCell(3).value).toBe(2.5);
      expect(row.getCell(3).numFmt).toBe("0.000");
      expect(row.getCell(2).type).toBe(ExcelJS.ValueType.Date);
    }
    // 09:00 and 08:00 UTC are noon and 11:00 in Kuwait.
    expect(rows.map((row) => row.getCell(2).value)).toEqual([
      new Date("2026-03-10T12:00:00.000Z"),
      new Date("2026-03-10T11:00:00.000Z"),
    ]);
    expect(rows.map((row) => row.getCell(4).value)).toEqual(["كي نت", "بطاقة ائتمان"]);
    expect(rows.map((row) => row.getCell(5).value)).toEqual(["مدفوع", "مدفوع"]);
  });
});
