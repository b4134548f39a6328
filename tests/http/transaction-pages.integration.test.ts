import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { bumpTotals } from "~/domain/payments/running-totals.server";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let sequence = 0;

/** A card payment of `amount` fils, paid, with its attempt: a row an admin could refund. */
async function paidRow(merchantId: number, email: string, amount = 5000, state: "paid" | "created" = "paid") {
  const id = `P${String(++sequence).padStart(21, "0")}`;
  const attemptId = `A${String(sequence).padStart(21, "0")}`;
  const created = "2026-06-01T09:00:00.000Z";
  await database.db
    .insertInto("transactions")
    .values({
      id,
      merchant_id: merchantId,
      unit_id: null,
      plugin: "payment_request",
      order_no: 1000 + sequence,
      state,
      amount,
      currency_code: "KWD",
      editable_amount: 0,
      customer_email: email,
      customer_email_lc: email,
      customer_phone: null,
      customer_first_name: null,
      customer_last_name: null,
      description: null,
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: "mpgs-sandbox",
      expiration_time: null,
      next_url: null,
      initiator_user_id: null,
      gateway_code: "mpgs-sandbox",
      paid_attempt_id: attemptId,
      paid_amount: amount,
      captured_amount: amount,
      send_email: 0,
      send_sms: 0,
      created_at: created,
      state_changed_at: created,
      deleted_at: null,
    })
    .execute();
  await database.db
    .insertInto("payment_attempts")
    .values({
      id: attemptId,
      transaction_id: id,
      merchant_id: merchantId,
      gateway_code: "mpgs-sandbox",
      gateway_kind: "card",
      state: "success",
      amount,
      fee: 0,
      total: amount,
      fee_payer: "merchant",
      currency_code: "KWD",
      track_id: `9${String(sequence).padStart(17, "0")}`,
      submission_token: `token-${sequence}`,
      gateway_reference: `ref-${sequence}`,
      redirect_url: null,
      payment_id: null,
      tran_id: null,
      auth_code: null,
      reference_id: null,
      post_date: null,
      result_code: null,
      authorized_only: 0,
      created_at: created,
      completed_at: created,
    })
    .execute();
  const key = { merchantId, plugin: "payment_request", currency: "KWD", at: created };
  await bumpTotals(database.db, key, {
    generated_count: 1,
    generated_amount: amount,
    received_count: 1,
    received_amount: amount,
  });
  return id;
}

let alphaRow: string;
let betaRow: string;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  alphaRow = await paidRow(alpha.merchantId, "alpha-buyer@example.com");
  betaRow = await paidRow(beta.merchantId, "beta-buyer@example.com");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

