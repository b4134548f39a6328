import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let manager: { id: number; username: string };
let adminToken: string;
let managerToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  const id = await createUser(database.db, alpha.merchantId, {
    username: "alpha-manager",
    email: "manager@alpha.example",
    firstName: "Maha",
    lastName: "Manager",
    permissions: ["manage_merchant"],
  });
  manager = { id, username: "alpha-manager" };
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  adminToken = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
  managerToken = (await app.apiToken(manager.username, DEMO_PASSWORD)).access;
});

afterAll(async () => {
  await database?.destroy();
});

const bearer = (access: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${access}`,
  ...extra,
});
const createRequest = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.request("/api/v1/plugins/payment_request/transaction", {
    json: { pg_codes: ["knet-sandbox", "cod"], ...body },
    headers: bearer(adminToken, headers),
  });
const listedIds = async () => {
  const response = await app.request("/api/v1/plugins/payment_request/transaction?per_page=100", {
    headers: bearer(adminToken),
  });
  return {
    status: response.status,
    ids:
      response.status === 200
        ? ((await response.json()) as { results: { id: string }[] }).results.map((row) => row.id).sort()
        : [],
  };
};
const featuresOf = (merchantId: number) =>
  database.db
    .selectFrom("merchant_features")
    .select(["section", "feature"])
    .where("merchant_id", "=", merchantId)
    .orderBy("section")
    .orderBy("feature")
    .execute();
const patchSettings = (json: unknown, headers: Record<string, string> = {}) =>
  app.request("/api/v1/admin/sections/payment_request/settings", {
    method: "PATCH",
    json,
    headers: bearer(managerToken, headers),
  });

describe("installing and uninstalling sections", () => {
  it("lists the built sections only, with their state, in English and in Arabic", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const page = await (await app.request("/en/admin/sections", { cookie })).text();
    for (const name of ["Express search", "Payment requests", "Catalogue", "Events", "Tickets"])
      expect(page).toContain(name);
    expect(page).toContain(">Catalogue<");
    expect(page).toContain(">Shopify<");
    expect(page).toContain('href="/en/admin/sections/payment_request"');
    expect(page).toContain('href="/en/admin/sections"');
    const listed = await (await app.request("/api/v1/admin/sections", { headers: bearer(managerToken) })).json();
    expect(listed).toEqual([
      { key: "express_search", installed: true, features: [] },
      { key: "payment_request", installed: true, features: ["create", "deleted_transactions", "transactions"] },
      { key: "bulk", installed: true, features: ["deleted_transactions", "transactions", "upload"] },
      {
        key: "customer_payment",
        installed: true,
        features: ["collectors", "deleted_transactions", "payment_restriction", "transactions"],
      },
      {
        key: "catalogue",
        installed: true,
        features: [
          "deleted_transactions",
          "discounts",
          "product_upload",
          "products",
          "settings",
          "stores",
          "transactions",
        ],
      },
      { key: "e_commerce", installed: true, features: ["deleted_transactions", "transactions"] },
      { key: "session", installed: true, features: ["sessions"] },
      { key: "shopify", installed: true, features: ["deleted_transactions", "settings", "transactions"] },
      { key: "code_pairing", installed: true, features: ["codes", "sites"] },
      {
        key: "event",
        installed: true,
        features: ["bookings", "create", "deleted_transactions", "fulfillment", "transactions"],
      },
      {
        key: "food_ordering",
        installed: true,
        features: ["branches", "deleted_transactions", "fulfillment", "orders", "product_bulk_create", "transactions"],
      },
      { key: "ticket", installed: true, features: ["operations_approval", "user_permission_changes"] },
      { key: "pos", installed: true, features: ["pay"] },
    ]);

    const arabic = await (
      await app.request("/ar/admin/sections", { cookie: await app.signIn(manager.username, DEMO_PASSWORD, "ar") })
    ).text();
    expect(arabic).toContain('dir="rtl"');
    for (const text of ["الأقسام", "طلبات الدفع", "مثبّت", "إلغاء التثبيت", "لا يُحذف منه شيء", "تبقى معاملاته محفوظة"])
      expect(arabic).toContain(text);
  });

  it("uninstalling payment requests hides them everywhere and loses nothing; pay links keep working; reinstalling brings the same transactions back", async () => {
    const first = await (await createRequest({ amount: "3.000" })).json();
    const second = await (await createRequest({ amount: "4.000" })).json();
    const before = await listedIds();
    expect(before.ids).toEqual(expect.arrayContaining([first.id, second.id]));
    const betaBefore = await featuresOf(beta.merchantId);
    const adminCookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    expect(await (await app.request("/en", { cookie: adminCookie })).text()).toContain(
      'href="/en/payment-request/transactions"',
    );

    // Without JavaScript: the confirmation's button is a plain form post.
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const done = await app.request("/en/admin/sections", { cookie, form: { change: "payment_request:uninstall" } });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/en/admin/sections");

    const home = await (await app.request("/en", { cookie: adminCookie })).text();
    expect(home).not.toContain('href="/en/payment-request/transactions"');
    expect(home).not.toContain('href="/en/payment-request/create"');
    expect((await app.request("/en/payment-request/transactions", { cookie: adminCookie })).status).toBe(404);
    expect((await app.request("/en/payment-request/create", { cookie: adminCookie })).status).toBe(404);
    expect((await listedIds()).status).toBe(404);
    expect((await createRequest({ amount: "5.000" })).status).toBe(404);
    expect(
      await (await app.request("/api/v1/plugins/installed", { headers: bearer(adminToken) })).json(),
    ).not.toContain("payment_request");
    expect(await featuresOf(alpha.merchantId)).not.toContainEqual(
      expect.objectContaining({ section: "payment_request" }),
    );
    expect(
      await database.db
        .selectFrom("merchant_plugins")
        .select("plugin")
        .where("merchant_id", "=", alpha.merchantId)
        .where("plugin", "=", "payment_request")
        .execute(),
    ).toEqual([]);
    // Nothing is deleted, and a link a customer already has is still paid.
    expect(
      (await database.db.selectFrom("transactions").select("id").where("id", "in", [first.id, second.id]).execute())
        .length,
    ).toBe(2);
    expect((await app.requestPayPage(`/en/pay/${first.id}`)).status).toBe(200);
    const paid = await app.request(`/en/pay/${first.id}`, {
      method: "POST",
      form: { submission_token: "after-uninstall", gateway_code: "cod" },
    });
    expect(paid.status).toBe(303);
    expect(
      (
        await database.db
          .selectFrom("transactions")
          .select("state")
          .where("id", "=", first.id)
          .executeTakeFirstOrThrow()
      ).state,
    ).toBe("cod");

    const reinstalled = await app.request("/api/v1/admin/sections/payment_request/install", {
      method: "POST",
      headers: bearer(managerToken),
    });
    expect(reinstalled.status).toBe(200);
    expect(await reinstalled.json()).toEqual({
      key: "payment_request",
      installed: true,
      features: ["create", "deleted_transactions", "transactions"],
    });
    expect((await listedIds()).ids).toEqual(before.ids);
    expect(await (await app.request("/en", { cookie: adminCookie })).text()).toContain(
      'href="/en/payment-request/transactions"',
    );
    expect(await (await app.request("/api/v1/plugins/installed", { headers: bearer(adminToken) })).json()).toEqual([
      "express_search",
      "payment_request",
      "bulk",
      "customer_payment",
      "catalogue",
      "e_commerce",
      "session",
      "shopify",
      "code_pairing",
      "event",
      "food_ordering",
      "ticket",
      "pos",
    ]);
    // Installing what is installed changes nothing and is not audited again.
    expect(
      (
        await app.request("/api/v1/admin/sections/payment_request/install", {
          method: "POST",
          headers: bearer(managerToken),
        })
      ).status,
    ).toBe(200);

    // The other merchant was never touched.
    expect(await featuresOf(beta.merchantId)).toEqual(betaBefore);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name", "description", "object_id"])
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "like", "section_%")
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      {
        action: "section_uninstalled",
        actor_name: "alpha-manager",
        description: "Uninstalled the section Payment requests (its transactions are kept)",
        object_id: "payment_request",
      },
      {
        action: "section_installed",
        actor_name: "alpha-manager",
        description: "Installed the section Payment requests",
        object_id: "payment_request",
      },
    ]);
    // The audit viewer writes the entry in the reader's language.
    const arabicAudit = await (
      await app.request("/ar/admin/audit", { cookie: await app.signIn(alpha.admin.username, DEMO_PASSWORD, "ar") })
    ).text();
    expect(arabicAudit).toContain("ألغى تثبيت قسم طلبات الدفع (معاملاته محفوظة)");
  });

  it("answers 403 without manage_merchant and 404 for a section that is unknown or not built", async () => {
    const staffCookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/admin/sections", { cookie: staffCookie })).status).toBe(403);
    expect(
      (await app.request("/en/admin/sections", { cookie: staffCookie, form: { change: "payment_request:uninstall" } }))
        .status,
    ).toBe(403);
    expect((await app.request("/en/admin/sections/payment_request", { cookie: staffCookie })).status).toBe(403);
    const staff = bearer((await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access);
    expect((await app.request("/api/v1/admin/sections", { headers: staff })).status).toBe(403);
    expect(
      (await app.request("/api/v1/admin/sections/payment_request/uninstall", { method: "POST", headers: staff }))
        .status,
    ).toBe(403);
    expect((await app.request("/api/v1/admin/sections/payment_request/settings", { headers: staff })).status).toBe(403);
    expect((await app.request("/api/v1/plugins/installed")).status).toBe(401);

    for (const key of ["nope", "__proto__"]) {
      expect(
        (await app.request(`/api/v1/admin/sections/${key}/install`, { method: "POST", headers: bearer(managerToken) }))
          .status,
      ).toBe(404);
    }
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    expect((await app.request("/en/admin/sections", { cookie, form: { change: "nope:uninstall" } })).status).toBe(404);
    expect((await app.request("/en/admin/sections", { cookie, form: { change: "whatever" } })).status).toBe(400);
    // Express search has nothing to set.
    expect((await app.request("/en/admin/sections/express_search", { cookie })).status).toBe(404);
    expect(
      (await app.request("/api/v1/admin/sections/express_search/settings", { headers: bearer(managerToken) })).status,
    ).toBe(404);
    expect((await featuresOf(alpha.merchantId)).some((row) => row.section === "shopify")).toBe(true);
  });
});

describe("payment request settings", () => {
  it("are read and changed through the API, only what is sent, refusing unknown fields and bad values by name", async () => {
    const defaults = await (
      await app.request("/api/v1/admin/sections/payment_request/settings", { headers: bearer(managerToken) })
    ).json();
    expect(defaults).toEqual({
      default_expiry_hours: null,
      editable_amount: true,
      restrict_multiple_payments: true,
      qr_code_type: "payment_link",
      email_notifications: true,
      sms_notifications: true,
      multi_step_checkout: true,
    });

    const refused = await patchSettings({
      default_expiry_hours: 0,
      editable_amount: "no",
      colour: "red",
      restrict_multiple_payments: false,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      default_expiry_hours: ["Enter a whole number of hours from 1 to 8760, or leave it empty for no expiry."],
      editable_amount: ["Must be a valid boolean."],
      colour: ["This field cannot be changed."],
      restrict_multiple_payments: ["This setting cannot be changed yet."],
    });
    const arabic = await patchSettings({ default_expiry_hours: 9000 }, { "Accept-Language": "ar" });
    expect(await arabic.json()).toEqual({
      default_expiry_hours: ["أدخل عددًا صحيحًا من الساعات بين 1 و8760، أو اتركه فارغًا ليبقى الرابط دون انتهاء."],
    });

    const changed = await patchSettings({ default_expiry_hours: 48 });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ ...defaults, default_expiry_hours: 48 });
    const entry = await database.db
      .selectFrom("audit_log")
      .select(["description"])
      .where("action", "=", "section_settings_changed")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(entry.description).toBe("Changed the settings of Payment requests: Default expiry (hours)");
    expect(await (await patchSettings({ default_expiry_hours: null })).json()).toEqual(defaults);
  });

  it("are enforced: the default expiry, editable amounts, customer e-mails and text messages, the delivery step", async () => {
    await patchSettings({
      default_expiry_hours: 48,
      editable_amount: false,
      email_notifications: false,
      sms_notifications: false,
      multi_step_checkout: false,
    });

    const created = await createRequest({ amount: "7.000" });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const row = await database.db
      .selectFrom("transactions")
      .select("expiration_time")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Math.abs(new Date(row.expiration_time!).getTime() - (Date.now() + 48 * 3_600_000))).toBeLessThan(5 * 60_000);
    // An expiry given with the request wins over the default.
    const named = await (await createRequest({ amount: "7.000", expiration_time: "2099-01-01T10:00:00+03:00" })).json();
    expect(
      (
        await database.db
          .selectFrom("transactions")
          .select("expiration_time")
          .where("id", "=", named.id)
          .executeTakeFirstOrThrow()
      ).expiration_time,
    ).toBe("2099-01-01T07:00:00.000Z");

    const refused = await createRequest(
      {
        amount: "7.000",
        editable_amount: true,
        send_email: true,
        customer_email: "c@example.com",
        send_sms: true,
        customer_phone: "50001234",
        delivery_mode: "address",
      },
      { "Accept-Language": "ar" },
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      editable_amount: ["المبلغ القابل للتعديل متوقف في طلبات الدفع (الإدارة ← الأقسام)."],
      send_email: ["الإرسال إلى العملاء بالبريد الإلكتروني متوقف في طلبات الدفع (الإدارة ← الأقسام)."],
      send_sms: ["الإرسال إلى العملاء بالرسائل النصية متوقف في طلبات الدفع (الإدارة ← الأقسام)."],
      delivery_mode: ["طلب عنوان التوصيل من العميل متوقف في طلبات الدفع (الإدارة ← الأقسام)."],
    });

    // The create page offers none of what is turned off, and says what expiry applies.
    const adminCookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const page = await (await app.request("/en/payment-request/create", { cookie: adminCookie })).text();
    expect(page).not.toContain('name="editable_amount"');
    expect(page).not.toContain('name="send_email"');
    expect(page).not.toContain('name="send_sms"');
    expect(page).not.toContain('name="delivery_mode"');
    expect(page).toContain("Left empty, the link expires after your default of 48 hours.");

    // No receipt by e-mail when customer e-mails are off.
    const paying = await (
      await createRequest({ amount: "8.000", customer_email: "quiet@example.com", pg_codes: ["knet-sandbox"] })
    ).json();
    const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };
    const started = await startAttempt(database.db, {
      plugins: PAYABLE_SECTIONS,
      transactionId: paying.id,
      gatewayCode: "knet-sandbox",
      submissionToken: "quiet",
      lang: "en",
      addresses,
    });
    if (!started.ok) throw new Error(started.error);
    await completeAttempt(database.db, started.attemptId, {
      status: "success",
      amount: 8000,
      refs: { paymentId: "P1", tranId: "T1" },
    });
    expect(
      (
        await database.db
          .selectFrom("transactions")
          .select("state")
          .where("id", "=", paying.id)
          .executeTakeFirstOrThrow()
      ).state,
    ).toBe("paid");
    expect(
      await database.db
        .selectFrom("outgoing_mail")
        .select("id")
        .where("to_address", "=", "quiet@example.com")
        .execute(),
    ).toEqual([]);
    // A paid link is not paid again.
    const again = await (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${paying.id}`)).json();
    expect(again).toMatchObject({ state: "paid", valid_for_payment: false });

    // Turned back on, they are allowed again, and the receipt is sent.
    await patchSettings({
      default_expiry_hours: null,
      editable_amount: true,
      email_notifications: true,
      sms_notifications: true,
      multi_step_checkout: true,
    });
    const allowed = await createRequest({
      amount: "9.000",
      editable_amount: true,
      send_email: true,
      customer_email: "loud@example.com",
      delivery_mode: "address",
    });
    expect(allowed.status).toBe(201);
    expect(
      (
        await database.db
          .selectFrom("transactions")
          .select("expiration_time")
          .where("id", "=", (await allowed.json()).id)
          .executeTakeFirstOrThrow()
      ).expiration_time,
    ).toBeNull();
    expect(
      (
        await database.db
          .selectFrom("outgoing_mail")
          .select("id")
          .where("to_address", "=", "loud@example.com")
          .execute()
      ).length,
    ).toBe(1);
    // Beta's requests never followed Alpha's settings.
    expect(
      (
        await database.db
          .selectFrom("section_settings")
          .select("merchant_id")
          .where("merchant_id", "=", beta.merchantId)
          .execute()
      ).length,
    ).toBe(0);
  });

  it("choose what the QR code of a request holds: its pay link, its transaction id for staff, or none", async () => {
    const { id } = await (await createRequest({ amount: "6.000" })).json();
    const qrOf = async () => {
      const details = await (
        await app.request(`/api/v1/plugins/payment_request/transaction/details/${id}`, { headers: bearer(adminToken) })
      ).json();
      return details.qr_code === null ? null : Buffer.from(details.qr_code.split(",")[1], "base64").toString();
    };
    const adminCookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const detailsPage = async () =>
      (await app.request(`/en/payment-request/transactions/${id}`, { cookie: adminCookie })).text();
    const byLink = await qrOf();
    expect(byLink).toContain("<svg");
    expect(await detailsPage()).toContain("QR code");

    expect((await patchSettings({ qr_code_type: "barcode" })).status).toBe(400);
    expect(await (await patchSettings({ qr_code_type: "transaction_id" })).json()).toMatchObject({
      qr_code_type: "transaction_id",
    });
    const byId = await qrOf();
    // Another content draws another picture; the same content the same one.
    expect(byId).toContain("<svg");
    expect(byId).not.toBe(byLink);
    const QRCode = (await import("qrcode")).default;
    expect(byId).toBe(await QRCode.toString(id, { type: "svg", margin: 1, width: 220, errorCorrectionLevel: "M" }));

    await patchSettings({ qr_code_type: "none" });
    expect(await qrOf()).toBeNull();
    expect(await detailsPage()).not.toContain("QR code");
    // Beta keeps the pay link.
    expect(
      (
        await database.db
          .selectFrom("section_settings")
          .select("merchant_id")
          .where("merchant_id", "=", beta.merchantId)
          .execute()
      ).length,
    ).toBe(0);
    await patchSettings({ qr_code_type: "payment_link" });
    expect(await qrOf()).toBe(byLink);
  });

  it("turn off sending the link again by e-mail or text message on every page and API, not only when creating", async () => {
    const NOT_AVAILABLE = 403;
    const { id } = await (
      await createRequest({ amount: "6.500", customer_email: "again@example.com", customer_phone: "50001234" })
    ).json();
    const actionsOf = async () =>
      (await (
        await app.request(`/api/v1/plugins/payment_request/transaction/actions/${id}/`, { headers: bearer(adminToken) })
      ).json()) as { value: string }[];
    expect((await actionsOf()).map((action) => action.value)).toEqual(
      expect.arrayContaining(["email", "sms", "cancel"]),
    );

    await patchSettings({ email_notifications: false, sms_notifications: false });
    const values = (await actionsOf()).map((action) => action.value);
    expect(values).not.toContain("email");
    expect(values).not.toContain("sms");
    expect(values).toContain("cancel");
    const adminCookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const details = await (await app.request(`/en/payment-request/transactions/${id}`, { cookie: adminCookie })).text();
    expect(details).toContain(`value="cancel:${id}"`);
    expect(details).not.toContain(`value="email:${id}"`);
    expect(details).not.toContain(`value="sms:${id}"`);
    // Posted anyway, from a page or the API, it is refused and nothing is sent.
    const mails = () =>
      database.db.selectFrom("outgoing_mail").select("id").where("to_address", "=", "again@example.com").execute();
    const posted = await app.request("/en/payment-request/transactions", {
      cookie: adminCookie,
      form: { row_command: `email:${id}` },
    });
    expect(posted.status).toBe(NOT_AVAILABLE);
    expect(await posted.text()).toContain("This action is not available for this transaction.");
    const bulk = await app.request("/en/payment-request/transactions", {
      cookie: adminCookie,
      form: { intent: "bulk", bulk_action: "sms", ids: id },
    });
    expect(bulk.status).toBe(400);
    const byApi = await app.request(`/api/v1/plugins/payment_request/transaction/actions/${id}/sms/`, {
      method: "POST",
      json: {},
      headers: bearer(adminToken),
    });
    expect(byApi.status).toBe(NOT_AVAILABLE);
    expect(await byApi.json()).toEqual({ detail: "This action is not available for this transaction." });
    expect(await mails()).toEqual([]);
    expect(
      await database.db.selectFrom("outgoing_sms").select("id").where("to_number", "=", "+96550001234").execute(),
    ).toEqual([]);

    await patchSettings({ email_notifications: true, sms_notifications: true });
    expect(
      (
        await app.request(`/api/v1/plugins/payment_request/transaction/actions/${id}/email/`, {
          method: "POST",
          json: {},
          headers: bearer(adminToken),
        })
      ).status,
    ).toBe(200);
    expect((await mails()).length).toBe(1);
  });

  it("are saved from the page without JavaScript, every field sent, and refused in words when wrong", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const page = await (await app.request("/en/admin/sections/payment_request", { cookie })).text();
    for (const text of [
      "Payment requests: settings",
      "Default expiry (hours)",
      "Restrict multiple payments on one link",
      'name="default_expiry_hours"',
      'name="multi_step_checkout"',
    ])
      expect(page).toContain(text);
    expect(page).not.toContain('name="restrict_multiple_payments"');

    // Unticked boxes are off; the fixed setting is not sent and stays on.
    const saved = await app.request("/en/admin/sections/payment_request", {
      cookie,
      form: { default_expiry_hours: "24", editable_amount: "on", email_notifications: "on" },
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/en/admin/sections/payment_request");
    expect(
      await (
        await app.request("/api/v1/admin/sections/payment_request/settings", { headers: bearer(managerToken) })
      ).json(),
    ).toEqual({
      default_expiry_hours: 24,
      editable_amount: true,
      restrict_multiple_payments: true,
      qr_code_type: "payment_link",
      email_notifications: true,
      sms_notifications: false,
      multi_step_checkout: false,
    });

    const arabicCookie = await app.signIn(manager.username, DEMO_PASSWORD, "ar");
    const refused = await app.request("/ar/admin/sections/payment_request", {
      cookie: arabicCookie,
      form: { default_expiry_hours: "1.5", editable_amount: "on" },
    });
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("أدخل عددًا صحيحًا من الساعات بين 1 و8760");
    expect(text).toContain("إعدادات قسم طلبات الدفع");
    expect(
      (
        await database.db
          .selectFrom("section_settings")
          .select("settings")
          .where("merchant_id", "=", alpha.merchantId)
          .executeTakeFirstOrThrow()
      ).settings,
    ).toContain('"default_expiry_hours":24');

    await app.request("/en/admin/sections/payment_request", {
      cookie,
      form: {
        default_expiry_hours: "",
        editable_amount: "on",
        email_notifications: "on",
        sms_notifications: "on",
        multi_step_checkout: "on",
      },
    });
  });
});
