import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { bulkCsv, countOf, mailsByRecipient, refuseMailTo } from "../../../../tests/support/bulk-fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { writeTransaction } from "~/db/database.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { advanceClock, now, resetClock } from "~/lib/clock.server";
import { loadBulk, listTransactionLogs } from "./bulk-queries.server";
import { changeSchedule, dispatchRun, resendFailed, startDueRuns } from "./bulk-runs.server";
import { uploadBulk, type UploadChoices } from "./bulk-upload.server";
import { nextRunAt } from "./schedule";

let database: TestDatabase;
const choices: UploadChoices = { sendEmail: true, sendSms: false, schedule: "none", lang: "en" };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(() => resetClock());
afterAll(async () => {
  await database?.destroy();
});

async function merchant(prefix: string) {
  const shop = await seedMerchant(database.db, prefix);
  return { ...shop, user: { id: shop.admin.id, username: shop.admin.username } };
}

function upload(shop: Awaited<ReturnType<typeof merchant>>, csv: string, extra: Partial<UploadChoices> = {}) {
  return uploadBulk(database.db, {
    merchantId: shop.merchantId,
    user: shop.user,
    fileName: "rent.csv",
    bytes: Buffer.from(csv, "utf8"),
    choices: { ...choices, ...extra },
    baseUrl: "https://pay.example.com",
  });
}

describe("checking a bulk file", () => {
  it("creates nothing when one cell of one row is wrong, and names each bad cell", async () => {
    const shop = await merchant("Badrow");
    const csv = bulkCsv(50, {
      header: ["amount", "customer_email", "customer_phone", "currency_code", "send_sms", "expiration_time"],
      row: (index) =>
        index === 31
          ? ["12.3456", "not-an-email", "12", "XYZ", "maybe", "2001-01-01T10:00"]
          : [`${index + 1}.000`, `r${index}@example.com`, "", "", "", ""],
    });
    const outcome = await upload(shop, csv);
    expect(outcome.ok).toBe(false);
    if (outcome.ok || outcome.kind !== "rows") throw new Error("expected row errors");
    // Row 33 of the sheet: the header is row 1 and this is the 32nd row below it.
    expect(outcome.errors.map((error) => `${error.row}:${error.column}:${error.code}`)).toEqual([
      "33:currency_code:payment_request.errors.currency",
      "33:amount:money.too_many_decimals",
      "33:customer_email:errors.invalid_email",
      "33:customer_phone:payment_request.errors.phone",
      "33:expiration_time:payment_request.errors.expiration_past",
      "33:send_sms:bulk.errors.yes_no",
    ]);
    expect(outcome.rowsChecked).toBe(50);
    for (const table of [
      "transactions",
      "bulk_uploads",
      "bulk_dispatch_logs",
      "bulk_transaction_logs",
      "outgoing_mail",
    ] as const)
      expect(await countOf(database.db, table, shop.merchantId), table).toBe(0);
  });

  it("refuses a file without the required columns, an empty one and one over 10,000 rows", async () => {
    const shop = await merchant("Refused");
    expect(await upload(shop, "amount,customer_email\n1.000,a@example.com\n")).toMatchObject({
      ok: false,
      kind: "file",
      code: "bulk.errors.missing_columns",
      params: { columns: "customer_phone" },
    });
    expect(await upload(shop, "amount,customer_email,customer_phone\n,,\n")).toMatchObject({
      ok: false,
      kind: "file",
      code: "bulk.errors.no_rows",
    });
    expect(await upload(shop, bulkCsv(10_001))).toMatchObject({
      ok: false,
      kind: "file",
      code: "bulk.errors.too_many_rows",
    });
    expect(await countOf(database.db, "bulk_uploads", shop.merchantId)).toBe(0);
  });

  it("refuses a row with neither an e-mail nor a phone, and a row that asks for SMS without a phone", async () => {
    const shop = await merchant("Contact");
    const outcome = await upload(
      shop,
      "amount,customer_email,customer_phone,send_sms\n1.000,,,\n2.000,b@example.com,,yes\n",
    );
    if (outcome.ok || outcome.kind !== "rows") throw new Error("expected row errors");
    expect(outcome.errors.map((error) => `${error.row}:${error.column}:${error.code}`)).toEqual([
      "2:customer_email:bulk.errors.contact_required",
      "3:customer_phone:payment_request.errors.phone_for_sending",
    ]);
  });
});

