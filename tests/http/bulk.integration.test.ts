import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { bulkCsv, countOf, mailsByRecipient } from "../support/bulk-fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { runReadyJobs } from "~/lib/jobs.server";
import { formatAmount } from "~/lib/money";
import { parseCsv, readXlsx } from "~/lib/spreadsheet.server";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
const tokens: Record<string, string> = {};
const cookies: Record<string, string> = {};

const csv = (text: string) => new Blob([text], { type: "text/csv" });

function apiUpload(
  user: string,
  file: Blob,
  name: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const body = new FormData();
  body.set("file", file, name);
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  return app.request("/api/v1/plugins/bulk/upload", {
    method: "POST",
    body,
    headers: { Authorization: `Bearer ${tokens[user]}`, ...headers },
  });
}

function pageUpload(user: string, file: Blob, name: string, fields: Record<string, string> = {}, lang = "en") {
  const body = new FormData();
  body.set("file", file, name);
  for (const [key, value] of Object.entries({ channel: "email", schedule: "none", language: lang, ...fields }))
    body.set(key, value);
  return app.request(`/${lang}/bulk/uploads`, { method: "POST", body, cookie: cookies[user] });
}

const api = (user: string, path: string, init: { method?: string; json?: unknown } = {}) =>
  app.request(`/api/v1/plugins/bulk/${path}`, { ...init, headers: { Authorization: `Bearer ${tokens[user]}` } });

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await createUser(database.db, alpha.merchantId, {
    username: "Alpha-clerk",
    email: "clerk@alpha.example",
    firstName: "C",
    lastName: "L",
    permissions: ["view_paymenttransaction", "search_paymenttransaction", "add_paymenttransaction"],
  });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  for (const user of [alpha.admin.username, alpha.staff.username, beta.admin.username, "Alpha-clerk"]) {
    tokens[user] = (await app.apiToken(user, DEMO_PASSWORD)).access;
    cookies[user] = await app.signIn(user, DEMO_PASSWORD);
  }
});

afterAll(async () => {
  await database?.destroy();
});

