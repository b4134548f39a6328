import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { labelledCheckoutValues } from "~/domain/payments/checkout-fields.server";

// A merchant adds fields customers fill in before paying (Administration → Sections → Payment
// requests → Checkout fields); the pay page and the public pay API ask for them, check them on the
// server and keep them on the transaction before an attempt starts.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let manager: { id: number; username: string };
let managerToken: string;
let adminToken: string;
let betaToken: string;

const VALID_CIVIL_ID = "289010112348";
const PAGE = "/en/admin/sections/payment_request/checkout-fields";
const API = "/api/v1/admin/sections/payment_request/checkout-fields";

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
  managerToken = (await app.apiToken(manager.username, DEMO_PASSWORD)).access;
  adminToken = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
  betaToken = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

const bearer = (access: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${access}`,
  ...extra,
});
const listFields = async (token = managerToken) =>
  (await (await app.request(API, { headers: bearer(token) })).json()) as {
    id: number;
    name: string;
    position: number;
    is_active: boolean;
  }[];
const idOf = async (name: string) => (await listFields()).find((field) => field.name === name)!.id;

async function createRequest() {
  const response = await app.request("/api/v1/plugins/payment_request/transaction", {
    json: { amount: "12.500", pg_codes: ["knet-sandbox", "cod"] },
    headers: bearer(adminToken),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The <input> a checkout field renders as, by the field's name. */
function inputOf(html: string, name: string) {
  return new RegExp(`<input[^>]*name="extra\\.${name}"[^>]*>`).exec(html)?.[0] ?? null;
}

const attemptsOf = (id: string) =>
  database.db.selectFrom("payment_attempts").select("id").where("transaction_id", "=", id).execute();
const extraOf = async (id: string) =>
  JSON.parse(
    (await database.db.selectFrom("transactions").select("extra").where("id", "=", id).executeTakeFirstOrThrow()).extra,
  );

describe("the administration of checkout fields", () => {
  it("adds fields from the page without JavaScript, refusing what is wrong in words, and from the API", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const settings = await (await app.request("/en/admin/sections/payment_request", { cookie })).text();
    expect(settings).toContain(`href="${PAGE}"`);
    const empty = await (await app.request(PAGE, { cookie })).text();
    expect(empty).toContain("Payment requests: checkout fields");
    expect(empty).toContain("No checkout fields yet");

    const created = await app.request(PAGE, {
      cookie,
      form: {
        intent: "create",
        name: "civil_id",
        label_en: "Civil ID",
        label_ar: "الرقم المدني",
        placeholder_en: "12 digits",
        placeholder_ar: "١٢ رقمًا",
        validator: "civil_id",
        required: "on",
        max_length: "",
      },
    });
    expect(created.status).toBe(303);
    expect(created.headers.get("Location")).toBe(PAGE);

    const refused = await app.request(PAGE, {
      cookie,
      form: { intent: "create", name: "Civil ID", label_en: "", label_ar: "x", validator: "civil_id", max_length: "8" },
    });
    expect(refused.status).toBe(400);
    const refusedText = await refused.text();
    expect(refusedText).toContain("Use 1 to 40 lowercase letters, digits or _, starting with a letter.");
    expect(refusedText).toContain("Enter a label of 1 to 100 characters.");
    expect(refusedText).toContain("a civil ID needs 12 characters");
    const taken = await app.request(PAGE, {
      cookie,
      form: { intent: "create", name: "civil_id", label_en: "Again", label_ar: "مرة أخرى", validator: "text" },
    });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain("This section already has a field with this name.");
    expect((await app.request(PAGE, { cookie, form: { intent: "whatever" } })).status).toBe(400);

    const byApi = await app.request(API, {
      json: {
        name: "student_number",
        label_en: "Student number",
        label_ar: "الرقم الجامعي",
        validator: "digits",
        max_length: 10,
      },
      headers: bearer(managerToken),
    });
    expect(byApi.status).toBe(201);
    expect(await byApi.json()).toMatchObject({
      section: "payment_request",
      name: "student_number",
      label_en: "Student number",
      label_ar: "الرقم الجامعي",
      placeholder_en: null,
      placeholder_ar: null,
      validator: "digits",
      required: false,
      max_length: 10,
      position: 2,
      is_active: true,
    });
    const apiRefused = await app.request(API, {
      json: { name: "x-y", label_en: "X", label_ar: "س", validator: "passport", colour: "red" },
      headers: bearer(managerToken, { "Accept-Language": "ar" }),
    });
    expect(apiRefused.status).toBe(400);
    expect(await apiRefused.json()).toEqual({
      colour: ["لا يمكن تغيير هذا الحقل."],
      name: ["استخدم من 1 إلى 40 حرفًا إنجليزيًا صغيرًا أو رقمًا أو _، يبدأ بحرف."],
      validator: ["اختر قيمة صحيحة."],
    });
    // Names the transaction's own details use, or every object has, are refused.
    for (const name of ["amount", "constructor", "customer_note", "delivery_area"]) {
      const reserved = await app.request(API, {
        json: { name, label_en: "X", label_ar: "س" },
        headers: bearer(managerToken),
      });
      expect(reserved.status).toBe(400);
      expect((await reserved.json()).name[0]).toContain("Choose another");
    }
    expect(
      (
        await app.request(API, {
          json: { name: "nickname", label_en: "Nickname", label_ar: "اللقب" },
          headers: bearer(managerToken),
        })
      ).status,
    ).toBe(201);

    const fields = await listFields();
    expect(fields.map((field) => [field.name, field.position])).toEqual([
      ["civil_id", 1],
      ["student_number", 2],
      ["nickname", 3],
    ]);
    expect(fields[0]).toMatchObject({
      label_en: "Civil ID",
      placeholder_ar: "١٢ رقمًا",
      validator: "civil_id",
      required: true,
      max_length: 12,
    });
    const page = await (await app.request(PAGE, { cookie })).text();
    for (const text of ["1. Civil ID", "2. Student number", "Kuwaiti civil ID", "Digits only", "Move Civil ID down"])
      expect(page).toContain(text);
  });

  it("reorders, edits and turns fields off and on, from the page and the API, each change audited", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const student = await idOf("student_number");
    const nickname = await idOf("nickname");
    expect((await app.request(PAGE, { cookie, form: { intent: "up", id: String(student) } })).status).toBe(303);
    expect((await listFields()).map((field) => field.name)).toEqual(["student_number", "civil_id", "nickname"]);
    // The first cannot go further up.
    expect((await app.request(PAGE, { cookie, form: { intent: "up", id: String(student) } })).status).toBe(303);
    const moved = await app.request(`${API}/${student}`, {
      method: "PATCH",
      json: { position: 2 },
      headers: bearer(managerToken),
    });
    expect(await moved.json()).toMatchObject({ name: "student_number", position: 2 });
    expect((await listFields()).map((field) => [field.name, field.position])).toEqual([
      ["civil_id", 1],
      ["student_number", 2],
      ["nickname", 3],
    ]);

    const edited = await app.request(PAGE, {
      cookie,
      form: {
        intent: "update",
        id: String(student),
        label_en: "Student no.",
        label_ar: "الرقم الجامعي",
        placeholder_en: "",
        placeholder_ar: "",
        validator: "digits",
        max_length: "10",
      },
    });
    expect(edited.status).toBe(303);
    const editRefused = await app.request(PAGE, {
      cookie,
      form: {
        intent: "update",
        id: String(student),
        label_en: "",
        label_ar: "الرقم الجامعي",
        validator: "digits",
        max_length: "999",
      },
    });
    expect(editRefused.status).toBe(400);
    expect(await editRefused.text()).toContain("Enter a whole number from 1 to 256.");
    const renamed = await app.request(`${API}/${student}`, {
      method: "PATCH",
      json: { name: "student_id", label_en: "Student number" },
      headers: bearer(managerToken),
    });
    expect(renamed.status).toBe(400);
    expect(await renamed.json()).toEqual({ name: ["The name cannot be changed: it names the values already stored."] });
    expect(
      await (
        await app.request(`${API}/${student}`, {
          method: "PATCH",
          json: { label_en: "Student number" },
          headers: bearer(managerToken),
        })
      ).json(),
    ).toMatchObject({ label_en: "Student number" });

    expect((await app.request(PAGE, { cookie, form: { intent: "deactivate", id: String(nickname) } })).status).toBe(
      303,
    );
    expect((await listFields()).find((field) => field.id === nickname)).toMatchObject({
      is_active: false,
      position: 3,
    });
    expect(await (await app.request(PAGE, { cookie })).text()).toContain("Turned off");
    expect(
      await (
        await app.request(`${API}/${nickname}`, {
          method: "PATCH",
          json: { is_active: true },
          headers: bearer(managerToken),
        })
      ).json(),
    ).toMatchObject({ is_active: true });
    expect(
      await (
        await app.request(`${API}/${nickname}`, {
          method: "PATCH",
          json: { is_active: false },
          headers: bearer(managerToken),
        })
      ).json(),
    ).toMatchObject({ is_active: false });

    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "description"])
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "like", "checkout_field_%")
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.description)).toEqual([
      "Added the checkout field Civil ID to Payment requests",
      "Added the checkout field Student number to Payment requests",
      "Added the checkout field Nickname to Payment requests",
      "Moved the checkout field Student number of Payment requests to position 1",
      "Moved the checkout field Student number of Payment requests to position 2",
      "Changed the checkout field Student no. of Payment requests: Label (English)",
      "Changed the checkout field Student number of Payment requests: Label (English)",
      "Turned off the checkout field Nickname of Payment requests (values already given are kept)",
      "Turned on the checkout field Nickname of Payment requests",
      "Turned off the checkout field Nickname of Payment requests (values already given are kept)",
    ]);
    const arabicAudit = await (
      await app.request("/ar/admin/audit", { cookie: await app.signIn(alpha.admin.username, DEMO_PASSWORD, "ar") })
    ).text();
    expect(arabicAudit).toContain("أوقف حقل الدفع اللقب في طلبات الدفع");
  });

  it("keeps each merchant's fields its own: another merchant's answer 404 and stay untouched", async () => {
    const student = await idOf("student_number");
    expect(await listFields(betaToken)).toEqual([]);
    expect((await app.request(`${API}/${student}`, { headers: bearer(betaToken) })).status).toBe(404);
    expect(
      (
        await app.request(`${API}/${student}`, {
          method: "PATCH",
          json: { label_en: "Mine" },
          headers: bearer(betaToken),
        })
      ).status,
    ).toBe(404);
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    for (const intent of ["up", "deactivate"])
      expect((await app.request(PAGE, { cookie: betaCookie, form: { intent, id: String(student) } })).status).toBe(404);
    expect(
      (
        await app.request(PAGE, {
          cookie: betaCookie,
          form: { intent: "update", id: String(student), label_en: "Mine", label_ar: "لي", validator: "text" },
        })
      ).status,
    ).toBe(404);
    expect((await listFields()).find((field) => field.id === student)).toMatchObject({
      label_en: "Student number",
      position: 2,
      is_active: true,
    });
    expect(
      await database.db
        .selectFrom("audit_log")
        .select("id")
        .where("merchant_id", "=", beta.merchantId)
        .where("action", "like", "checkout_field_%")
        .execute(),
    ).toEqual([]);
  });

  it("answers 404 for a section whose declaration does not offer checkout fields, and 403 without manage_merchant", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    for (const key of ["ticket", "express_search", "bulk", "nope"]) {
      expect((await app.request(`/en/admin/sections/${key}/checkout-fields`, { cookie })).status, key).toBe(404);
      expect(
        (await app.request(`/api/v1/admin/sections/${key}/checkout-fields`, { headers: bearer(managerToken) })).status,
        key,
      ).toBe(404);
      expect(
        (
          await app.request(`/api/v1/admin/sections/${key}/checkout-fields`, {
            json: { name: "x", label_en: "X", label_ar: "س" },
            headers: bearer(managerToken),
          })
        ).status,
        key,
      ).toBe(404);
      expect(
        (await app.request(`/api/v1/admin/sections/${key}/checkout-fields/1`, { headers: bearer(managerToken) }))
          .status,
        key,
      ).toBe(404);
    }
    const staffCookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request(PAGE, { cookie: staffCookie })).status).toBe(403);
    const staff = bearer((await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access);
    expect((await app.request(API, { headers: staff })).status).toBe(403);
    expect(
      (
        await app.request(`${API}/${await idOf("civil_id")}`, {
          method: "PATCH",
          json: { label_en: "x" },
          headers: staff,
        })
      ).status,
    ).toBe(403);
  });
});

describe("the pay page", () => {
  it("asks the active fields in order, inside the pay form before its buttons, in English and in Arabic", async () => {
    const id = await createRequest();
    const html = await (await app.requestPayPage(`/en/pay/${id}`)).text();
    const civil = inputOf(html, "civil_id")!;
    expect(civil).toContain('required=""');
    expect(civil).toContain('inputMode="numeric"');
    // A civil ID is counted without the spaces people type: the browser does not cut it, the server checks it.
    expect(civil).not.toContain("maxLength");
    expect(civil).toContain('placeholder="12 digits"');
    const student = inputOf(html, "student_number")!;
    expect(student).not.toContain("required");
    expect(student).not.toContain("maxLength");
    expect(html).toContain("Student number (optional)");
    expect(inputOf(html, "nickname")).toBeNull();
    const form = /<form[^>]*data-pay-form[\s\S]*?<\/form>/.exec(html)![0];
    expect(form.indexOf('name="extra.civil_id"')).toBeGreaterThan(-1);
    expect(form.indexOf('name="extra.civil_id"')).toBeLessThan(form.indexOf('name="extra.student_number"'));
    expect(form.indexOf('name="extra.student_number"')).toBeLessThan(form.indexOf('name="pay_with"'));
    // The router renders the same page as the direct handler.
    const routed = await (await app.request(`/en/pay/${id}`)).text();
    expect(inputOf(routed, "civil_id")).toBe(civil);

    const arabic = await (await app.requestPayPage(`/ar/pay/${id}`)).text();
    expect(arabic).toContain("الرقم المدني");
    expect(arabic).toContain("الرقم الجامعي (اختياري)");
    expect(inputOf(arabic, "civil_id")).toContain('placeholder="١٢ رقمًا"');
    // Still no script but the small enhancer.
    expect([...html.matchAll(/<script\b/g)].length).toBe(1);
  });

  it("refuses a missing required field or an invalid civil ID with the error under the field, the values kept, and no attempt", async () => {
    const id = await createRequest();
    const post = (fields: Record<string, string>, lang = "en") =>
      app.request(`/${lang}/pay/${id}`, {
        method: "POST",
        form: { submission_token: `t-${Math.random()}`, gateway_code: "cod", pay_with: "cod", ...fields },
      });

    const missing = await post({ "extra.civil_id": "", "extra.student_number": "2024001" });
    expect(missing.status).toBe(400);
    const missingText = await missing.text();
    expect(missingText).toContain("Please correct the details marked below.");
    expect(missingText).toContain('<p class="c-field__error" id="checkout-civil_id-error">This field is required</p>');
    expect(inputOf(missingText, "student_number")).toContain('value="2024001"');

    const invalid = await post({ "extra.civil_id": "289010112349", "extra.student_number": "20x" });
    expect(invalid.status).toBe(400);
    const invalidText = await invalid.text();
    expect(invalidText).toContain("Enter a valid civil ID of 12 digits.");
    expect(invalidText).toContain("Enter digits only.");
    expect(inputOf(invalidText, "civil_id")).toContain('value="289010112349"');
    expect(inputOf(invalidText, "civil_id")).toContain('aria-invalid="true"');

    const arabic = await post({ "extra.civil_id": "12" }, "ar");
    expect(arabic.status).toBe(400);
    expect(await arabic.text()).toContain("أدخل رقمًا مدنيًا صحيحًا من 12 رقمًا.");

    expect(await attemptsOf(id)).toEqual([]);
    expect(await extraOf(id)).toEqual({});
  });

  it("stores valid values on the transaction before the attempt; the details page and the API show them", async () => {
    const id = await createRequest();
    const paid = await app.request(`/en/pay/${id}`, {
      method: "POST",
      form: {
        submission_token: "valid",
        gateway_code: "cod",
        pay_with: "cod",
        "extra.civil_id": "٢٨٩٠ ١٠١١ ٢٣٤٨",
        "extra.student_number": "2024001",
        "extra.nickname": "Fa",
      },
    });
    expect(paid.status).toBe(303);
    expect((await attemptsOf(id)).length).toBe(1);
    // Typed on an Arabic keyboard, kept in ASCII digits; a field turned off after the page was shown is not held against the customer, nor stored.
    expect(await extraOf(id)).toEqual({ civil_id: VALID_CIVIL_ID, student_number: "2024001" });

    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const details = await (await app.request(`/en/payment-request/transactions/${id}`, { cookie })).text();
    // Under their labels in the reader's language, never under their names.
    expect(details).toMatch(new RegExp(`Civil ID</th><td[^>]*>${VALID_CIVIL_ID}<`));
    expect(details).toMatch(/Student number<\/th><td[^>]*>2024001</);
    expect(details).not.toContain(">civil_id<");
    const arabicDetails = await (
      await app.request(`/ar/payment-request/transactions/${id}`, {
        cookie: await app.signIn(alpha.admin.username, DEMO_PASSWORD, "ar"),
      })
    ).text();
    expect(arabicDetails).toMatch(new RegExp(`الرقم المدني</th><td[^>]*>${VALID_CIVIL_ID}<`));
    const api = await (
      await app.request(`/api/v1/plugins/payment_request/transaction/details/${id}`, {
        headers: bearer(adminToken, { "Accept-Language": "ar" }),
      })
    ).json();
    expect(api.extra).toEqual({ civil_id: VALID_CIVIL_ID, student_number: "2024001" });
    expect(api.details).toEqual(
      expect.arrayContaining([
        { name: "civil_id", label: "الرقم المدني", value: VALID_CIVIL_ID },
        { name: "student_number", label: "الرقم الجامعي", value: "2024001" },
      ]),
    );

    // Each value with its field's label in both languages, a field turned off since included.
    await app.request(`${API}/${await idOf("student_number")}`, {
      method: "PATCH",
      json: { is_active: false },
      headers: bearer(managerToken),
    });
    try {
      const row = await database.db
        .selectFrom("transactions")
        .select(["merchant_id", "plugin", "extra"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(await labelledCheckoutValues(database.db, row)).toEqual([
        { name: "civil_id", label: { en: "Civil ID", ar: "الرقم المدني" }, value: VALID_CIVIL_ID },
        { name: "student_number", label: { en: "Student number", ar: "الرقم الجامعي" }, value: "2024001" },
      ]);
    } finally {
      await app.request(`${API}/${await idOf("student_number")}`, {
        method: "PATCH",
        json: { is_active: true },
        headers: bearer(managerToken),
      });
    }
  });
});

describe("the public pay API", () => {
  const payUrl = (id: string) => `/api/v1/plugins/payment_request/transaction/pay/${id}`;

  it("lists the checkout fields in the asked language", async () => {
    const id = await createRequest();
    const english = await (await app.request(payUrl(id))).json();
    expect(english.checkout_fields).toEqual([
      {
        name: "civil_id",
        label: "Civil ID",
        placeholder: "12 digits",
        validator: "civil_id",
        required: true,
        max_length: 12,
      },
      {
        name: "student_number",
        label: "Student number",
        placeholder: null,
        validator: "digits",
        required: false,
        max_length: 10,
      },
    ]);
    const arabic = await (await app.request(payUrl(id), { headers: { "Accept-Language": "ar" } })).json();
    expect(arabic.checkout_fields.map((field: { label: string }) => field.label)).toEqual([
      "الرقم المدني",
      "الرقم الجامعي",
    ]);
  });

  it("checks `extra` as the page does, answering field by field under `extra`, and stores valid values before the attempt", async () => {
    const id = await createRequest();
    const pay = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      app.request(payUrl(id), { json: { gateway_code: "cod", ...body }, headers });

    const missing = await pay({});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ extra: { civil_id: ["This field is required"] } });
    const wrong = await pay(
      { extra: { civil_id: "289010112349", student_number: 7.5, colour: "red" } },
      { "Accept-Language": "ar" },
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      extra: {
        colour: ["هذا الحقل غير مطلوب في هذه الدفعة."],
        civil_id: ["أدخل رقمًا مدنيًا صحيحًا من 12 رقمًا."],
        student_number: ["أدخل أرقامًا فقط."],
      },
    });
    expect((await pay({ extra: "289010112348" })).status).toBe(400);
    // Valid answers with a payment refused for another reason are not kept: they stand with a payment or not at all.
    const noMethod = await pay({ gateway_code: "no-such-method", extra: { civil_id: VALID_CIVIL_ID } });
    expect(noMethod.status).toBe(400);
    expect(await extraOf(id)).toEqual({});
    // Names every object has are names like any other: unknown.
    const prototype = await app.request(payUrl(id), {
      method: "POST",
      body: '{"gateway_code":"cod","extra":{"__proto__":{"x":1},"constructor":"y"}}',
      headers: { "Content-Type": "application/json" },
    });
    expect(prototype.status).toBe(400);
    expect(Object.keys((await prototype.json()).extra).sort()).toEqual(["__proto__", "civil_id", "constructor"]);
    expect(await attemptsOf(id)).toEqual([]);

    const paid = await pay({ extra: { civil_id: VALID_CIVIL_ID } });
    expect(paid.status).toBe(200);
    expect((await attemptsOf(id)).length).toBe(1);
    expect(await extraOf(id)).toEqual({ civil_id: VALID_CIVIL_ID });
    // Paid, the link keeps what it was paid with.
    expect((await pay({ extra: { civil_id: "300010100018" } })).status).toBe(400);
    expect(await extraOf(id)).toEqual({ civil_id: VALID_CIVIL_ID });
  });
});