describe("reading a bulk file more strictly", () => {
  it('refuses a CSV that is not UTF-8 (Excel\'s Windows-1256 "CSV") rather than garble its Arabic', async () => {
    const shop = await merchant("Encoding");
    // "فاطمة" in Windows-1256.
    const bytes = Buffer.concat([
      Buffer.from("amount,customer_email,customer_phone,customer_first_name\r\n1.000,a@example.com,,", "latin1"),
      Buffer.from([0xe1, 0xc7, 0xd8, 0xe3, 0xc9]),
      Buffer.from("\r\n"),
    ]);
    const outcome = await uploadBulk(database.db, {
      merchantId: shop.merchantId,
      user: shop.user,
      fileName: "ansi.csv",
      bytes,
      choices,
      baseUrl: "https://pay.example.com",
    });
    expect(outcome).toMatchObject({ ok: false, kind: "file", code: "bulk.errors.not_utf8" });
    expect(await countOf(database.db, "bulk_uploads", shop.merchantId)).toBe(0);
    // The same name saved as UTF-8 (with Excel's byte-order mark) is read.
    const good = await upload(
      shop,
      "\ufeffamount,customer_email,customer_phone,customer_first_name\r\n1.000,a@example.com,,فاطمة\r\n",
    );
    expect(good.ok).toBe(true);
    expect(
      await database.db
        .selectFrom("transactions")
        .select("customer_first_name")
        .where("merchant_id", "=", shop.merchantId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ customer_first_name: "فاطمة" });
  });

  it("names the columns it does not know instead of dropping them", async () => {
    const shop = await merchant("Unknown");
    expect(
      await upload(
        shop,
        "amount,customer_email,customer_phone,expiry_time,Notes\n1.000,a@example.com,,2030-01-01T10:00,x\n",
      ),
    ).toMatchObject({
      ok: false,
      kind: "file",
      code: "bulk.errors.unknown_columns",
      params: { columns: "expiry_time, Notes" },
    });
  });

  it("reads an expiry given as an Excel date cell, in Kuwait time", async () => {
    const shop = await merchant("Serial");
    // 2030-03-01 18:00 in Kuwait is Excel's 47543.75.
    const outcome = await upload(
      shop,
      "amount,customer_email,customer_phone,expiration_time\n1.000,a@example.com,,47543.75\n",
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const request = await database.db
      .selectFrom("transactions")
      .select("expiration_time")
      .where("merchant_id", "=", shop.merchantId)
      .executeTakeFirstOrThrow();
    // Kept as a delay from the upload (a recurring bulk's runs reuse it): within the moment the run took.
    expect(Math.abs(Date.parse(request.expiration_time!) - Date.parse("2030-03-01T15:00:00.000Z"))).toBeLessThan(1_000);
  });

  it("refuses a row that has no address for the chosen way of sending, so no request is made that nobody is sent", async () => {
    const shop = await merchant("Channel");
    const csv = "amount,customer_email,customer_phone\n1.000,a@example.com,\n2.000,,+96550001234\n";
    const byEmail = await upload(shop, csv, { sendEmail: true, sendSms: false });
    if (byEmail.ok || byEmail.kind !== "rows") throw new Error("expected row errors");
    expect(byEmail.errors.map((error) => `${error.row}:${error.column}:${error.code}`)).toEqual([
      "3:customer_email:bulk.errors.no_email_for_channel",
    ]);
    const bySms = await upload(shop, csv, { sendEmail: false, sendSms: true });
    if (bySms.ok || bySms.kind !== "rows") throw new Error("expected row errors");
    expect(bySms.errors.map((error) => `${error.row}:${error.column}:${error.code}`)).toEqual([
      "2:customer_phone:bulk.errors.no_phone_for_channel",
    ]);
    expect(await countOf(database.db, "transactions", shop.merchantId)).toBe(0);
    // Sent by either, or by none (the merchant shares the links itself): every row is good.
    expect((await upload(shop, csv, { sendEmail: true, sendSms: true })).ok).toBe(true);
    expect((await upload(shop, csv, { sendEmail: false, sendSms: false })).ok).toBe(true);
  });

  it("obeys the merchant's settings for payment requests as the create form does", async () => {
    const shop = await merchant("Rules");
    const rules = { emailNotifications: false, smsNotifications: true, editableAmount: false, defaultExpiryHours: 48 };
    const send = (csv: string, extra: Partial<UploadChoices>) =>
      uploadBulk(database.db, {
        merchantId: shop.merchantId,
        user: shop.user,
        fileName: "r.csv",
        bytes: Buffer.from(csv),
        choices: { ...choices, ...extra },
        baseUrl: "https://pay.example.com",
        rules,
      });
    expect(
      await send("amount,customer_email,customer_phone\n1.000,a@example.com,+96550001234\n", { sendEmail: true }),
    ).toMatchObject({ ok: false, kind: "file", code: "payment_request.settings.refused.email_notifications" });
    const rows = await send(
      "amount,customer_email,customer_phone,send_email,editable_amount\n1.000,a@example.com,+96550001234,yes,\n2.000,b@example.com,+96550001235,,yes\n",
      { sendEmail: false, sendSms: true },
    );
    if (rows.ok || rows.kind !== "rows") throw new Error("expected row errors");
    expect(rows.errors.map((error) => `${error.row}:${error.column}:${error.code}`)).toEqual([
      "2:send_email:payment_request.settings.refused.email_notifications",
      "3:editable_amount:payment_request.settings.refused.editable_amount",
    ]);
    // A row without an expiry gets the default one.
    const good = await send("amount,customer_email,customer_phone\n1.000,a@example.com,+96550001234\n", {
      sendEmail: false,
      sendSms: true,
    });
    if (!good.ok) throw new Error(JSON.stringify(good));
    const request = await database.db
      .selectFrom("transactions")
      .select(["expiration_time", "created_at"])
      .where("merchant_id", "=", shop.merchantId)
      .executeTakeFirstOrThrow();
    expect(Date.parse(request.expiration_time!) - Date.parse(request.created_at)).toBeGreaterThanOrEqual(
      48 * 3_600_000 - 5_000,
    );
    expect(Date.parse(request.expiration_time!) - Date.parse(request.created_at)).toBeLessThanOrEqual(
      48 * 3_600_000 + 5_000,
    );
  });

  it("makes one bulk of a form posted twice at once with its one-time token", async () => {
    const shop = await merchant("Twice");
    const post = () =>
      uploadBulk(database.db, {
        merchantId: shop.merchantId,
        user: shop.user,
        fileName: "rent.csv",
        bytes: Buffer.from(bulkCsv(20)),
        choices,
        baseUrl: "https://pay.example.com",
        uploadToken: "form-token-0123456789",
      });
    const [first, second] = await Promise.all([post(), post()]);
    if (!first.ok || !second.ok) throw new Error("refused");
    expect(second.bulkId).toBe(first.bulkId);
    const third = await post();
    expect(third).toMatchObject({ ok: true, bulkId: first.bulkId, rows: 20, created: 20, repeated: true });
    expect(await countOf(database.db, "bulk_uploads", shop.merchantId)).toBe(1);
    expect(await countOf(database.db, "transactions", shop.merchantId)).toBe(20);
    // Another merchant's form with the same token is its own.
    const other = await merchant("TwiceOther");
    const theirs = await uploadBulk(database.db, {
      merchantId: other.merchantId,
      user: other.user,
      fileName: "rent.csv",
      bytes: Buffer.from(bulkCsv(2)),
      choices,
      baseUrl: "https://pay.example.com",
      uploadToken: "form-token-0123456789",
    });
    expect(theirs.ok && theirs.bulkId !== first.bulkId).toBe(true);
  });
});

describe("a valid bulk", () => {
  it("creates a payment request per row with the bulk's id and sends each link once by the channels its row has", async () => {
    const shop = await merchant("Valid");
    const csv = [
      "amount,customer_email,customer_phone,currency_code,customer_first_name,language,send_sms,editable_amount,min_amount,max_amount,remarks",
      "125.000,fatima@example.com,50001234,,Fatima,ar,yes,,,,Flat:12~Month:March",
      "10,yousef@example.com,+96566001234,USD,Yousef,,,yes,5,20,",
      "7.500,ali@example.com,,,Ali,,,,,,",
    ].join("\n");
    const outcome = await upload(shop, csv, { sendEmail: true, sendSms: false });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(outcome).toMatchObject({ rows: 3, created: 3 });
    const requests = await database.db
      .selectFrom("transactions")
      .select([
        "plugin",
        "bulk_id",
        "amount",
        "currency_code",
        "customer_phone",
        "editable_amount",
        "min_amount",
        "max_amount",
        "state",
        "remarks",
        "pg_codes",
        "send_sms",
      ])
      .where("merchant_id", "=", shop.merchantId)
      .orderBy("order_no")
      .execute();
    expect(requests).toMatchObject([
      {
        plugin: "bulk",
        bulk_id: outcome.bulkId,
        amount: 125000,
        currency_code: "KWD",
        customer_phone: "+96550001234",
        state: "created",
        remarks: "Flat:12~Month:March",
        send_sms: 1,
      },
      {
        plugin: "bulk",
        bulk_id: outcome.bulkId,
        amount: 1000,
        currency_code: "USD",
        editable_amount: 1,
        min_amount: 500,
        max_amount: 2000,
        send_sms: 0,
      },
      { plugin: "bulk", bulk_id: outcome.bulkId, amount: 7500, currency_code: "KWD" },
    ]);
    expect(requests[0].pg_codes.split(",").length).toBeGreaterThan(0);

    await dispatchRun(database.db, outcome.dispatchLogId);
    const mails = await database.db
      .selectFrom("outgoing_mail")
      .select(["to_address", "subject", "text_body"])
      .where("merchant_id", "=", shop.merchantId)
      .orderBy("id")
      .execute();
    expect(mails.map((mail) => mail.to_address)).toEqual([
      "fatima@example.com",
      "yousef@example.com",
      "ali@example.com",
    ]);
    // Fatima's row asks for Arabic: her mail carries her link in her language.
    expect(mails[0].text_body).toContain("https://pay.example.com/ar/pay/");
    const texts = await database.db
      .selectFrom("outgoing_sms")
      .select(["to_number", "body"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(texts.map((text) => text.to_number)).toEqual(["+96550001234"]);
    const bulk = await loadBulk(database.db, shop.merchantId, outcome.bulkId);
    expect(bulk).toMatchObject({
      row_count: 3,
      created: 3,
      messages: 4,
      sent: 4,
      failed: 0,
      paid: 0,
      dispatching: false,
    });
    // Every row carries its merchant.
    const rows = await database.db
      .selectFrom("bulk_rows")
      .select("merchant_id")
      .where("bulk_id", "=", outcome.bulkId)
      .execute();
    expect(rows.map((row) => row.merchant_id)).toEqual([shop.merchantId, shop.merchantId, shop.merchantId]);
  });

  it("sends 1,000 rows once each though the worker stops half-way and another takes the run over", async () => {
    const shop = await merchant("Crash");
    const outcome = await upload(shop, bulkCsv(1000));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    // The first worker dies after its third batch (nothing of a fourth is written).
    await expect(
      dispatchRun(database.db, outcome.dispatchLogId, {
        afterBatch: (sent) => {
          if (sent >= 300) throw new Error("worker killed");
        },
      }),
    ).rejects.toThrow("worker killed");
    expect(await countOf(database.db, "outgoing_mail", shop.merchantId)).toBe(300);
    // Two workers take it over at once.
    await Promise.all([
      dispatchRun(database.db, outcome.dispatchLogId),
      dispatchRun(database.db, outcome.dispatchLogId),
    ]);
    const mails = await mailsByRecipient(database.db, shop.merchantId);
    expect(mails.size).toBe(1000);
    expect([...mails.values()].every((count) => count === 1)).toBe(true);
    const log = await database.db
      .selectFrom("bulk_dispatch_logs")
      .select(["status", "sent", "failed", "total"])
      .where("id", "=", outcome.dispatchLogId)
      .executeTakeFirstOrThrow();
    expect(log).toEqual({ status: "finished", sent: 1000, failed: 0, total: 1000 });
  });
});

describe("resending the failed messages", () => {
  it("sends again only the messages that failed, once, and only for requests still payable", async () => {
    const shop = await merchant("Resend");
    const outcome = await upload(shop, bulkCsv(10));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    // One request is canceled before its link goes out: its message fails.
    const first = await database.db
      .selectFrom("transactions")
      .select("id")
      .where("merchant_id", "=", shop.merchantId)
      .orderBy("order_no")
      .executeTakeFirstOrThrow();
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, first.id, "canceled", { kind: "canceled", actor: shop.user }),
    );
    await dispatchRun(database.db, outcome.dispatchLogId);
    // The relay then refuses two delivered mails.
    await refuseMailTo(database.db, shop.merchantId, "bulk-3@example.com");
    await refuseMailTo(database.db, shop.merchantId, "bulk-7@example.com");
    const failed = await listTransactionLogs(database.db, shop.merchantId, outcome.dispatchLogId, {
      result: "failed",
      limit: 50,
      offset: 0,
    });
    expect(failed.results.map((log) => [log.recipient, log.error])).toEqual([
      ["bulk-0@example.com", "bulk.errors.not_payable"],
      ["bulk-3@example.com", "550 mailbox unavailable"],
      ["bulk-7@example.com", "550 mailbox unavailable"],
    ]);

    const resent = await resendFailed(database.db, {
      merchantId: shop.merchantId,
      bulkId: outcome.bulkId,
      actor: shop.user,
    });
    expect(resent).toMatchObject({ ok: true, count: 2 });
    if (!resent.ok) throw new Error("refused");
    // Asked twice (a double click): the second finds nothing left to send.
    expect(
      await resendFailed(database.db, { merchantId: shop.merchantId, bulkId: outcome.bulkId, actor: shop.user }),
    ).toMatchObject({ ok: false, code: "bulk.errors.nothing_to_resend" });
    await dispatchRun(database.db, resent.dispatchLogId);
    const mails = await mailsByRecipient(database.db, shop.merchantId);
    expect(mails.get("bulk-3@example.com")).toBe(2);
    expect(mails.get("bulk-7@example.com")).toBe(2);
    expect(mails.get("bulk-0@example.com")).toBeUndefined();
    expect([...mails.entries()].filter(([, count]) => count === 1)).toHaveLength(7);
    expect(
      await database.db
        .selectFrom("bulk_dispatch_logs")
        .select(["kind", "total", "sent", "requests_created"])
        .where("id", "=", resent.dispatchLogId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ kind: "resend", total: 2, sent: 2, requests_created: 0 });
    // Another merchant cannot resend this bulk's messages.
    const other = await merchant("Other");
    expect(
      await resendFailed(database.db, { merchantId: other.merchantId, bulkId: outcome.bulkId, actor: other.user }),
    ).toMatchObject({ ok: false, code: "api.not_found" });
    expect(await loadBulk(database.db, other.merchantId, outcome.bulkId)).toBeUndefined();
  });
});

describe("a recurring bulk", () => {
  it("makes a new set of requests once per period, however many workers look at once, until its schedule is stopped", async () => {
    const shop = await merchant("Monthly");
    const outcome = await upload(
      shop,
      bulkCsv(5, {
        header: ["amount", "customer_email", "customer_phone", "expiration_time"],
        row: (index) => [
          `${index + 1}.000`,
          `tenant-${index}@example.com`,
          "",
          new Date(now().getTime() + 7 * 86_400_000).toISOString(),
        ],
      }),
      { schedule: "monthly" },
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    await dispatchRun(database.db, outcome.dispatchLogId);
    const bulk = await database.db
      .selectFrom("bulk_uploads")
      .select(["next_run_at", "schedule_from"])
      .where("id", "=", outcome.bulkId)
      .executeTakeFirstOrThrow();
    expect(bulk.next_run_at).toBe(
      nextRunAt("monthly", new Date(bulk.schedule_from!), new Date(bulk.schedule_from!)).toISOString(),
    );

    // Not due yet: nothing happens.
    expect(await startDueRuns(database.db)).toBe(0);
    advanceClock(32 * 86_400_000);
    const started = await Promise.all([
      startDueRuns(database.db),
      startDueRuns(database.db),
      startDueRuns(database.db),
    ]);
    expect(started.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await countOf(database.db, "transactions", shop.merchantId)).toBe(10);
    const runs = await database.db
      .selectFrom("bulk_dispatch_logs")
      .select(["id", "kind", "total", "requests_created"])
      .where("bulk_id", "=", outcome.bulkId)
      .orderBy("id")
      .execute();
    expect(runs.map((run) => [run.kind, run.total, run.requests_created])).toEqual([
      ["upload", 5, 5],
      ["scheduled", 5, 5],
    ]);
    await dispatchRun(database.db, runs[1].id);
    expect([...(await mailsByRecipient(database.db, shop.merchantId)).values()]).toEqual([2, 2, 2, 2, 2]);
    // The new requests expire as long after their run as the file's did after the upload.
    const newest = await database.db
      .selectFrom("transactions")
      .select(["expiration_time", "created_at"])
      .where("merchant_id", "=", shop.merchantId)
      .orderBy("order_no", "desc")
      .executeTakeFirstOrThrow();
    expect(Date.parse(newest.expiration_time!) - Date.parse(newest.created_at)).toBeGreaterThan(6.9 * 86_400_000);
    expect(await startDueRuns(database.db)).toBe(0);

    expect(
      await changeSchedule(database.db, {
        merchantId: shop.merchantId,
        bulkId: outcome.bulkId,
        schedule: "none",
        actor: shop.user,
      }),
    ).toMatchObject({ ok: true, code: "bulk.schedule_stopped" });
    advanceClock(40 * 86_400_000);
    expect(await startDueRuns(database.db)).toBe(0);
    expect(await countOf(database.db, "transactions", shop.merchantId)).toBe(10);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "description"])
      .where("merchant_id", "=", shop.merchantId)
      .where("action", "like", "bulk_%")
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(["bulk_uploaded", "bulk_run_started", "bulk_schedule_stopped"]);
    expect(audit[0].description).toBe(`Uploaded rent.csv (bulk #${outcome.bulkId}): 5 payment requests`);
  });

  it("falls on the same day of each month, the month's last day when it is shorter, and runs once after a long stop", () => {
    const from = new Date("2026-01-31T06:00:00.000Z");
    expect(nextRunAt("monthly", from, from).toISOString()).toBe("2026-02-28T06:00:00.000Z");
    expect(nextRunAt("monthly", from, new Date("2026-02-28T06:00:00.000Z")).toISOString()).toBe(
      "2026-03-31T06:00:00.000Z",
    );
    expect(nextRunAt("monthly", from, new Date("2026-09-02T00:00:00.000Z")).toISOString()).toBe(
      "2026-09-30T06:00:00.000Z",
    );
    expect(nextRunAt("weekly", from, from).toISOString()).toBe("2026-02-07T06:00:00.000Z");
    expect(nextRunAt("weekly", from, new Date("2026-03-01T00:00:00.000Z")).toISOString()).toBe(
      "2026-03-07T06:00:00.000Z",
    );
  });
});

