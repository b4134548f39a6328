import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Browser, type Page } from "./fixtures";
import { BASE_URL, signIn, t, waitForHydration } from "./support";
import { databaseDir, workerIndex } from "./servers";

/**
 * A merchant goes live without a developer: the platform's operator creates it; its superuser
 * accepts the invitation (in Arabic), brands it, connects KNET on the sandbox terminal and tests
 * the connection, installs payment requests, makes a Maker role and invites a user with it; that
 * user creates a request a customer pays with KNET; the merchant's webhook receiver gets the event,
 * correctly signed; an API key is rotated and the old one refused once its grace period is over.
 */

const PASSWORD = "Wafra-Garden-2026!";
const run = Date.now().toString(36);
const merchantName = `Qurain Flowers ${run}`;
const owner = `qurain.owner.${run}`;
const maker = `qurain.maker.${run}`;

function database() {
  return new Database(path.join(databaseDir(workerIndex), "e2e.sqlite"), { readonly: true });
}

/** The newest e-mail to `address`, as the outbox kept it. */
async function invitationLink(address: string) {
  await expect
    .poll(() => {
      const db = database();
      try {
        return (
          db.prepare("select count(*) as n from outgoing_mail where to_address = ?").get(address) as { n: number }
        ).n;
      } finally {
        db.close();
      }
    })
    .toBeGreaterThan(0);
  const db = database();
  try {
    const mail = db
      .prepare("select text_body from outgoing_mail where to_address = ? order by id desc limit 1")
      .get(address) as { text_body: string };
    const link = new URL(/(http\S+reset-password\?token=[\w-]+)/.exec(mail.text_body)![1]);
    return `${link.pathname}${link.search}`;
  } finally {
    db.close();
  }
}

/** Opens an invitation's link (in the language it was sent in) and chooses the password. */
async function acceptInvitation(browser: Browser, link: string, username: string) {
  const lang = link.startsWith("/ar/") ? "ar" : "en";
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: t(lang, "reset.invitation_title") })).toBeVisible();
  await page.getByRole("textbox", { name: t(lang, "login.username"), exact: true }).fill(username);
  await page.getByLabel(t(lang, "reset.new_password"), { exact: true }).fill(PASSWORD);
  await page.getByLabel(t(lang, "reset.password_confirmation"), { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: t(lang, "reset.invitation_submit"), exact: true }).click();
  await expect(page.getByText(t(lang, "reset.done"))).toBeVisible();
  await context.close();
}

async function signedIn(browser: Browser, username: string, lang: "en" | "ar") {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  await signIn(page, username, PASSWORD, lang);
  return page;
}

/** A link of the side menu (`shell.*`) or of the administration panel's own navigation (`admin.nav.*`). */
function adminLink(page: Page, lang: "en" | "ar", key: string) {
  const menu = key.startsWith("admin.nav.") ? t(lang, "admin.nav.label") : t(lang, "shell.menu");
  return page
    .getByRole("navigation", { name: menu, exact: true })
    .getByRole("link", { name: t(lang, key), exact: true });
}

