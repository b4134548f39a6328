import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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

async function insert(merchantId: number, orderNo: number, state: "paid" | "created", created: string) {
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
      gateway_code: null,
      paid_attempt_id: null,
      send_email: 0,
      send_sms: 0,
      created_at: created,
      state_changed_at: created,
      deleted_at: null,
    })
    .execute();
  await bumpTotals(database.db, { merchantId, plugin: "payment_request", currency: "KWD", at: created }, { generated_count: 1, generated_amount: 2500 });
}

beforeAll(async () => {
  reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-http-reports-"));
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await insert(alpha.merchantId, 1, "paid", "2026-03-10T08:00:00.000Z");
  await insert(alpha.merchantId, 2, "paid", "2026-03-10T09:00:00.000Z");
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
    const response = await app.request("/en/transactions/export", { form: exportForm(), cookie: cookies[alpha.staff.username] });
    expect(response.status).toBe(403);
    expect(await database.db.selectFrom("reports").select("id").execute()).toEqual([]);
  });

  it("sends a refused request back to the list with the reason", async () => {
    const response = await app.request("/en/transactions/export", { form: exportForm({ fields: "" }), cookie: cookies[alpha.admin.username] });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/en/payment-request/transactions?state=paid&export_error=no_fields");
  });

  it("opens Generated Reports on the new report, which a job builds and the user downloads", async () => {
    const cookie = cookies[alpha.admin.username];
    const response = await app.request("/en/transactions/export", { form: exportForm(), cookie });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/en\/generated-reports\?id=\d+$/);
    const id = Number(location.split("=")[1]);

    const queued = await app.request(location, { cookie });
    expect(queued.status).toBe(200);
    const html = await queued.text();
    expect(html).toMatch(/transactions-payment_request-\d{8}-\d{4}\.csv/);
    expect(html).toContain("Queued");
    expect(html).toContain(alpha.admin.username);

    await runReadyJobs(database.db);
    const ready = await (await app.request(location, { cookie })).text();
    expect(ready).toContain(`/en/generated-reports/${id}/download`);

    const download = await app.request(`/en/generated-reports/${id}/download`, { cookie });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("Content-Disposition")).toMatch(/^attachment; filename="transactions-payment_request-\d{8}-\d{4}\.csv"$/);
    // A byte-order mark first, so Excel reads the file as UTF-8 (and Arabic text as Arabic).
    expect(Buffer.from(await download.arrayBuffer()).toString("utf8")).toBe("\uFEFFOrder no.,Customer name,State\r\n2,'=cmd(),Paid\r\n1,,Paid\r\n");

    expect((await app.request(`/en/generated-reports/${id}/download`, { cookie: cookies[alpha.staff.username] })).status).toBe(403);
    expect((await app.request(`/en/generated-reports/${id}/download`, { cookie: cookies[beta.admin.username] })).status).toBe(404);
    expect((await app.request("/en/generated-reports", { cookie: cookies[alpha.staff.username] })).status).toBe(403);
    expect(await (await app.request("/en/generated-reports", { cookie: cookies[beta.admin.username] })).text()).not.toContain(`report-${id}`);
  });

  it("tells the user the report is exported, until they dismiss it", async () => {
    const cookie = cookies[alpha.admin.username];
    const unread = await app.request("/en/notifications", { cookie });
    expect(unread.status).toBe(200);
    const { notifications } = (await unread.json()) as { notifications: { id: number; title: string; link: string }[] };
    expect(notifications).toEqual([expect.objectContaining({ title: "Report exported", link: expect.stringMatching(/^\/en\/generated-reports\?id=\d+$/) })]);
    // The same notice read from an Arabic page reads in Arabic and links to the Arabic page.
    const arabic = (await (await app.request("/ar/notifications", { cookie })).json()).notifications;
    expect(arabic).toEqual([expect.objectContaining({ id: notifications[0].id, title: "تم تصدير التقرير", link: notifications[0].link.replace(/^\/en\//, "/ar/") })]);
    expect((await (await app.request("/en/notifications", { cookie: cookies[alpha.staff.username] })).json()).notifications).toEqual([]);
    expect((await app.request("/en/notifications")).status).toBe(401);
    const marked = await app.request("/en/notifications", { form: { id: String(notifications[0].id) }, cookie });
    expect(await marked.json()).toEqual({ ok: true, marked: 1 });
    expect((await (await app.request("/en/notifications", { cookie })).json()).notifications).toEqual([]);
  });
});

describe("GET /api/v1/plugins/{plugin}/transaction/export", () => {
  const url = "/api/v1/plugins/payment_request/transaction/export/";
  const bearer = (username: string) => ({ Authorization: `Bearer ${tokens[username]}` });

  it("describes the export config on OPTIONS", async () => {
    const response = await app.request(url, { method: "OPTIONS", headers: bearer(alpha.admin.username) });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.builtin_fields[0]).toEqual({ name: "order_no", label_en: "Order no.", label_ar: "رقم الطلب" });
    expect(body.custom_fields).toEqual([]);
    expect(body.other_fields.map((field: { name: string }) => field.name)).toEqual(["extra", "auth_code", "card_type", "ref_number"]);
  });

  it("needs view_export_settings and an available section", async () => {
    expect((await app.request(url, { method: "OPTIONS", headers: bearer(alpha.staff.username) })).status).toBe(403);
    expect((await app.request(`${url}?file_format=csv`, { headers: bearer(alpha.staff.username) })).status).toBe(403);
    expect((await app.request(`${url}?auth_token=${tokens[alpha.staff.username]}`)).status).toBe(403);
    expect((await app.request(url)).status).toBe(401);
    expect((await app.request("/api/v1/plugins/nowhere/transaction/export/", { headers: bearer(alpha.admin.username) })).status).toBe(404);
  });

  it("answers field errors in DRF's shape", async () => {
    const response = await app.request(`${url}?export_type=selected&fields=order_no,password`, { headers: bearer(alpha.admin.username) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ fields: ["One of the chosen fields does not exist."] });
  });

  it("creates an export with the list filters, answers its progress, then the file with auth_token", async () => {
    const created = await app.request(`${url}?state=created&file_format=xls&export_type=selected&fields=order_no,customer_email&language=ar`, {
      headers: bearer(alpha.admin.username),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const report = await database.db.selectFrom("reports").select(["query", "fields", "file_format", "language"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(report).toEqual({ query: "state=created", fields: "order_no,customer_email", file_format: "xls", language: "ar" });

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

    expect((await app.request(`${url}?id=${id}`, { headers: { Authorization: `Bearer ${tokens[beta.admin.username]}` } })).status).toBe(404);
  });
});