describe("the uploads page", () => {
  it("offers the example files, the form and the uploads, in English and in Arabic", async () => {
    const page = await (await app.request("/en/bulk/uploads", { cookie: cookies["Alpha-clerk"] })).text();
    for (const text of [
      "Bulk uploads",
      "Required fields",
      "All fields",
      "Payment requests file (CSV or XLSX)",
      "Send the payment links by",
      "Every month",
      "No file uploaded yet.",
    ])
      expect(page).toContain(text);
    expect(page).toContain('href="/api/v1/plugins/bulk/upload/example?type=required_fields&amp;format=csv"');
    expect(page).toMatch(
      /<form[^>]*action="\/en\/bulk\/uploads"[^>]*enctype="multipart\/form-data"[^>]*method="post"/i,
    );
    const arabic = await (
      await app.request("/ar/bulk/uploads", { cookie: await app.signIn("Alpha-clerk", DEMO_PASSWORD, "ar") })
    ).text();
    expect(arabic).toContain('dir="rtl"');
    for (const text of ["رفع طلبات الدفع", "الحقول المطلوبة", "كل شهر"]) expect(arabic).toContain(text);
  });

  it("creates nothing from a file with one bad row, lists the bad cells, offers the error file and keeps the choices", async () => {
    const text = bulkCsv(20, {
      row: (index) => [index === 11 ? '"12,500"' : "12.500", `row-${index}@example.com`, "", "", ""],
    });
    const response = await pageUpload("Alpha-clerk", csv(text), "rent.csv", {
      schedule: "weekly",
      channel: "email_sms",
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Nothing was created");
    expect(page).toContain("Write the amount without commas or thousands separators, for example 1000.500");
    // The cell: row 13 (the header is row 1), column A.
    expect(page).toContain(">A13<");
    // The error file is kept on the server and linked, not carried in the page.
    expect(page).not.toContain("data:text/csv");
    const reportPath = /href="(\/en\/bulk\/uploads\/error-report\/[A-Za-z0-9_-]+)"/.exec(page)![1];
    const download = await app.request(reportPath, { cookie: cookies["Alpha-clerk"] });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("Content-Disposition")).toContain('filename="rent-errors.csv"');
    const bytes = Buffer.from(await download.arrayBuffer());
    // One byte-order mark, not two.
    expect([...bytes.subarray(0, 6)]).toEqual([0xef, 0xbb, 0xbf, 0x52, 0x6f, 0x77]);
    expect(parseCsv(bytes.toString("utf8").replace(/^\ufeff/, ""))).toEqual([
      ["Row", "Column", "Cell", "Value", "Error"],
      [
        "13",
        "amount",
        "A13",
        "12,500",
        "Write the amount without commas or thousands separators, for example 1000.500",
      ],
    ]);
    // Another merchant's user cannot read it.
    expect((await app.request(reportPath, { cookie: cookies[beta.admin.username] })).status).toBe(404);
    expect(page).toMatch(/<option value="weekly" selected="">/);
    expect(page).toMatch(/value="email_sms"[^>]*checked=""|checked=""[^>]*value="email_sms"/);
    expect(await countOf(database.db, "transactions", alpha.merchantId)).toBe(0);
    expect(await countOf(database.db, "bulk_uploads", alpha.merchantId)).toBe(0);
  });

  it("says what is wrong with the file itself under the field", async () => {
    const response = await pageUpload("Alpha-clerk", csv("amount,email\n1.000,a@example.com\n"), "rent.csv", {}, "ar");
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("تنقص الملف أعمدة مطلوبة: customer_email, customer_phone.");
    expect(page).toContain('id="bulk-file-error"');
  });

  it("creates a valid file's requests, sends them in the background, and shows the figures, the runs and the logs", async () => {
    const response = await pageUpload("Alpha-clerk", csv(bulkCsv(25)), "march-rent.csv");
    expect(response.status).toBe(303);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^\/en\/bulk\/uploads\/\d+$/);
    const bulkId = Number(location.split("/").pop());
    const requests = await database.db
      .selectFrom("transactions")
      .select(["id", "plugin", "bulk_id", "state"])
      .where("merchant_id", "=", alpha.merchantId)
      .execute();
    expect(requests).toHaveLength(25);
    expect(
      requests.every(
        (request) => request.plugin === "bulk" && request.bulk_id === bulkId && request.state === "created",
      ),
    ).toBe(true);

    const before = await (await app.request(location, { cookie: cookies["Alpha-clerk"] })).text();
    expect(before).toContain("march-rent.csv");
    expect(before).toContain("Sending: 0 of 25 (0%)");
    await runReadyJobs(database.db);
    const after = await (await app.request(location, { cookie: cookies["Alpha-clerk"] })).text();
    expect(after).toContain("Finished: 25 of 25");
    expect(after).toMatch(/data-figure="sent"[^>]*>25</);
    expect(after).toContain(`href="/en/bulk/transactions?bulk=${bulkId}"`);
    expect((await mailsByRecipient(database.db, alpha.merchantId)).size).toBe(25);

    const runs = await (await app.request(`${location}/dispatch-logs`, { cookie: cookies["Alpha-clerk"] })).text();
    expect(runs).toContain("Dispatch logs");
    const runId = Number(new RegExp(`${location}/dispatch-logs/(\\d+)/transaction-logs`).exec(runs)![1]);
    const logs = await (
      await app.request(`${location}/dispatch-logs/${runId}/transaction-logs`, { cookie: cookies["Alpha-clerk"] })
    ).text();
    expect(logs).toContain("bulk-0@example.com");
    expect(logs).toContain("25 messages");
    expect(logs).toContain(`href="/en/bulk/transactions/${requests[0].id}"`);

    // The bulk filter of the section's transaction list, and the pay page of one of its requests.
    const list = await (
      await app.request(`/api/v1/plugins/bulk/transaction?bulk=${bulkId}`, {
        headers: { Authorization: `Bearer ${tokens["Alpha-clerk"]}` },
      })
    ).json();
    expect(list.count).toBe(25);
    expect((await app.request(`/en/bulk/transactions?bulk=${bulkId}`, { cookie: cookies["Alpha-clerk"] })).status).toBe(
      200,
    );
    expect((await app.requestPayPage(`/en/pay/${requests[0].id}`)).status).toBe(200);

    // Nothing failed: there is nothing to resend.
    const resend = await app.request(location, { cookie: cookies["Alpha-clerk"], form: { intent: "resend" } });
    expect(resend.status).toBe(400);
    expect(await resend.text()).toContain("No failed message of a request that can still be paid.");
    const scheduled = await app.request(location, {
      cookie: cookies["Alpha-clerk"],
      form: { intent: "schedule", schedule: "monthly" },
    });
    expect(scheduled.status).toBe(303);
    expect(
      await database.db
        .selectFrom("bulk_uploads")
        .select("schedule")
        .where("id", "=", bulkId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ schedule: "monthly" });
  });
});

