import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Safe");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await database?.destroy();
});

const bearer = (access: string) => ({ Authorization: `Bearer ${access}` });

/** A user of its own, so each test changes a password nobody else relies on. */
async function freshUser(username: string) {
  const id = await createUser(database.db, shop.merchantId, {
    username,
    email: `${username}@safe.example`,
    firstName: "Test",
    lastName: "User",
    permissions: [],
  });
  return { id, username, email: `${username}@safe.example` };
}

const mailsTo = (email: string) =>
  database.db
    .selectFrom("outgoing_mail")
    .select(["subject", "text_body"])
    .where("to_address", "=", email)
    .orderBy("id")
    .execute();

const passwordHash = async (id: number) =>
  (await database.db.selectFrom("users").select("password_hash").where("id", "=", id).executeTakeFirstOrThrow())
    .password_hash;

describe("changing one's password through the API", () => {
  it("needs the current password, refuses a wrong one in the reader's language and changes nothing", async () => {
    const user = await freshUser("api-wrong");
    const other = await app.apiToken(user.username, DEMO_PASSWORD);
    const current = await app.apiToken(user.username, DEMO_PASSWORD);
    const before = await passwordHash(user.id);

    const missing = await app.request("/api/v1/user/change_password", {
      json: { new_password: "Kuwait#Pay7Z", repeat_password: "Kuwait#Pay7Z" },
      headers: bearer(current.access),
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ old_password: ["This field is required"] });

    const wrong = await app.request("/api/v1/user/change_password", {
      json: { old_password: "Wrong#Guess1", new_password: "Kuwait#Pay7Z", repeat_password: "Kuwait#Pay7Z" },
      headers: { ...bearer(current.access), "Accept-Language": "ar" },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ old_password: ["كلمة المرور الحالية غير صحيحة."] });

    expect(await passwordHash(user.id)).toBe(before);
    expect((await app.request("/api/v1/user/details", { headers: bearer(other.access) })).status).toBe(200);
    expect(await mailsTo(user.email)).toEqual([]);
  });

  it("changes it with the current password, ends the other sessions and mails the user", async () => {
    const user = await freshUser("api-right");
    const other = await app.apiToken(user.username, DEMO_PASSWORD);
    const current = await app.apiToken(user.username, DEMO_PASSWORD);
    const changed = await app.request("/api/v1/user/change_password", {
      json: { old_password: DEMO_PASSWORD, new_password: "Kuwait#Pay7Z", repeat_password: "Kuwait#Pay7Z" },
      headers: bearer(current.access),
    });
    expect(changed.status).toBe(200);
    expect((await app.request("/api/v1/user/details", { headers: bearer(other.access) })).status).toBe(401);
    expect((await app.request("/api/v1/user/token/refresh/", { json: { refresh: other.refresh } })).status).toBe(401);
    expect((await app.request("/api/v1/user/details", { headers: bearer(current.access) })).status).toBe(200);
    const [mail] = await mailsTo(user.email);
    expect(mail.subject).toBe("Your password was changed");
    expect(mail.text_body).toContain(`Hello ${user.username},`);
  });
});

