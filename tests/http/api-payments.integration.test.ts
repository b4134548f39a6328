import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let alphaToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  alphaToken = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

const auth = (token: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, ...extra });
const create = (body: unknown, headers: Record<string, string> = {}, token = alphaToken) =>
  app.request("/api/v1/plugins/payment_request/transaction", { json: body, headers: auth(token, headers) });

describe("POST /api/v1/plugins/payment_request/transaction", () => {
  it("creates a request and answers its id, state and checkout_url", async () => {
    const response = await create({
      amount: "12.500",
      currency_code: "KWD",
      customer_email: "c@example.com",
      pg_codes: ["knet-sandbox", "cod"],
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      state: "created",
      amount: "12.500",
      currency_code: "KWD",
      customer_email: "c@example.com",
      pg_codes: ["knet-sandbox", "cod"],
    });
    expect(body.checkout_url).toBe(`http://localhost:3000/en/pay/${body.id}`);
  });

  it("answers DRF-style field errors", async () => {
    const response = await create({ amount: "abc", pg_codes: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      amount: ["Must be valid positive number"],
      pg_codes: ["one gateway at least should be selected."],
    });
  });

  it("creates once per Idempotency-Key and refuses the key with another body", async () => {
    const body = { amount: "5.000", pg_codes: "cod" };
    const first = await create(body, { "Idempotency-Key": "order-77" });
    const again = await create(body, { "Idempotency-Key": "order-77" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const firstBody = await first.json();
    expect((await again.json()).id).toBe(firstBody.id);
    const count = await database.db.selectFrom("transactions").select("id").where("amount", "=", 5000).execute();
    expect(count).toHaveLength(1);
    const other = await create({ amount: "6.000", pg_codes: "cod" }, { "Idempotency-Key": "order-77" });
    expect(other.status).toBe(422);
  });

  it("needs the right to create, and shows a merchant only its own requests", async () => {
    const staffToken = (await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access;
    expect((await create({ amount: "1", pg_codes: "cod" }, {}, staffToken)).status).toBe(403);
    const created = await (await create({ amount: "2", pg_codes: "cod" })).json();
    const own = await app.request(`/api/v1/plugins/payment_request/transaction/details/${created.id}`, {
      headers: auth(alphaToken),
    });
    expect(own.status).toBe(200);
    const betaToken = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
    const foreign = await app.request(`/api/v1/plugins/payment_request/transaction/details/${created.id}`, {
      headers: auth(betaToken),
    });
    expect(foreign.status).toBe(404);
  });
});

describe("public pay calls", () => {
  it("reads the transaction, re-prices choices and pays cash on delivery once", async () => {
    const created = await (
      await create({ amount: "10.000", pg_codes: ["mpgs-sandbox", "cod"], editable_amount: true })
    ).json();
    const view = await (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${created.id}`)).json();
    expect(view).toMatchObject({
      amount: "10.000",
      currency: "KWD",
      valid_for_payment: true,
      has_editable_amount: true,
    });
    expect(
      view.pay_choices.map((choice: { gateway_code: string; amount: string; fee: string }) => [
        choice.gateway_code,
        choice.amount,
        choice.fee,
      ]),
    ).toEqual([
      ["mpgs-sandbox", "10.300", "0.300"],
      ["cod", "10.000", "0.000"],
    ]);
    const repriced = await app.request(`/api/v1/plugins/payment_request/transaction/pay-choices/${created.id}`, {
      json: { amount: "20" },
    });
    expect((await repriced.json()).pay_choices[0]).toMatchObject({ amount: "20.500", base_amount: "20.000" });
    const invalid = await app.request(`/api/v1/plugins/payment_request/transaction/pay-choices/${created.id}`, {
      json: { amount: "0" },
    });
    expect(await invalid.json()).toEqual({ amount: ["Must be valid positive number"] });

    const pay = () =>
      app.request(`/api/v1/plugins/payment_request/transaction/pay/${created.id}`, {
        json: { gateway_code: "cod" },
        headers: { "Idempotency-Key": "tap-1" },
      });
    const [first, second] = [await pay(), await pay()];
    const firstBody = await first.json();
    expect(firstBody.redirect_url).toMatch(/\/en\/pay\/attempt-detail\/[0-9A-Za-z]{22}$/);
    expect((await second.json()).attempt_id).toBe(firstBody.attempt_id);
    const after = await (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${created.id}`)).json();
    expect(after).toMatchObject({ state: "cod", valid_for_payment: false });
  });

  it("answers 404 for an unknown transaction", async () => {
    const response = await app.request(`/api/v1/plugins/payment_request/transaction/pay/${"Z".repeat(22)}`);
    expect(response.status).toBe(404);
  });
});

describe("attachments", () => {
  const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0x25, 0x25, 0x45, 0x4f, 0x46]);

  async function upload(bytes: Uint8Array<ArrayBuffer>, name: string) {
    const form = new FormData();
    form.set("file", new File([bytes], name));
    return app.request("/api/v1/plugins/payment_request/attachment/upload", {
      method: "POST",
      headers: { Authorization: `Bearer ${alphaToken}` },
      body: form,
    });
  }

  it("keeps a real PDF, refuses other bytes whatever their name, and serves it from the pay link", async () => {
    const refused = await upload(new Uint8Array(new TextEncoder().encode("<script>alert(1)</script>")), "invoice.pdf");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ file: ["Upload a PDF, PNG, JPEG or WebP file"] });

    const uploaded = await upload(pdf, "فاتورة 12.pdf");
    expect(uploaded.status).toBe(201);
    const { file_url, original_filename } = await uploaded.json();
    expect(original_filename).toBe("فاتورة 12.pdf");
    const created = await (await create({ amount: "1", pg_codes: "cod", attachment: file_url })).json();
    const download = await app.request(`/en/pay/${created.id}/attachment`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);

    const betaToken = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
    const stolen = await create({ amount: "1", pg_codes: "cod", attachment: file_url }, {}, betaToken);
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toEqual({ attachment: ["Failed to upload file"] });
  });
});