describe("the upload form posted twice", () => {
  it("makes one bulk, and both answers lead to it", async () => {
    const page = await (await app.request("/en/bulk/uploads", { cookie: cookies["Alpha-clerk"] })).text();
    const token = /name="upload_token" value="([^"]+)"/.exec(page)![1];
    const before = await countOf(database.db, "transactions", alpha.merchantId);
    const post = () => pageUpload("Alpha-clerk", csv(bulkCsv(7)), "twice.csv", { upload_token: token });
    const [first, second] = await Promise.all([post(), post()]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await countOf(database.db, "transactions", alpha.merchantId)).toBe(before + 7);
    // A fresh form has a fresh token.
    const again = await (await app.request("/en/bulk/uploads", { cookie: cookies["Alpha-clerk"] })).text();
    expect(/name="upload_token" value="([^"]+)"/.exec(again)![1]).not.toBe(token);
  });

  it("shows what was collected in the merchant's own currency", async () => {
    await database.db
      .updateTable("merchants")
      .set({ currency_code: "USD" })
      .where("id", "=", alpha.merchantId)
      .execute();
    try {
      const bulk = await database.db
        .selectFrom("bulk_uploads")
        .select("id")
        .where("merchant_id", "=", alpha.merchantId)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      const page = await (await app.request(`/en/bulk/uploads/${bulk.id}`, { cookie: cookies["Alpha-clerk"] })).text();
      expect(page).toMatch(
        new RegExp(`data-figure="collected"[^>]*>${formatAmount(0, "USD", "en").replace(/[.$]/g, "\\$&")}<`),
      );
    } finally {
      await database.db
        .updateTable("merchants")
        .set({ currency_code: "KWD" })
        .where("id", "=", alpha.merchantId)
        .execute();
    }
  });
});

describe("the bulk API", () => {
  it("creates from a multipart upload (201 with id and rows) and follows it: uploads, the bulk with its runs, and each run's logs", async () => {
    const response = await apiUpload(beta.admin.username, csv(bulkCsv(12)), "fees.csv", {
      channel: "email_sms",
      language: "ar",
    });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({ id: expect.any(Number), rows: 12, created: 12 });
    await runReadyJobs(database.db);

    const list = await (await api(beta.admin.username, "uploads")).json();
    expect(list.count).toBe(1);
    expect(list.results[0]).toMatchObject({
      id: created.id,
      file_name: "fees.csv",
      rows: 12,
      created: 12,
      messages: 24,
      sent: 24,
      failed: 0,
      paid: 0,
      dispatching: false,
      schedule: "none",
      language: "ar",
    });
    const detail = await (await api(beta.admin.username, `uploads/${created.id}`)).json();
    expect(detail).toMatchObject({ id: created.id, amount_collected: [], resendable: 0 });
    expect(detail.dispatch_logs).toEqual([
      expect.objectContaining({
        id: created.dispatch_log_id,
        kind: "upload",
        status: "finished",
        total: 24,
        sent: 24,
        failed: 0,
        requests_created: 12,
      }),
    ]);
    const logs = await (
      await api(
        beta.admin.username,
        `uploads/${created.id}/dispatch-logs/${created.dispatch_log_id}/transaction-logs?limit=5`,
      )
    ).json();
    expect(logs.count).toBe(24);
    expect(logs.results[0]).toMatchObject({
      row: 2,
      recipient: "bulk-0@example.com",
      channel: "email",
      result: "sent",
      error: null,
    });
    expect(logs.results[1]).toMatchObject({ row: 2, recipient: "+96550000000", channel: "sms", result: "sent" });
    const texts = await database.db
      .selectFrom("outgoing_sms")
      .select("body")
      .where("merchant_id", "=", beta.merchantId)
      .execute();
    expect(texts).toHaveLength(12);

    const schedule = await api(beta.admin.username, `uploads/${created.id}/schedule`, {
      method: "POST",
      json: { schedule: "weekly" },
    });
    expect(schedule.status).toBe(200);
    expect(await schedule.json()).toMatchObject({ schedule: "weekly", next_run_at: expect.any(String) });
    expect(
      (
        await api(beta.admin.username, `uploads/${created.id}/schedule`, {
          method: "POST",
          json: { schedule: "daily" },
        })
      ).status,
    ).toBe(400);
    const resend = await api(beta.admin.username, `uploads/${created.id}/resend-failed`, { method: "POST" });
    expect(resend.status).toBe(400);
    expect(await resend.json()).toEqual({
      non_field_errors: ["No failed message of a request that can still be paid."],
    });
  });

  it("answers 400 with each bad cell and an error file, creating nothing, in the caller's language", async () => {
    const text = "amount,customer_email,customer_phone,pg_codes\n1.000,a@example.com,,nope\n2.000,b@example.com,,\n";
    const response = await apiUpload(beta.admin.username, csv(text), "bad.csv", {}, { "Accept-Language": "ar" });
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.rows).toEqual([
      { row: 2, column: "pg_codes", cell: "D2", message: "طريقة الدفع هذه غير متاحة لهذه العملة" },
    ]);
    expect(parseCsv(answer.error_report)[1]).toEqual([
      "2",
      "pg_codes",
      "D2",
      "nope",
      "طريقة الدفع هذه غير متاحة لهذه العملة",
    ]);
    expect((await (await api(beta.admin.username, "uploads")).json()).count).toBe(1);
  });

  it("serves the example files, which upload as they are", async () => {
    const example = await app.request("/api/v1/plugins/bulk/upload/example?type=all_fields&format=xlsx");
    expect(example.status).toBe(200);
    const bytes = Buffer.from(await example.arrayBuffer());
    const rows = readXlsx(bytes);
    expect(rows[0]).toContain("customer_phone");
    const uploaded = await apiUpload(beta.admin.username, new Blob([new Uint8Array(bytes)]), "example.xlsx");
    expect(uploaded.status, JSON.stringify(await uploaded.clone().json())).toBe(201);
    const requiredBytes = Buffer.from(
      await (await app.request("/api/v1/plugins/bulk/upload/example?type=required_fields&format=csv")).arrayBuffer(),
    );
    // One byte-order mark (Excel reads the file as UTF-8), then the header.
    expect(requiredBytes.subarray(0, 10).toString("latin1")).toBe("\xef\xbb\xbfamount,");
    expect(parseCsv(requiredBytes.toString("utf8").replace(/^\ufeff/, ""))[0]).toEqual([
      "amount",
      "customer_email",
      "customer_phone",
    ]);
    expect((await app.request("/api/v1/plugins/bulk/upload/example?type=some")).status).toBe(400);
  });
});