describe("the change-password page", () => {
  it("asks for the current password, in both languages", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    expect(await (await app.request("/en/user/password", { cookie })).text()).toContain("Current password");
    expect(await (await app.request("/ar/user/password", { cookie })).text()).toContain("كلمة المرور الحالية");
  });

  it("shows a wrong current password under its field and changes nothing", async () => {
    const user = await freshUser("page-wrong");
    const cookie = await app.signIn(user.username, DEMO_PASSWORD);
    const before = await passwordHash(user.id);
    const response = await app.request("/ar/user/password", {
      cookie,
      form: { old_password: "Wrong#Guess1", new_password: "Kuwait#Pay7Z", repeat_password: "Kuwait#Pay7Z" },
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(
      /id="[^"]*old_password[^"]*"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="[^"]*old_password/,
    );
    expect(html).toContain("كلمة المرور الحالية غير صحيحة.");
    expect(await passwordHash(user.id)).toBe(before);
    expect((await app.request("/ar/user", { cookie })).status).toBe(200);
  });

  it("changes it with the current password, keeps this browser signed in, signs the others out and mails the user in Arabic", async () => {
    const user = await freshUser("page-right");
    const elsewhere = await app.signIn(user.username, DEMO_PASSWORD);
    const cookie = await app.signIn(user.username, DEMO_PASSWORD);
    const response = await app.request("/ar/user/password", {
      cookie,
      form: { old_password: DEMO_PASSWORD, new_password: "Kuwait#Pay7Z", repeat_password: "Kuwait#Pay7Z" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/ar/user");
    expect((await app.request("/ar/user", { cookie: elsewhere })).status).toBe(302);
    const [mail] = await mailsTo(user.email);
    expect(mail.subject).toBe("تم تغيير كلمة المرور");
    expect(mail.text_body).toContain(`مرحبًا ${user.username}`);
  });
});

describe("a refresh token used twice", () => {
  it("ends the whole session: the thief's and the owner's tokens all stop working", async () => {
    const user = await freshUser("refresh-reuse");
    const first = await app.apiToken(user.username, DEMO_PASSWORD);
    const rotated = await app.request("/api/v1/user/token/refresh/", { json: { refresh: first.refresh } });
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as { access: string; refresh: string };
    expect((await app.request("/api/v1/user/details", { headers: bearer(second.access) })).status).toBe(200);

    const reused = await app.request("/api/v1/user/token/refresh/", { json: { refresh: first.refresh } });
    expect(reused.status).toBe(401);
    expect((await reused.json()).code).toBe("token_not_valid");

    expect((await app.request("/api/v1/user/token/refresh/", { json: { refresh: second.refresh } })).status).toBe(401);
    expect((await app.request("/api/v1/user/details", { headers: bearer(second.access) })).status).toBe(401);
    expect((await app.request("/api/v1/user/details", { headers: bearer(first.access) })).status).toBe(401);
  });

  it("leaves the user's other sessions alone", async () => {
    const user = await freshUser("refresh-other");
    const stolen = await app.apiToken(user.username, DEMO_PASSWORD);
    const elsewhere = await app.apiToken(user.username, DEMO_PASSWORD);
    await app.request("/api/v1/user/token/refresh/", { json: { refresh: stolen.refresh } });
    expect((await app.request("/api/v1/user/token/refresh/", { json: { refresh: stolen.refresh } })).status).toBe(401);
    expect((await app.request("/api/v1/user/details", { headers: bearer(elsewhere.access) })).status).toBe(200);
  });
});

describe("a dashboard form sent something that is not a form", () => {
  const brokenMultipart = () => {
    const body = '--xyz\r\nContent-Disposition: form-data; name="amount"\r\n\r\n12'; // never closed
    return { body, headers: { "Content-Type": "multipart/form-data; boundary=xyz" } };
  };

  it("answers 400 with a translated page to a JSON body", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    for (const path of [
      "/en/user/password",
      "/en/user",
      "/en/help",
      "/en/payment-request/create",
      "/en/payment-request/transactions",
      "/en/notifications",
      "/en/transactions/export",
    ]) {
      const response = await app.request(path, { cookie, json: { new_password: "x" } });
      expect(response.status, path).toBe(400);
    }
    const arabic = await app.request("/ar/help", { cookie, json: { email_message: "x" } });
    expect(arabic.status).toBe(400);
    expect(await arabic.text()).toContain("تعذرت قراءة النموذج المرسل");
  });

  it("answers 400 to a broken multipart body", async () => {
    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    for (const path of ["/en/payment-request/create", "/en/user/password"]) {
      const response = await app.request(path, { cookie, ...brokenMultipart() });
      expect(response.status, path).toBe(400);
      expect(await response.text()).toContain("The form could not be read");
    }
  });

  it("answers 400 on the sign-in pages too", async () => {
    for (const path of ["/en/login", "/en/forget-password", "/en/reset-password"]) {
      expect((await app.request(path, { json: { username: "x" } })).status, path).toBe(400);
    }
  });
});

describe("an amount written with a comma", () => {
  const create = async (body: Record<string, unknown>, lang = "en") => {
    const { access } = await app.apiToken(shop.admin.username, DEMO_PASSWORD);
    return app.request("/api/v1/plugins/payment_request/transaction", {
      json: body,
      headers: { ...bearer(access), "Accept-Language": lang },
    });
  };

  it("is refused when a payment request is made, in the reader's language, and nothing is created", async () => {
    const before = await database.db.selectFrom("transactions").select("id").execute();
    const english = await create({ amount: "1,000", pg_codes: "cod" });
    expect(english.status).toBe(400);
    expect(await english.json()).toEqual({
      amount: ["Write the amount without commas or thousands separators, for example 1000.500"],
    });
    const arabic = await create({ amount: "١٬٠٠٠", pg_codes: "cod" }, "ar");
    expect(arabic.status).toBe(400);
    expect(await arabic.json()).toEqual({ amount: ["اكتب المبلغ دون فواصل ودون فاصل الآلاف، مثلًا 1000.500"] });
    expect(await database.db.selectFrom("transactions").select("id").execute()).toHaveLength(before.length);
  });

  it("is refused when a customer types it on an editable request", async () => {
    const created = await (await create({ amount: "10.000", pg_codes: "cod", editable_amount: true })).json();
    const response = await app.request(`/api/v1/plugins/payment_request/transaction/pay-choices/${created.id}`, {
      json: { amount: "1,000" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      amount: ["Write the amount without commas or thousands separators, for example 1000.500"],
    });
    const page = await app.request(`/ar/pay/${created.id}?amount=${encodeURIComponent("1,000")}`);
    expect(await page.text()).toContain("اكتب المبلغ دون فواصل ودون فاصل الآلاف، مثلًا 1000.500");
  });
});

describe("the public pay API of a request no longer payable", () => {
  it("shows the customer's email, remarks and description while payable, and none of them once paid or canceled", async () => {
    const { access } = await app.apiToken(shop.admin.username, DEMO_PASSWORD);
    const made = await app.request("/api/v1/plugins/payment_request/transaction", {
      json: {
        amount: "3.000",
        pg_codes: "cod",
        customer_email: "private@customer.example",
        remarks: "Flat: 12~Gate code: 4455",
        description: "Private order notes",
      },
      headers: bearer(access),
    });
    const { id } = (await made.json()) as { id: string };
    const read = async () => (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${id}`)).json();

    const payable = await read();
    expect(payable).toMatchObject({
      valid_for_payment: true,
      customer_email: "private@customer.example",
      remarks: "Flat: 12~Gate code: 4455",
    });
    expect(payable.order_description.items).toHaveLength(1);

    for (const state of ["paid", "canceled"] as const) {
      await database.db.updateTable("transactions").set({ state }).where("id", "=", id).execute();
      const closed = await read();
      expect(closed, state).toMatchObject({
        state,
        valid_for_payment: false,
        customer_email: null,
        remarks: null,
        order_description: { items: [] },
      });
      expect(JSON.stringify(closed), state).not.toMatch(/private@customer|Gate code|Private order/);
    }
  });
});

describe("an upload named with bidirectional control characters", () => {
  const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0x25, 0x25, 0x45, 0x4f, 0x46]);
  const controls = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
  ];
  const anyControl = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]|%E2%80%A[A-E]|%E2%81%A[6-9]|%E2%80%8[EF]|%D8%9C/i;

  it("is stored, shown and downloaded without them", async () => {
    const { access } = await app.apiToken(shop.admin.username, DEMO_PASSWORD);
    const form = new FormData();
    // Shown as "invoice-exe.pdf" by a right-to-left override, while it really ends in "fdp.exe".
    form.set("file", new File([pdf], `invoice-\u202Efdp.exe${controls.join("")}.pdf`));
    const uploaded = await app.request("/api/v1/plugins/payment_request/attachment/upload", {
      method: "POST",
      headers: bearer(access),
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { file_url, original_filename } = await uploaded.json();
    expect(original_filename).toBe("invoice-fdp.exe.pdf");
    expect(file_url).not.toMatch(anyControl);

    const created = await (
      await app.request("/api/v1/plugins/payment_request/transaction", {
        json: { amount: "1", pg_codes: "cod", attachment: file_url },
        headers: bearer(access),
      })
    ).json();
    const row = await database.db
      .selectFrom("transactions")
      .select(["attachment_name", "attachment_path"])
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.attachment_name).toBe("invoice-fdp.exe.pdf");
    const download = await app.request(`/en/pay/${created.id}/attachment`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).not.toMatch(anyControl);
  });

  it("is downloaded without them even when stored before they were removed", async () => {
    const { access } = await app.apiToken(shop.admin.username, DEMO_PASSWORD);
    const form = new FormData();
    form.set("file", new File([pdf], "old.pdf"));
    const { file_url } = await (
      await app.request("/api/v1/plugins/payment_request/attachment/upload", {
        method: "POST",
        headers: bearer(access),
        body: form,
      })
    ).json();
    const created = await (
      await app.request("/api/v1/plugins/payment_request/transaction", {
        json: { amount: "1", pg_codes: "cod", attachment: file_url },
        headers: bearer(access),
      })
    ).json();
    // A key kept from before: the same bytes under a name with an override in it.
    const fs = await import("node:fs/promises");
    const path = await import("node:path");
    const oldKey = (file_url as string).replace(/old\.pdf$/, "\u202Efdp.exe.pdf");
    const uploads = process.env.UPLOADS_DIR ?? "./data/uploads";
    await fs.copyFile(path.resolve(uploads, file_url), path.resolve(uploads, oldKey));
    await database.db
      .updateTable("transactions")
      .set({ attachment_path: oldKey, attachment_name: "\u202Efdp.exe.pdf" })
      .where("id", "=", created.id)
      .execute();
    const download = await app.request(`/en/pay/${created.id}/attachment`);
    expect(download.status).toBe(200);
    const disposition = download.headers.get("Content-Disposition") ?? "";
    expect(disposition).not.toMatch(anyControl);
    expect(disposition).toContain("fdp.exe.pdf");
  });
});