describe("the demo merchant's sample bulk", () => {
  it("is the all-fields example file, uploaded and sent once, recurring monthly", async () => {
    const shop = await merchant("Demo");
    const { sectionServer } = await import("../section.server");
    const { bulk } = await import("../section");
    const demoJob = sectionServer.jobs![bulk.demoJob];
    await demoJob(database.db, { merchantId: shop.merchantId, userId: shop.admin.id });
    await demoJob(database.db, { merchantId: shop.merchantId, userId: shop.admin.id });
    const bulks = await database.db
      .selectFrom("bulk_uploads")
      .select(["id", "file_name", "row_count", "schedule"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(bulks).toEqual([
      { id: expect.any(Number), file_name: "sample-rent-and-fees.csv", row_count: 3, schedule: "monthly" },
    ]);
    expect(await loadBulk(database.db, shop.merchantId, bulks[0].id)).toMatchObject({
      created: 3,
      messages: 4,
      sent: 4,
      failed: 0,
      dispatching: false,
    });
    expect([...(await mailsByRecipient(database.db, shop.merchantId)).keys()].sort()).toEqual([
      "fatima.alsabah@example.com",
      "yousef.alenezi@example.com",
    ]);
    expect(await countOf(database.db, "outgoing_sms", shop.merchantId)).toBe(2);
  });
});