describe("who may", () => {
  it("refuses users without add_paymenttransaction, hides other merchants' bulks and answers 404 without the section", async () => {
    const mine = (await (await api(beta.admin.username, "uploads")).json()).results[0].id as number;
    expect((await app.request("/en/bulk/uploads", { cookie: cookies[alpha.staff.username] })).status).toBe(403);
    expect((await apiUpload(alpha.staff.username, csv(bulkCsv(1)), "x.csv")).status).toBe(403);
    expect((await api(alpha.staff.username, "uploads")).status).toBe(403);
    // Alpha's clerk does not see Beta's bulk, on a page or through the API.
    expect((await app.request(`/en/bulk/uploads/${mine}`, { cookie: cookies["Alpha-clerk"] })).status).toBe(404);
    expect(
      (await app.request(`/en/bulk/uploads/${mine}/dispatch-logs`, { cookie: cookies["Alpha-clerk"] })).status,
    ).toBe(404);
    expect((await api("Alpha-clerk", `uploads/${mine}`)).status).toBe(404);
    expect((await api("Alpha-clerk", `uploads/${mine}/resend-failed`, { method: "POST" })).status).toBe(404);
    expect(
      (
        await app.request(`/en/bulk/uploads/${mine}`, {
          cookie: cookies["Alpha-clerk"],
          form: { intent: "schedule", schedule: "none" },
        })
      ).status,
    ).toBe(404);
    expect((await api("Alpha-clerk", "uploads")).status).toBe(200);
    expect(
      (await (await api("Alpha-clerk", "uploads")).json()).results.map((bulk: { id: number }) => bulk.id),
    ).not.toContain(mine);

    await database.db
      .deleteFrom("merchant_features")
      .where("merchant_id", "=", beta.merchantId)
      .where("section", "=", "bulk")
      .where("feature", "=", "upload")
      .execute();
    expect((await app.request("/en/bulk/uploads", { cookie: cookies[beta.admin.username] })).status).toBe(404);
    expect((await api(beta.admin.username, "uploads")).status).toBe(404);
    expect((await app.request("/api/v1/plugins/bulk/upload")).status).toBe(405);
  });
});
