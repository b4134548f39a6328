import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatAmount } from "~/lib/money";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let manager: { id: number; username: string };

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
});

afterAll(async () => {
  await database?.destroy();
});

const bearer = (access: string) => ({ Authorization: `Bearer ${access}` });
/** 12.500 KWD as messages write it in `lang`. */
const amount = (lang: "en" | "ar") => formatAmount(12_500, "KWD", lang);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const PAY_LINK_AR = "/ar/admin/notifications/pay_link/mail/ar";
const API_PAY_LINK_AR = "/api/v1/admin/notification-templates/pay_link/mail/ar";

/** A payment request sent to the customer by e-mail (and text message), created through the API in `lang`. */
async function sendPaymentRequest(
  access: string,
  lang: "en" | "ar",
  email: string,
  extra: Record<string, unknown> = {},
) {
  const response = await app.request("/api/v1/plugins/payment_request/transaction", {
    headers: { ...bearer(access), "Accept-Language": lang },
    json: {
      amount: "12.500",
      currency_code: "KWD",
      pg_codes: ["knet-sandbox"],
      customer_email: email,
      send_email: true,
      ...extra,
    },
  });
  expect(response.status).toBe(201);
  return database.db
    .selectFrom("outgoing_mail")
    .select(["subject", "text_body", "html_body", "merchant_id"])
    .where("to_address", "=", email)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

const auditEntries = () =>
  database.db
    .selectFrom("audit_log")
    .select(["action", "actor_name", "description", "params"])
    .where("merchant_id", "=", alpha.merchantId)
    .where("action", "like", "notification_template_%")
    .orderBy("id")
    .execute();

describe("an edited Arabic pay-link mail", () => {
  it("is saved from the page without JavaScript and is what the customer receives, placeholders filled and the merchant's markup as text", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD, "ar");
    const list = await app.request("/ar/admin/notifications", { cookie });
    expect(list.status).toBe(200);
    const listed = await list.text();
    expect(listed).toContain("طلب الدفع");
    expect(listed).toContain(PAY_LINK_AR);
    expect(listed).not.toContain("help_request");

    const saved = await app.request(PAY_LINK_AR, {
      cookie,
      form: {
        intent: "save",
        subject: "فاتورة من {{merchant}} بقيمة {{amount}} <script>alert(1)</script>",
        heading: "طلب دفع جديد",
        intro: "أهلًا بك،\n\nيسعد {{ merchant }} خدمتك. <script>alert(2)</script>",
        action: "ادفع الآن من فضلك",
        outro: "",
      },
    });
    expect(saved.status).toBe(302);

    const token = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
    const mail = await sendPaymentRequest(token, "ar", "customer-ar@example.com");
    expect(mail.subject).toBe(`فاتورة من متجر Alpha بقيمة ${amount("ar")} <script>alert(1)</script>`);
    expect(mail.text_body).toContain("يسعد متجر Alpha خدمتك. <script>alert(2)</script>");
    expect(mail.text_body).toContain("ادفع الآن من فضلك:\nhttp");
    // The default outro stays where the merchant left it blank.
    expect(mail.text_body).toContain("إذا لم تكن تتوقع هذا الطلب، يمكنك تجاهل هذه الرسالة.");
    expect(mail.html_body).not.toContain("<script");
    expect(mail.html_body).toContain("&#60;script&#62;alert(2)&#60;/script&#62;");
    expect(mail.html_body).toContain('dir="rtl"');

    // The English mail of the same merchant and the other merchant's Arabic mail keep the default words.
    expect((await sendPaymentRequest(token, "en", "customer-en@example.com")).subject).toBe(
      `Alpha Store asks you to pay ${amount("en")}`,
    );
    const betaToken = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
    const betaMail = await sendPaymentRequest(betaToken, "ar", "customer-beta@example.com");
    expect(betaMail.subject).toBe(`يطلب منك متجر Beta دفع ${amount("ar")}`);
    expect(betaMail.text_body).not.toContain("يسعد");

    const page = await (await app.request("/ar/admin/notifications", { cookie })).text();
    expect(page).toContain("مخصّص");
    const audit = await auditEntries();
    expect(audit.map((entry) => [entry.action, entry.actor_name])).toEqual([
      ["notification_template_changed", "alpha-manager"],
    ]);
    expect(audit[0].description).toBe("Changed the e-mail “Payment request” in Arabic");
    expect(JSON.stringify(audit[0])).not.toContain("يسعد");
  });

  it("takes the merchant's intro for a customer without a name, leaving the name out", async () => {
    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const put = await app.request("/api/v1/admin/notification-templates/receipt/mail/en", {
      method: "PUT",
      headers,
      json: { intro: "Dear {{name}}, thank you for shopping at {{merchant}}." },
    });
    expect(put.status).toBe(200);
    const preview = await (
      await app.request("/api/v1/admin/notification-templates/receipt/mail/en/preview", { method: "POST", headers })
    ).json();
    expect(preview.text).toContain("Dear Fatima Al-Sabah, thank you for shopping at Alpha Store.");
    const { composeMail } = await import("~/domain/messaging/mail-templates.server");
    const anonymous = await composeMail(database.db, {
      merchantId: alpha.merchantId,
      template: "receipt",
      params: { orderNo: "7", name: null },
      lang: "en",
    });
    expect(anonymous.intro).toEqual(["Dear, thank you for shopping at Alpha Store."]);
    expect(
      (await app.request("/api/v1/admin/notification-templates/receipt/mail/en", { method: "DELETE", headers })).status,
    ).toBe(204);
  });
});