describe("the transaction pages", () => {
  it("list only the merchant's own rows; another merchant's details are not found", async () => {
    const cookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    const html = await (await app.request("/en/payment-request/transactions", { cookie })).text();
    expect(html).toContain("alpha-buyer@example.com");
    expect(html).not.toContain("beta-buyer@example.com");
    expect((await app.request(`/en/payment-request/transactions/${alphaRow}`, { cookie })).status).toBe(200);
    expect((await app.request(`/en/payment-request/transactions/${betaRow}`, { cookie })).status).toBe(404);
    expect((await app.request(`/en/transactions/${betaRow}?type=payment_request`, { cookie })).status).toBe(404);
    // A search for the other merchant's customer finds nothing.
    const search = await (await app.request("/en/transactions?q=beta-buyer", { cookie })).text();
    expect(search).not.toContain("beta-buyer@example.com");
  });

  it("offer a refund to those who may refund, and refuse it to staff on the server", async () => {
    const admin = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const adminPage = await (await app.request("/en/payment-request/transactions", { cookie: admin })).text();
    expect(adminPage).toContain(`operation=refund&amp;id=${alphaRow}`);

    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    const staffPage = await (await app.request("/en/payment-request/transactions", { cookie: staff })).text();
    expect(staffPage).not.toContain("operation=refund");
    for (const step of ["review", "confirm"]) {
      const response = await app.request("/en/payment-request/transactions", {
        cookie: staff,
        form: { intent: "operation", id: alphaRow, kind: "refund", amount: "1.000", step },
      });
      expect(response.status).toBe(403);
    }
    const operations = await database.db.selectFrom("transaction_operations").select("id").execute();
    expect(operations).toEqual([]);
  });

  it("refuse the table headers and the export to staff", async () => {
    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/payment-request/table-headers", { cookie: staff })).status).toBe(403);
    const exported = await app.request("/en/transactions/export", {
      cookie: staff,
      form: { section: "payment_request", query: "", file_format: "csv", export_type: "default", language: "en" },
    });
    expect(exported.status).toBe(403);
    expect(await database.db.selectFrom("reports").select("id").execute()).toEqual([]);
  });

  it("offer bulk actions only to those who may take them, and ask before a row's action", async () => {
    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    const staffPage = await (await app.request("/en/payment-request/transactions", { cookie: staff })).text();
    expect(staffPage).toContain("alpha-buyer@example.com");
    expect(staffPage).not.toContain('name="bulk_action"');
    expect(staffPage).not.toContain('name="ids"');

    const unpaid = await paidRow(alpha.merchantId, "confirm-me@example.com", 1500, "created");
    const admin = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const list = await (await app.request("/en/payment-request/transactions", { cookie: admin })).text();
    expect(list).toContain('name="bulk_action"');
    // The row's Delete is a link to a question, not a button that deletes at once.
    expect(list).toContain(`confirm=delete&amp;id=${unpaid}`);
    const asked = await (
      await app.request(`/en/payment-request/transactions?confirm=delete&id=${unpaid}`, { cookie: admin })
    ).text();
    expect(asked).toContain("Delete this transaction? It moves to Deleted transactions, where it can be restored.");
    expect(asked).toContain(`value="delete:${unpaid}"`);
    // Nothing to ask about a row that cannot be deleted, nor for staff.
    const paid = await (
      await app.request(`/en/payment-request/transactions?confirm=delete&id=${alphaRow}`, { cookie: admin })
    ).text();
    expect(paid).not.toContain("Delete this transaction?");
    const staffAsked = await (
      await app.request(`/en/payment-request/transactions?confirm=delete&id=${unpaid}`, { cookie: staff })
    ).text();
    expect(staffAsked).not.toContain("Delete this transaction?");
    const arabic = await (
      await app.request(`/ar/payment-request/transactions?confirm=delete&id=${unpaid}`, { cookie: admin })
    ).text();
    expect(arabic).toContain("حذف هذه المعاملة؟");

    // Deleting both: the paid row stays, the unpaid one goes — 207, 'Applied partially', naming the row left.
    const form = new URLSearchParams([
      ["intent", "bulk"],
      ["bulk_action", "delete"],
      ["ids", alphaRow],
      ["ids", unpaid],
    ]);
    const bulk = await app.request("/en/payment-request/transactions", {
      cookie: admin,
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(bulk.status).toBe(207);
    const html = await bulk.text();
    expect(html).toContain("Applied partially");
    expect(html).toMatch(
      /Order #(<!-- -->)?1001(<!-- -->)?: (<!-- -->)?This action is not available for this transaction\./,
    );
    expect(await (await app.request("/en/payment-request/deleted-transactions", { cookie: admin })).text()).toContain(
      "confirm-me@example.com",
    );
    await app.request(`/en/payment-request/deleted-transactions/${unpaid}`, {
      cookie: admin,
      form: { row_command: `restore:${unpaid}` },
    });
  });

  it("find a row from express search by e-mail, order number or id, never another merchant's; only with the search right", async () => {
    const cookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    for (const q of ["alpha-buyer", "1001", alphaRow]) {
      const html = await (await app.request(`/en/search/express?q=${encodeURIComponent(q)}`, { cookie })).text();
      expect(html).toContain(`href="/en/payment-request/transactions/${alphaRow}?type=payment_request"`);
    }
    const theirs = await (await app.request("/en/search/express?q=beta-buyer", { cookie })).text();
    expect(theirs).not.toContain("beta-buyer@example.com");
    expect(theirs).toContain("Nothing matches");
    const arabic = await (await app.request("/ar/search/express?q=alpha-buyer", { cookie })).text();
    expect(arabic).toContain(`href="/ar/payment-request/transactions/${alphaRow}?type=payment_request"`);

    await createUser(database.db, alpha.merchantId, {
      username: "alpha-viewer",
      email: "viewer@alpha.example",
      firstName: "V",
      lastName: "U",
      permissions: ["view_paymenttransaction"],
    });
    const viewer = await app.signIn("alpha-viewer", DEMO_PASSWORD);
    expect((await app.request("/en/search/express?q=alpha-buyer", { cookie: viewer })).status).toBe(403);
    // The menu offers express search only to those who may search.
    expect(await (await app.request("/en/help", { cookie })).text()).toContain('href="/en/search/express"');
    expect(await (await app.request("/en/help", { cookie: viewer })).text()).not.toContain('href="/en/search/express"');
  });

  it("show the filter error and keep the rows when To precedes From", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const html = await (
      await app.request("/en/payment-request/transactions?created_after=2026-06-05&created_before=2026-06-01", {
        cookie,
      })
    ).text();
    expect(html).toContain("To cannot precede From.");
    expect(html).toContain("alpha-buyer@example.com");
    const none = await (await app.request("/en/payment-request/transactions?state=failed", { cookie })).text();
    expect(none).not.toContain("alpha-buyer@example.com");
  });

  it("delete an unpaid request from its details page, then restore it from the deleted list's details", async () => {
    const unpaid = await paidRow(alpha.merchantId, "unpaid@example.com", 2000, "created");
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const deleted = await app.request(`/en/payment-request/transactions/${unpaid}`, {
      cookie,
      form: { row_command: `delete:${unpaid}` },
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/en/payment-request/transactions");
    expect((await app.request(`/en/payment-request/transactions/${unpaid}`, { cookie })).status).toBe(404);
    expect(await (await app.request("/en/payment-request/deleted-transactions", { cookie })).text()).toContain(
      "unpaid@example.com",
    );

    const restored = await app.request(`/en/payment-request/deleted-transactions/${unpaid}`, {
      cookie,
      form: { row_command: `restore:${unpaid}` },
    });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("Location")).toBe("/en/payment-request/deleted-transactions");
    expect((await app.request(`/en/payment-request/transactions/${unpaid}`, { cookie })).status).toBe(200);
    // A paid one cannot be deleted.
    const refused = await app.request(`/en/payment-request/transactions/${alphaRow}`, {
      cookie,
      form: { row_command: `delete:${alphaRow}` },
    });
    expect(refused.status).toBe(403);
    expect((await app.request(`/en/payment-request/transactions/${alphaRow}`, { cookie })).status).toBe(200);
  });
});