test("a merchant goes live without a developer", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  // The merchant's own system, listening for webhooks.
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kp-events`;
  try {
    // 1. The platform's operator creates the merchant.
    await signIn(page, "admin");
    await adminLink(page, "en", "shell.operator").click();
    await page.getByRole("textbox", { name: t("en", "operator.fields.name"), exact: true }).fill(merchantName);
    await page.getByRole("textbox", { name: t("en", "operator.fields.title_ar"), exact: true }).fill("زهور القرين");
    await page.getByRole("textbox", { name: t("en", "operator.fields.admin_username"), exact: true }).fill(owner);
    await page
      .getByRole("textbox", { name: t("en", "operator.fields.admin_email"), exact: true })
      .fill(`${owner}@qurain.example`);
    await page.getByRole("combobox", { name: t("en", "operator.fields.lang"), exact: true }).selectOption("ar");
    await page.getByRole("button", { name: t("en", "operator.create"), exact: true }).click();
    await expect(page.getByRole("status")).toHaveText(t("en", "operator.created_done"));
    await expect(page.getByRole("cell", { name: merchantName })).toBeVisible();

    // 2. Its superuser accepts the invitation, in Arabic, and signs in.
    await acceptInvitation(browser, await invitationLink(`${owner}@qurain.example`), owner);
    const admin = await signedIn(browser, owner, "ar");

    // 3. Branding.
    await adminLink(admin, "ar", "shell.administration").click();
    await expect(adminLink(admin, "ar", "admin.nav.profile")).toHaveAttribute("aria-current", "page");
    await admin
      .getByRole("textbox", { name: t("ar", "admin.profile.fields.unit_title_ar"), exact: true })
      .fill("زهور القرين");
    await admin
      .getByRole("textbox", { name: t("ar", "admin.profile.fields.header_color"), exact: true })
      .fill("#7a1f5c");
    await admin.getByRole("button", { name: t("ar", "admin.profile.save"), exact: true }).click();
    await expect(admin.getByRole("status")).toHaveText(t("ar", "admin.profile.saved"));

    // 4. KNET on the sandbox terminal, its connection tested, then turned on.
    const db = database();
    const terminal = db
      .prepare("select tranportal_id, password, resource_key from sandbox_knet_terminals limit 1")
      .get() as { tranportal_id: string; password: string; resource_key: string };
    db.close();
    await adminLink(admin, "ar", "admin.nav.gateways").click();
    await admin.getByRole("combobox", { name: t("ar", "admin.gateways.kind"), exact: true }).selectOption("knet");
    await admin.getByRole("textbox", { name: t("ar", "admin.gateways.code"), exact: true }).fill("knet-main");
    await admin.getByRole("textbox", { name: t("ar", "admin.gateways.fields.name_en"), exact: true }).fill("KNET");
    await admin.getByRole("textbox", { name: t("ar", "admin.gateways.fields.name_ar"), exact: true }).fill("كي نت");
    await admin
      .getByRole("textbox", { name: t("ar", "admin.gateways.fields.endpoint_url"), exact: true })
      .fill(`${BASE_URL}/sandbox/knet`);
    await admin.getByRole("button", { name: t("ar", "admin.gateways.add"), exact: true }).click();
    await expect(admin.getByRole("status")).toHaveText(t("ar", "admin.gateways.added"));
    await admin
      .getByLabel(t("ar", "admin.gateways.credential.tranportal_id"), { exact: true })
      .fill(terminal.tranportal_id);
    await admin
      .getByLabel(t("ar", "admin.gateways.credential.tranportal_password"), { exact: true })
      .fill(terminal.password);
    await admin
      .getByLabel(t("ar", "admin.gateways.credential.resource_key"), { exact: true })
      .fill(terminal.resource_key);
    await admin.getByRole("button", { name: t("ar", "admin.gateways.save"), exact: true }).click();
    await expect(admin.getByRole("status")).toHaveText(t("ar", "admin.gateways.saved"));
    // Entered once, never shown again.
    expect(await admin.content()).not.toContain(terminal.password);
    await admin.getByRole("button", { name: t("ar", "admin.gateways.test_connection"), exact: true }).click();
    await expect(admin.getByText(t("ar", "admin.gateways.test.connected"))).toBeVisible();
    await admin.getByRole("link", { name: t("ar", "admin.gateways.back") }).click();
    await admin.getByRole("button", { name: t("ar", "admin.gateways.enable"), exact: true }).click();
    await expect(admin.getByRole("status")).toHaveText(t("ar", "admin.gateways.enabled_done"));

    // 5. Payment requests installed.
    await adminLink(admin, "ar", "admin.nav.sections").click();
    await admin
      .getByRole("button", {
        name: t("ar", "admin.sections.install_section", { section: t("ar", "sections.payment_request") }),
        exact: true,
      })
      .click();
    await expect(admin.getByRole("status")).toHaveText(t("ar", "admin.sections.done.installed"));

    // 6. A Maker role, and a user invited with it.
    await adminLink(admin, "ar", "admin.nav.roles").click();
    await admin.getByRole("textbox", { name: t("ar", "admin.roles.name"), exact: true }).fill("Maker");
    for (const permission of ["view_paymenttransaction", "add_paymenttransaction"]) {
      await admin.getByRole("checkbox", { name: t("ar", `permissions.${permission}`), exact: true }).check();
    }
    await admin.getByRole("button", { name: t("ar", "admin.roles.create"), exact: true }).click();
    await expect(admin.getByRole("status")).toHaveText(t("ar", "admin.roles.created"));
    await adminLink(admin, "ar", "admin.nav.users").click();
    await admin.getByRole("textbox", { name: t("ar", "login.username"), exact: true }).fill(maker);
    await admin.getByRole("textbox", { name: t("ar", "user.email"), exact: true }).fill(`${maker}@qurain.example`);
    await admin.getByRole("checkbox", { name: "Maker", exact: true }).check();
    await admin.getByRole("button", { name: t("ar", "admin.users.invite"), exact: true }).click();
    await expect(admin.getByRole("status")).toHaveText(t("ar", "admin.users.done.invited"));

    // 7. The merchant's webhook endpoint; its secret is shown once.
    await adminLink(admin, "ar", "admin.nav.webhooks").click();
    await admin.getByRole("textbox", { name: t("ar", "admin.webhooks.url"), exact: true }).fill(receiverUrl);
    await admin.getByRole("button", { name: t("ar", "admin.webhooks.create"), exact: true }).click();
    const secret = await admin
      .getByRole("textbox", { name: t("ar", "admin.webhooks.secret"), exact: true })
      .inputValue();
    expect(secret).toMatch(/^whsec_/);

    // 8. The maker accepts, signs in and creates a request, which a customer pays with KNET.
    await acceptInvitation(browser, await invitationLink(`${maker}@qurain.example`), maker);
    const makerPage = await signedIn(browser, maker, "en");
    await makerPage.goto("/en/payment-request/create");
    await makerPage.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("18.750");
    await makerPage.getByRole("textbox", { name: t("en", "payment_request.first_name"), exact: true }).fill("Hessa");
    await makerPage.getByRole("button", { name: t("en", "payment_request.submit"), exact: true }).click();
    await expect(makerPage.getByText(t("en", "payment_request.created"))).toBeVisible();
    const payUrl = new URL(
      await makerPage.getByRole("textbox", { name: t("en", "payment_request.payment_url"), exact: true }).inputValue(),
    ).pathname;
    const transactionId = payUrl.split("/").pop()!;

    const customer = await (await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false })).newPage();
    await customer.goto(payUrl.replace("/en/", "/ar/"));
    await expect(customer.locator("header").first()).toContainText("زهور القرين");
    await customer.goto(payUrl);
    await customer.getByRole("button", { name: new RegExp(t("en", "pay.pay_now", { amount: "" }).trim()) }).click();
    await customer.getByRole("textbox", { name: "Card number" }).fill("8888880000000001");
    await customer.getByRole("textbox", { name: "PIN" }).fill("1234");
    await customer.getByRole("button", { name: "Submit" }).click();
    await expect(customer.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();

    // 9. The receiver got the payment, signed with the endpoint's secret.
    await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const delivery = received[0];
    const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers.signature));
    expect(signature).not.toBeNull();
    expect(signature![2]).toBe(createHmac("sha256", secret).update(`${signature![1]}.${delivery.body}`).digest("hex"));
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({
      type: "payment.succeeded",
      data: { transaction: { id: transactionId, amount: "18.750", state: "paid" } },
    });
    expect(delivery.headers["idempotency-key"]).toBe(event.id);

    // 10. An API key for the merchant's server, rotated; the old one works for its grace period only.
    await admin.goto("/en/admin/api-keys");
    await waitForHydration(admin);
    await admin.getByRole("textbox", { name: t("en", "admin.api_keys.name"), exact: true }).fill("Shop server");
    await admin
      .getByRole("checkbox", { name: t("en", "admin.api_keys.operations.read") })
      .first()
      .check();
    await admin.getByRole("button", { name: t("en", "admin.api_keys.create"), exact: true }).click();
    const oldKey = await admin.getByRole("textbox", { name: t("en", "admin.api_keys.key"), exact: true }).inputValue();
    const list = (key: string) =>
      request.get("/api/v1/plugins/payment_request/transaction/", { headers: { Authorization: `Api-Key ${key}` } });
    const listed = await list(oldKey);
    expect(listed.status()).toBe(200);
    expect(((await listed.json()) as { results: { id: string }[] }).results.map((row) => row.id)).toContain(
      transactionId,
    );
    await admin
      .getByRole("button", { name: t("en", "admin.api_keys.rotate_key", { name: "Shop server" }), exact: true })
      .click();
    await expect(admin.getByText(t("en", "admin.api_keys.rotated", { name: "Shop server" }))).toBeVisible();
    const newKey = await admin.getByRole("textbox", { name: t("en", "admin.api_keys.key"), exact: true }).inputValue();
    expect(newKey).not.toBe(oldKey);
    expect((await list(oldKey)).status()).toBe(200);
    // An hour (the default grace) and a minute later: only the new key works.
    await request.post("/__test/clock", { data: { ms: 61 * 60_000 } });
    expect((await list(oldKey)).status()).toBe(401);
    expect((await list(newKey)).status()).toBe(200);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