describe("transaction actions", () => {
  it("offers resend and cancel to those allowed, runs them, and only delete once closed", async () => {
    const created = await (await create({ amount: "3", pg_codes: "cod", customer_email: "again@example.com" })).json();
    const list = async (token: string) =>
      (
        await app.request(`/api/v1/plugins/payment_request/transaction/actions/${created.id}/`, {
          headers: auth(token),
        })
      ).json();
    const actions = await list(alphaToken);
    expect(actions.map((action: { value: string }) => action.value)).toEqual(["email", "cancel", "delete"]);
    expect(actions[0]).toMatchObject({
      display_name: "Resend email",
      url: `/api/v1/plugins/payment_request/transaction/actions/${created.id}/email/`,
    });

    const staffToken = (await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access;
    expect(await list(staffToken)).toEqual([]);
    expect((await app.request(actions[1].url, { method: "POST", headers: auth(staffToken) })).status).toBe(403);

    const mailsBefore = (
      await database.db.selectFrom("outgoing_mail").select("id").where("to_address", "=", "again@example.com").execute()
    ).length;
    expect((await app.request(actions[0].url, { method: "POST", headers: auth(alphaToken) })).status).toBe(200);
    const mailsAfter = (
      await database.db.selectFrom("outgoing_mail").select("id").where("to_address", "=", "again@example.com").execute()
    ).length;
    expect(mailsAfter).toBe(mailsBefore + 1);

    const canceled = await app.request(actions[1].url, { method: "POST", headers: auth(alphaToken) });
    expect(await canceled.json()).toEqual({ message: "The payment request was canceled." });
    // Closed: nothing to send or cancel any more; never paid, so it may still be deleted.
    expect((await list(alphaToken)).map((action: { value: string }) => action.value)).toEqual(["delete"]);
    const view = await (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${created.id}`)).json();
    expect(view).toMatchObject({ state: "canceled", valid_for_payment: false });

    const betaToken = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
    expect(
      (
        await app.request(`/api/v1/plugins/payment_request/transaction/actions/${created.id}/`, {
          headers: auth(betaToken),
        })
      ).status,
    ).toBe(404);
  });
});