describe("refusals", () => {
  it("refuses an unknown placeholder in the caller's language, on the page and through the API, and saves nothing", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD, "ar");
    const page = await app.request("/ar/admin/notifications/refund/mail/ar", {
      cookie,
      form: { intent: "save", subject: "استرداد {{total}}", heading: "", intro: "", outro: "" },
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("{{total}} ليس من متغيرات هذه الرسالة.");

    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const arabic = await app.request("/api/v1/admin/notification-templates/refund/mail/ar", {
      method: "PUT",
      headers: { ...headers, "Accept-Language": "ar" },
      json: { subject: "استرداد {{total}}", html: "<b>x</b>" },
    });
    expect(arabic.status).toBe(400);
    expect(await arabic.json()).toEqual({
      subject: ["{{total}} ليس من متغيرات هذه الرسالة. استخدم المتغيرات المذكورة فقط."],
      html: ["لا يمكن تغيير هذا الحقل."],
    });
    const english = await app.request("/api/v1/admin/notification-templates/refund/mail/ar", {
      method: "PUT",
      headers,
      json: { subject: "Refund {{total}}" },
    });
    expect(await english.json()).toEqual({
      subject: ["{{total}} is not a placeholder of this message. Use only those listed."],
    });
    expect(
      await database.db
        .selectFrom("notification_templates")
        .select("template")
        .where("template", "=", "refund")
        .execute(),
    ).toEqual([]);
  });

  it("keeps what a reader cannot do without, a text message at most 480 characters, and a subject on one line", async () => {
    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const noLink = await app.request("/api/v1/admin/notification-templates/pay_link/sms/en", {
      method: "PUT",
      headers,
      json: { body: "Please pay {{amount}} to {{merchant}}." },
    });
    expect(await noLink.json()).toEqual({ body: ["Keep the placeholder {{link}}: the reader cannot do without it."] });
    const tooLong = await app.request("/api/v1/admin/notification-templates/pay_link/sms/en", {
      method: "PUT",
      headers,
      json: { body: `${"x".repeat(480)} {{link}}` },
    });
    expect(await tooLong.json()).toEqual({ body: ["Use at most 480 characters."] });
    // The mails that guard users' accounts are a superuser's to word.
    const byManager = await app.request("/api/v1/admin/notification-templates/login_code/mail/en", {
      method: "PUT",
      headers,
      json: { subject: "Your code" },
    });
    expect(byManager.status).toBe(403);
    const superuser = bearer((await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access);
    const noCode = await app.request("/api/v1/admin/notification-templates/login_code/mail/en", {
      method: "PUT",
      headers: superuser,
      json: { intro: "Hello {{username}}, here is your code." },
    });
    expect(noCode.status).toBe(400);
    const twoLines = await app.request("/api/v1/admin/notification-templates/login_code/mail/en", {
      method: "PUT",
      headers: superuser,
      json: { subject: "Your code\nBcc: someone@example.com" },
    });
    expect(await twoLines.json()).toEqual({ subject: ["Write this on one line."] });
    expect((await app.request("/api/v1/admin/notification-templates/help_request/mail/en", { headers })).status).toBe(
      404,
    );
  });

  it("answers 403 without manage_merchant, on the pages and the API", async () => {
    const cookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/admin/notifications", { cookie })).status).toBe(403);
    expect((await app.request("/en/admin/notifications/pay_link/mail/en", { cookie })).status).toBe(403);
    expect(
      (await app.request("/en/admin/notifications/pay_link/mail/en", { cookie, form: { intent: "reset" } })).status,
    ).toBe(403);
    const headers = bearer((await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access);
    expect((await app.request("/api/v1/admin/notification-templates", { headers })).status).toBe(403);
    expect(
      (
        await app.request("/api/v1/admin/notification-templates/pay_link/sms/en", {
          method: "PUT",
          headers,
          json: { body: "Pay {{link}}" },
        })
      ).status,
    ).toBe(403);
    expect(
      (await app.request("/api/v1/admin/notification-templates/pay_link/mail/en", { method: "DELETE", headers }))
        .status,
    ).toBe(403);
  });
});

describe("preview", () => {
  it("shows what was typed, as it would be sent, without JavaScript and without saving it", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const response = await app.request("/en/admin/notifications/password_reset/mail/en", {
      cookie,
      form: {
        intent: "preview",
        subject: "New password for {{username}}",
        heading: "",
        intro: "Open the button within {{minutes}} minutes. <b>bold?</b>",
        action: "",
        outro: "",
      },
    });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("It is not saved yet.");
    expect(page).toContain("New password for alpha-manager");
    expect(page).toContain("Open the button within 10 minutes. &lt;b&gt;bold?&lt;/b&gt;");
    // The HTML part sits in a sandboxed frame, its own markup escaped once more as the attribute's value.
    expect(page).toMatch(/<iframe[^>]*srcDoc="&lt;!DOCTYPE html&gt;|<iframe[^>]*srcdoc="&lt;!DOCTYPE html&gt;/i);
    expect(page).toMatch(/<iframe[^>]*sandbox=""/);
    expect(page).toContain("&amp;#60;b&amp;#62;bold?");
    expect(
      await database.db
        .selectFrom("notification_templates")
        .select("template")
        .where("template", "=", "password_reset")
        .execute(),
    ).toEqual([]);
  });

  it("answers the API with the subject, HTML and text of a mail, or the text of a text message", async () => {
    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const mail = await (
      await app.request("/api/v1/admin/notification-templates/pay_link/mail/en/preview", {
        method: "POST",
        headers,
        json: { subject: "Pay {{amount}} now" },
      })
    ).json();
    expect(Object.keys(mail).sort()).toEqual(["html", "subject", "text"]);
    expect(mail.subject).toBe(`Pay ${amount("en")} now`);
    expect(mail.html).toContain("<!DOCTYPE html>");
    const sms = await (
      await app.request("/api/v1/admin/notification-templates/pay_link/sms/ar/preview", {
        method: "POST",
        headers,
        json: { body: "{{merchant}}: ادفع {{amount}} هنا {{link}}" },
      })
    ).json();
    expect(sms).toEqual({
      text: expect.stringMatching(new RegExp(`^متجر Alpha: ادفع ${escaped(amount("ar"))} هنا http\\S+/ar/pay/sample$`)),
    });
  });
});

describe("a text message and resetting to the default", () => {
  it("sends the merchant's words by SMS, then the default again once reset, through the API and the page", async () => {
    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const put = await app.request("/api/v1/admin/notification-templates/pay_link/sms/en", {
      method: "PUT",
      headers,
      json: { body: "{{merchant}} invoice: {{amount}}. Pay here: {{link}}" },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      template: "pay_link",
      channel: "sms",
      lang: "en",
      customised: true,
      body: "{{merchant}} invoice: {{amount}}. Pay here: {{link}}",
      placeholders: ["merchant", "amount", "link"],
      required_placeholders: ["link"],
    });
    const listed = (await (await app.request("/api/v1/admin/notification-templates", { headers })).json()) as {
      template: string;
      channel: string;
      languages: { lang: string; customised: boolean }[];
    }[];
    expect(
      listed
        .find((row) => row.template === "pay_link" && row.channel === "sms")
        ?.languages.map((language) => language.customised),
    ).toEqual([true, false]);
    expect(listed.map((row) => row.template)).not.toContain("help_request");

    const token = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
    const sms = async () => {
      await sendPaymentRequest(token, "en", "sms-customer@example.com", {
        customer_phone: "+96550001234",
        send_sms: true,
      });
      return (
        await database.db
          .selectFrom("outgoing_sms")
          .select("body")
          .where("merchant_id", "=", alpha.merchantId)
          .orderBy("id", "desc")
          .executeTakeFirstOrThrow()
      ).body;
    };
    expect(await sms()).toMatch(
      new RegExp(`^Alpha Store invoice: ${escaped(amount("en"))}\\. Pay here: http\\S+/en/pay/\\S+$`),
    );

    expect(
      (await app.request("/api/v1/admin/notification-templates/pay_link/sms/en", { method: "DELETE", headers })).status,
    ).toBe(204);
    expect(await sms()).toMatch(new RegExp(`^Alpha Store: please pay ${escaped(amount("en"))} at http`));

    // The Arabic mail edited above, reset from its page behind the confirmation.
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD, "ar");
    expect(await (await app.request(PAY_LINK_AR, { cookie })).text()).toContain("استعادة النص الافتراضي");
    expect((await app.request(PAY_LINK_AR, { cookie, form: { intent: "reset" } })).status).toBe(302);
    expect((await sendPaymentRequest(token, "ar", "after-reset@example.com")).subject).toBe(
      `يطلب منك متجر Alpha دفع ${amount("ar")}`,
    );
    const read = await (await app.request(API_PAY_LINK_AR, { headers })).json();
    expect(read).toMatchObject({
      customised: false,
      subject: null,
      defaults: { subject: "يطلب منك {{merchant}} دفع {{amount}}" },
    });
    const audit = (await auditEntries()).map((entry) => entry.description);
    expect(audit).toContain("Reset the text message “Payment request” in English to the default");
    expect(audit).toContain("Reset the e-mail “Payment request” in Arabic to the default");
  });
});
