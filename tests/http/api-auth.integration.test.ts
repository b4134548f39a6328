import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await database?.destroy();
});

const bearer = (access: string) => ({ Authorization: `Bearer ${access}` });

async function latestCodeFor(email: string) {
  const mail = await database.db
    .selectFrom("outgoing_mail")
    .select("text_body")
    .where("to_address", "=", email)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(mail.text_body)![1];
}

describe("POST /api/v1/user/token/", () => {
  it("answers access, refresh and sessionid for good credentials", async () => {
    const response = await app.request("/api/v1/user/token/", {
      json: { username: alpha.admin.username, password: DEMO_PASSWORD },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["access", "refresh", "sessionid"]);
  });

  it("answers DRF-style errors for missing fields and wrong credentials", async () => {
    const missing = await app.request("/api/v1/user/token/", { json: { username: "" } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      username: ["This field is required"],
      password: ["This field is required"],
    });
    const wrong = await app.request("/api/v1/user/token/", {
      json: { username: alpha.admin.username, password: "nope" },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ non_field_errors: ["Unable to log in with provided credentials."] });
  });

  it("answers in Arabic when asked", async () => {
    const wrong = await app.request("/api/v1/user/token/", {
      json: { username: "nobody", password: "nope" },
      headers: { "Accept-Language": "ar" },
    });
    expect(await wrong.json()).toEqual({ non_field_errors: ["تعذّر تسجيل الدخول بالبيانات المدخلة."] });
  });

  it("asks for a one-time code with enable_OTP, then verify_otp signs in once", async () => {
    const first = await app.request("/api/v1/user/token/", {
      json: { username: alpha.otp.username, password: DEMO_PASSWORD },
    });
    const body = await first.json();
    expect(body.enable_OTP).toBe(true);
    expect(body.access).toBeUndefined();
    expect(body.message).toBeTruthy();

    const wrong = await app.request("/api/v1/user/verify_otp/", {
      json: { username: alpha.otp.username, code: "000000" },
    });
    const code = await latestCodeFor(alpha.otp.email);
    if (code !== "000000") {
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({ code: ["The code is not correct."] });
    }
    const right = await app.request("/api/v1/user/verify_otp/", { json: { username: alpha.otp.username, code } });
    expect(right.status).toBe(200);
    expect((await right.json()).access).toBeTruthy();
    const replay = await app.request("/api/v1/user/verify_otp/", { json: { username: alpha.otp.username, code } });
    expect(replay.status).toBe(400);
    expect(Object.keys(await replay.json())).toEqual(["non_field_errors"]);
  });
});

describe("bearer tokens", () => {
  it("answers 401 without a token or with a bad one", async () => {
    const none = await app.request("/api/v1/user/details");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ detail: "Authentication credentials were not provided." });
    const bad = await app.request("/api/v1/user/details", { headers: bearer("abc.def.ghi") });
    expect(bad.status).toBe(401);
    expect((await bad.json()).code).toBe("token_not_valid");
  });

  it("reads user details of the signed-in user's merchant only", async () => {
    const { access } = await app.apiToken(alpha.staff.username, DEMO_PASSWORD);
    const response = await app.request("/api/v1/user/details", { headers: bearer(access) });
    expect(response.status).toBe(200);
    const details = await response.json();
    expect(details).toMatchObject({
      id: alpha.staff.id,
      username: alpha.staff.username,
      is_superuser: false,
      user_permissions: ["search_paymenttransaction", "view_paymenttransaction"],
      receive_order_notification: false,
      merchant_title: "Alpha Store",
    });
    expect(details.sections.payment_request).toContain("create");
  });

  it("rotates the refresh token and ends both tokens at logout", async () => {
    const tokens = await app.apiToken(alpha.admin.username, DEMO_PASSWORD);
    const refreshed = await app.request("/api/v1/user/token/refresh/", { json: { refresh: tokens.refresh } });
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json();
    expect(next.refresh).not.toBe(tokens.refresh);
    // A second use of the old refresh token would end the session (tests/http/account-safety).
    expect((await app.request("/api/v1/user/logout/", { method: "POST", headers: bearer(next.access) })).status).toBe(
      200,
    );
    expect((await app.request("/api/v1/user/details", { headers: bearer(next.access) })).status).toBe(401);
    expect((await app.request("/api/v1/user/token/refresh/", { json: { refresh: next.refresh } })).status).toBe(401);
  });

  it("ends every other session when the password changes", async () => {
    const other = await app.apiToken(beta.admin.username, DEMO_PASSWORD);
    const current = await app.apiToken(beta.admin.username, DEMO_PASSWORD);
    const weak = await app.request("/api/v1/user/change_password", {
      json: { old_password: DEMO_PASSWORD, new_password: "12345", repeat_password: "12345" },
      headers: bearer(current.access),
    });
    expect(weak.status).toBe(400);
    expect((await weak.json()).new_password).toContain(
      "This password is too short. It must contain at least 8 characters.",
    );

    const changed = await app.request("/api/v1/user/change_password", {
      json: { old_password: DEMO_PASSWORD, new_password: "Kuwait#Pay7Z", repeat_password: "Kuwait#Pay7Z" },
      headers: bearer(current.access),
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).message).toBe("Password changed successfully");
    expect((await app.request("/api/v1/user/details", { headers: bearer(other.access) })).status).toBe(401);
    expect((await app.request("/api/v1/user/details", { headers: bearer(current.access) })).status).toBe(200);
    await app.apiToken(beta.admin.username, "Kuwait#Pay7Z");
  });

  it("lets a user change only their own notification setting", async () => {
    const { access } = await app.apiToken(alpha.staff.username, DEMO_PASSWORD);
    const own = await app.request(`/api/v1/user/update-user/${alpha.staff.id}`, {
      method: "PATCH",
      json: { receive_order_notification: true },
      headers: bearer(access),
    });
    expect(own.status).toBe(200);
    const foreign = await app.request(`/api/v1/user/update-user/${beta.staff.id}`, {
      method: "PATCH",
      json: { receive_order_notification: true },
      headers: bearer(access),
    });
    expect(foreign.status).toBe(404);
    const betaStaff = await database.db
      .selectFrom("users")
      .select("receive_order_notification")
      .where("id", "=", beta.staff.id)
      .executeTakeFirstOrThrow();
    expect(betaStaff.receive_order_notification).toBe(0);
  });
});

describe("merchant isolation", () => {
  it("never shows one merchant's rows to another merchant's user", async () => {
    const betaCookie = await app
      .signIn(beta.admin.username, DEMO_PASSWORD)
      .catch(() => app.signIn(beta.admin.username, "Kuwait#Pay7Z"));
    await app.request("/en/help", {
      cookie: betaCookie,
      form: { email: "owner@beta.example", subject: "support_request", email_message: "Beta secret" },
    });
    const betaMail = await database.db
      .selectFrom("outgoing_mail")
      .select(["id", "subject"])
      .where("merchant_id", "=", beta.merchantId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();

    const alphaCookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const direct = await app.request(`/en/mailbox/${betaMail.id}`, { cookie: alphaCookie });
    expect(direct.status).toBe(404);
    const list = await (await app.request("/en/mailbox", { cookie: alphaCookie })).text();
    expect(list).not.toContain(betaMail.subject);
    const betaList = await (await app.request("/en/mailbox", { cookie: betaCookie })).text();
    expect(betaList).toContain("Beta Store");
  });
});

describe("help", () => {
  it("describes the subjects with OPTIONS and sends the message with POST", async () => {
    const { access } = await app.apiToken(alpha.staff.username, DEMO_PASSWORD);
    const options = await app.request("/api/v1/dashboard/help", { method: "OPTIONS", headers: bearer(access) });
    const described = await options.json();
    expect(
      described.actions.POST.subject.choices.map((choice: { display_name: string }) => choice.display_name),
    ).toEqual(["Support request", "Suggestion", "Feedback"]);
    const invalid = await app.request("/api/v1/dashboard/help", { json: { email: "nope" }, headers: bearer(access) });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ email: ["Enter valid email address"], subject: ["This field is required"] });
    const sent = await app.request("/api/v1/dashboard/help", {
      json: { email: "staff@alpha.example", subject: "suggestion", email_message: "More reports" },
      headers: bearer(access),
    });
    expect(sent.status).toBe(201);
  });
});
