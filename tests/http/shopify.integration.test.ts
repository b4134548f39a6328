import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import ar from "../../locales/ar/common.json";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { resetEnvCache } from "~/lib/env.server";
import { RETRY_AFTER_MS } from "~/domain/integrations/webhooks.server";
import { CALLBACK_MAX_ATTEMPTS, REJECT_MAX_WAITS, REJECT_WAIT_MS } from "~/sections/shopify/domain/callbacks.server";
import { SESSION_HOLD_MS } from "~/sections/shopify/domain/sessions.server";
import { runReadyJobs } from "~/lib/jobs.server";
import { checkConnection, isShopAddress, loadConnection } from "~/sections/shopify/domain/connection.server";
import { createApiKey, parseScopes } from "~/domain/identity/api-keys.server";
import type { DB } from "~/db/database.server";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The Shopify flow against a fake shop platform on loopback: the platform hands a payment session
 * over with the merchant's API key, the customer pays on the payment options page with JavaScript
 * off (plain form posts), reads the result with the note and the way back, and the platform hears
 * resolve or reject, signed with the connection's secret, tried again when it fails.
 */
type Received = { headers: http.IncomingHttpHeaders; body: string };

let database: TestDatabase;
let server: TestHttpServer;
let shop: http.Server;
let callbackUrl = "";
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let alphaKey = "";
let betaKey = "";
const received: Received[] = [];
type ShopAnswer = { status: number; body?: string; stream?: boolean };
/** What the fake platform answers next, by payment id (else 200 `{}`). */
const answers = new Map<string, ShopAnswer[]>();
const answer = (id: string, ...list: ShopAnswer[]) => answers.set(id, [...(answers.get(id) ?? []), ...list]);
const receivedFor = (id: string) =>
  received.map((delivery) => JSON.parse(delivery.body) as Record<string, any>).filter((body) => body.id === id);

const catalogs = { en, ar } as const;

/** An API key of the merchant with these scopes, as a manager makes it on the API keys page. */
async function apiKey(db: DB, merchantId: number, manager: { id: number; username: string }, scopes: string[]) {
  const parsed = parseScopes(scopes, ["shopify", "payment_request"]);
  if (!parsed.ok) throw new Error(`Unknown scopes ${parsed.unknown.join(", ")}`);
  const created = await createApiKey(db, {
    manager: { ...manager, merchantId, is_superuser: true },
    key: { name: `Key ${scopes.join(" ")}`, scopes, grants: parsed.grants, allowedIps: [], expiresAt: null },
  });
  if (!created.ok) throw new Error(created.code);
  return created.key;
}
function text(lang: "en" | "ar", key: string) {
  const found = key.split(".").reduce<any>((node, part) => node?.[part], catalogs[lang]);
  if (typeof found !== "string") throw new Error(`no text ${key}`);
  return found;
}
const html = (value: string) => value.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

beforeAll(async () => {
  shop = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      let id = "";
      try {
        id = String((JSON.parse(body) as { id?: unknown }).id ?? "");
      } catch {
        // not a callback
      }
      const next = answers.get(id)?.shift() ?? { status: 200, body: "{}" };
      if (next.stream) {
        // An answer that never ends: a kilobyte at a time until the caller hangs up.
        res.writeHead(200, { "Content-Type": "application/json" });
        const timer = setInterval(() => res.write(" ".repeat(1024)), 2);
        res.on("close", () => clearInterval(timer));
        return;
      }
      res.writeHead(next.status, { "Content-Type": "application/json" }).end(next.body ?? "{}");
    });
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/payments/callback`;
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0", WEBHOOK_ALLOW_PRIVATE: "1" });
  alphaKey = await apiKey(database.db, alpha.merchantId, alpha.admin, ["shopify:write"]);
  betaKey = await apiKey(database.db, beta.merchantId, beta.admin, ["shopify:write"]);
});

afterAll(async () => {
  resetClock();
  await server?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await database?.destroy();
});

const drain = async () => {
  while ((await runReadyJobs(database.db)) > 0);
};

const form = (fields: Record<string, string>, cookie?: string) => ({
  method: "POST",
  headers: {
    Origin: server.url,
    "Content-Type": "application/x-www-form-urlencoded",
    ...(cookie ? { Cookie: cookie } : {}),
  },
  body: new URLSearchParams(fields),
  redirect: "manual" as const,
});

async function signIn(username: string) {
  const response = await fetch(`${server.url}/en/login`, form({ intent: "login", username, password: DEMO_PASSWORD }));
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("kp_session="));
  if (!cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie.split(";")[0];
}

function session(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    gid: `gid://shopify/PaymentSession/${id}`,
    group: `checkout-${id}`,
    amount: "12.500",
    currency: "KWD",
    test: false,
    kind: "sale",
    customer: {
      email: "noura@example.com",
      phone_number: "+96555000111",
      billing_address: { given_name: "Noura", family_name: "Al-Sabah" },
    },
    payment_method: { type: "offsite" },
    proposed_at: "2026-03-01T10:00:00Z",
    cancel_url: "https://alpha-shop.myshopify.com/checkouts/c1?canceled=1",
    ...overrides,
  };
}

async function handOver(body: unknown, key: string | null = alphaKey, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/v1/plugins/shopify/payment-session`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Api-Key ${key}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

/** The customer presses Pay with the card sandbox on the payment options page (JavaScript off): the card page's address. */
async function startOnOptionsPage(transactionId: string, lang: "en" | "ar" = "en") {
  const pressed = await fetch(
    `${server.url}/${lang}/spf/payment-options/${transactionId}`,
    form({ pay_with: "mpgs-sandbox", submission_token: `t-${transactionId}-${Math.random()}` }),
  );
  expect(pressed.status).toBe(303);
  return pressed.headers.get("Location")!;
}

/** The customer's way with JavaScript off: the method's Pay button, the card sandbox's page, and every redirect back. */
async function payOnOptionsPage(transactionId: string, lang: "en" | "ar" = "en") {
  return submitCard(await startOnOptionsPage(transactionId, lang));
}

/** The card sandbox's page submitted with the approved test card, and every redirect back. */
async function submitCard(cardPage: string) {
  const paid = await fetch(cardPage, form({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }));
  expect(paid.status).toBe(303);
  let location = new URL(paid.headers.get("Location")!, server.url).href;
  for (let hops = 0; hops < 5; hops++) {
    const response = await fetch(location, { redirect: "manual" });
    const next = response.headers.get("Location");
    if (!next) return { url: location, page: await response.text(), status: response.status };
    location = new URL(next, location).href;
  }
  throw new Error("too many redirects");
}

function verified(delivery: Received, secret: string) {
  const expected = createHmac("sha256", secret).update(delivery.body).digest("base64");
  expect(delivery.headers["x-shopify-hmac-sha256"]).toBe(expected);
  return JSON.parse(delivery.body) as Record<string, any>;
}

let firstTransaction = "";

describe("handing a payment session over", () => {
  it("refuses a call without the merchant's API key, with a wrong key, or with a key that has nothing on the section", async () => {
    expect((await handOver(session("auth-1"), null)).status).toBe(401);
    expect((await handOver(session("auth-1"), "not-a-key")).status).toBe(401);
    const other = await apiKey(database.db, alpha.merchantId, alpha.admin, ["payment_request"]);
    expect((await handOver(session("auth-1"), other)).status).toBe(404);
    const reader = await apiKey(database.db, alpha.merchantId, alpha.admin, ["shopify:read"]);
    expect((await handOver(session("auth-1"), reader)).status).toBe(403);
    expect(await database.db.selectFrom("transactions").select("id").where("plugin", "=", "shopify").execute()).toEqual(
      [],
    );
  });

  it("is refused until the shop is connected; a manager connects it on the settings page with a plain form, and the audit log says so", async () => {
    const refused = await handOver(session("before-connect"));
    expect(refused.status).toBe(409);
    expect(refused.body.non_field_errors[0]).toBe(text("en", "shopify_public.api.not_connected"));
    const cookie = await signIn(alpha.admin.username);
    const wrong = await fetch(
      `${server.url}/en/shopify/settings`,
      form({ intent: "save", shop_domain: "not a domain", callback_url: "ftp://x" }, cookie),
    );
    expect(wrong.status).toBe(400);
    const page = await wrong.text();
    expect(page).toContain(text("en", "shopify.errors.shop_domain"));
    expect(page).toContain(text("en", "shopify.errors.callback_url"));
    expect(page).toContain('value="not a domain"');
    const saved = await fetch(
      `${server.url}/en/shopify/settings`,
      form({ intent: "save", shop_domain: "https://Alpha-Shop.myshopify.com/", callback_url: callbackUrl }, cookie),
    );
    expect(saved.status).toBe(302);
    const connection = await loadConnection(database.db, alpha.merchantId);
    expect(connection).toMatchObject({ shop_domain: "alpha-shop.myshopify.com", callback_url: callbackUrl });
    expect(connection!.signing_secret).toMatch(/^spf_/);
    const stored = await database.db
      .selectFrom("shopify_connections")
      .select("signing_secret")
      .where("merchant_id", "=", alpha.merchantId)
      .executeTakeFirstOrThrow();
    expect(stored.signing_secret).not.toContain(connection!.signing_secret);
    const shown = await (await fetch(`${server.url}/en/shopify/settings`, { headers: { Cookie: cookie } })).text();
    expect(shown).toContain(connection!.signing_secret);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "description"])
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "=", "shopify_connected")
      .execute();
    expect(audit).toHaveLength(1);
    // Staff without manage_merchant do not reach the page.
    const staff = await signIn(alpha.staff.username);
    expect(
      (await fetch(`${server.url}/en/shopify/settings`, { headers: { Cookie: staff }, redirect: "manual" })).status,
    ).toBe(403);
  });

  it("answers the payment options address and makes one transaction per payment id, however often and however at once the platform retries", async () => {
    const first = await handOver(session("pay-1001"));
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: "pay-1001",
      transaction_id: expect.stringMatching(/^[0-9A-Za-z]{22}$/),
      redirect_url: `${server.url}/en/spf/payment-options/${first.body.transaction_id}`,
    });
    firstTransaction = first.body.transaction_id;
    const again = await handOver(session("pay-1001"));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const racing = await Promise.all([1, 2, 3, 4].map(() => handOver(session("pay-1002"))));
    expect(new Set(racing.map((answer) => answer.body.transaction_id)).size).toBe(1);
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 201]);
    const rows = await database.db
      .selectFrom("transactions")
      .select(["id", "amount", "currency_code", "customer_email", "customer_first_name"])
      .where("plugin", "=", "shopify")
      .where("merchant_id", "=", alpha.merchantId)
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.id === firstTransaction)).toMatchObject({
      amount: 12_500,
      currency_code: "KWD",
      customer_email: "noura@example.com",
      customer_first_name: "Noura",
    });
    // The same id with another payment is not the same session.
    const reused = await handOver(session("pay-1001", { amount: "13.000" }));
    expect(reused.status).toBe(422);
    expect(reused.body.id[0]).toBe(text("en", "shopify_public.api.id_reused"));
  });

  it("says what is wrong with a payload under its field, in the caller's language", async () => {
    const refused = await handOver(
      session("bad-1", {
        amount: "1.2345",
        currency: "XYZ",
        cancel_url: "javascript:alert(1)",
        customer: { email: "not-mail" },
      }),
      alphaKey,
      { "Accept-Language": "ar" },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.currency).toEqual([text("ar", "shopify_public.api.currency")]);
    expect(refused.body.cancel_url).toEqual([text("ar", "shopify_public.api.url")]);
    expect(refused.body["customer.email"]).toEqual([text("ar", "shopify_public.api.email")]);
    // Every check speaks the caller's language, never the library's own words.
    const shapes = await handOver(
      session("bad-2", {
        gid: 7,
        customer: { email: `${"a".repeat(250)}@example.com`, billing_address: "Kuwait" },
        payment_method: [1],
      }),
      alphaKey,
      { "Accept-Language": "ar" },
    );
    expect(shapes.status).toBe(400);
    expect(shapes.body).toEqual({
      gid: [text("ar", "shopify_public.api.text")],
      "customer.email": [text("ar", "shopify_public.api.too_long")],
      "customer.billing_address": [text("ar", "shopify_public.api.object")],
      payment_method: [text("ar", "shopify_public.api.object")],
    });
    expect((await handOver(session("bad-3", { customer: "noura" }))).body).toEqual({
      customer: [text("en", "shopify_public.api.object")],
    });
    expect((await handOver([1, 2])).status).toBe(400);
  });

  it("sends the customer back only to the shop: https on the shop's domain or myshopify.com", async () => {
    const plain = await handOver(session("url-1", { cancel_url: "http://alpha-shop.myshopify.com/c" }));
    expect(plain.status).toBe(400);
    expect(plain.body.cancel_url).toEqual([text("en", "shopify_public.api.url")]);
    const foreign = await handOver(
      session("url-2", {
        cancel_url: "https://evil.example/c",
        return_url: "https://alpha-shop.myshopify.com.evil.example/thanks",
      }),
    );
    expect(foreign.status).toBe(400);
    const message = text("en", "shopify_public.api.shop_url").replace("{{shop}}", "alpha-shop.myshopify.com");
    expect(foreign.body).toEqual({ cancel_url: [message], return_url: [message] });
    expect(
      (await handOver(session("url-3", { return_url: "https://checkout.alpha-shop.myshopify.com/thanks" }))).status,
    ).toBe(201);
    expect(isShopAddress("https://www.souq.example/thanks", "souq.example")).toBe(true);
    expect(isShopAddress("https://souq.example.evil.example/", "souq.example")).toBe(false);
    expect(isShopAddress("https://evilsouq.example/", "souq.example")).toBe(false);
    expect(isShopAddress("https://user:pw@souq.example/", "souq.example")).toBe(false);
    expect(
      await database.db
        .selectFrom("shopify_payment_sessions")
        .select("payment_id")
        .where("payment_id", "in", ["url-1", "url-2"])
        .execute(),
    ).toEqual([]);
  });

  it("refuses an authorization, and a test payment when no payment method is in test mode", async () => {
    const authorization = await handOver(session("auth-only", { kind: "authorization" }), alphaKey, {
      "Accept-Language": "ar",
    });
    expect(authorization.status).toBe(422);
    expect(authorization.body).toEqual({ kind: [text("ar", "shopify_public.api.authorization")] });
    await database.db
      .updateTable("gateways")
      .set({ mode: "live" })
      .where("merchant_id", "=", alpha.merchantId)
      .execute();
    try {
      const test = await handOver(session("test-on-live", { test: true }));
      expect(test.status).toBe(422);
      expect(test.body).toEqual({
        test: [text("en", "shopify_public.api.no_test_gateway").replace("{{currency}}", "KWD")],
      });
    } finally {
      await database.db
        .updateTable("gateways")
        .set({ mode: "test" })
        .where("merchant_id", "=", alpha.merchantId)
        .execute();
    }
    expect(
      await database.db
        .selectFrom("shopify_payment_sessions")
        .select("payment_id")
        .where("payment_id", "in", ["auth-only", "test-on-live"])
        .execute(),
    ).toEqual([]);
    // A test session handed over while a method was in test mode is not paid on it once it is live.
    const made = await handOver(session("test-later-live", { test: true }));
    expect(made.status).toBe(201);
    await database.db
      .updateTable("gateways")
      .set({ mode: "live" })
      .where("merchant_id", "=", alpha.merchantId)
      .where("code", "=", "mpgs-sandbox")
      .execute();
    try {
      const pressed = await fetch(
        `${server.url}/en/spf/payment-options/${made.body.transaction_id}`,
        form({ pay_with: "mpgs-sandbox", submission_token: "test-live" }),
      );
      expect(pressed.status).toBe(400);
      expect(await pressed.text()).toContain(text("en", "shopify_public.test_gateway_only"));
    } finally {
      await database.db
        .updateTable("gateways")
        .set({ mode: "test" })
        .where("merchant_id", "=", alpha.merchantId)
        .execute();
    }
  });

  it("keeps merchants apart: another merchant's key with the same payment id makes its own, and cannot read this one", async () => {
    const cookie = await signIn(beta.admin.username);
    await fetch(
      `${server.url}/en/shopify/settings`,
      form({ intent: "save", shop_domain: "beta.myshopify.com", callback_url: callbackUrl }, cookie),
    );
    const theirs = await handOver(session("pay-1001"), betaKey);
    expect(theirs.status).toBe(201);
    expect(theirs.body.transaction_id).not.toBe(firstTransaction);
    const token = (
      (await (
        await fetch(`${server.url}/api/v1/user/token/`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: beta.admin.username, password: DEMO_PASSWORD }),
        })
      ).json()) as { access: string }
    ).access;
    const read = await fetch(`${server.url}/api/v1/plugins/shopify/transaction/details/${firstTransaction}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(404);
  });
});

describe("paying on the payment options page", () => {
  it("is plain HTML with the shop's order, the amount and the methods, in English and in Arabic", async () => {
    const english = await fetch(`${server.url}/en/spf/payment-options/${firstTransaction}`);
    expect(english.status).toBe(200);
    const page = await english.text();
    expect(page).toContain("checkout-pay-1001");
    expect(page).toContain("12.500");
    expect(page).toContain('name="pay_with"');
    expect(page).not.toMatch(/<script[^>]*src=/);
    const arabic = await (await fetch(`${server.url}/ar/spf/payment-options/${firstTransaction}`)).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain(text("ar", "shopify_public.reference"));
  });

  it("pays through the card sandbox to the result with the note and the way back; the shop hears resolve, signed", async () => {
    const result = await payOnOptionsPage(firstTransaction);
    expect(result.url).toMatch(/\/en\/spf\/payment-details\/[0-9A-Za-z]{22}$/);
    expect(result.page).toContain(html(text("en", "shopify_public.do_not_pay_again")));
    expect(result.page).toContain(`>${text("en", "shopify_public.return_to_shop")}<`);
    expect(result.page).toContain('href="https://alpha-shop.myshopify.com/"');
    expect(received).toHaveLength(0);
    answer("pay-1001", {
      status: 200,
      body: JSON.stringify({ redirect_url: "https://alpha-shop.myshopify.com/orders/1001/thank_you" }),
    });
    await drain();
    expect(received).toHaveLength(1);
    const secret = (await loadConnection(database.db, alpha.merchantId))!.signing_secret;
    const body = verified(received[0], secret);
    expect(body).toMatchObject({
      action: "resolve",
      id: "pay-1001",
      group: "checkout-pay-1001",
      amount: "12.500",
      currency: "KWD",
      transaction_id: firstTransaction,
      state: "paid",
      kind: "sale",
    });
    expect(received[0].headers["idempotency-key"]).toBe("pay-1001:resolve");
    // A signature made with another secret does not match.
    expect(createHmac("sha256", "another").update(received[0].body).digest("base64")).not.toBe(
      received[0].headers["x-shopify-hmac-sha256"],
    );
    // The address the platform answered is where the customer now returns.
    const again = await (await fetch(result.url)).text();
    expect(again).toContain('href="https://alpha-shop.myshopify.com/orders/1001/thank_you"');
    const log = await database.db
      .selectFrom("shopify_callbacks")
      .select(["action", "attempt", "status", "response_code"])
      .where("transaction_id", "=", firstTransaction)
      .execute();
    expect(log).toEqual([{ action: "resolve", attempt: 1, status: "succeeded", response_code: 200 }]);
  });

  it("cannot be paid twice: the page shows it is paid without a pay button, and the form and the API refuse", async () => {
    const page = await (await fetch(`${server.url}/en/spf/payment-options/${firstTransaction}`)).text();
    expect(page).not.toContain('name="pay_with"');
    expect(page).toContain(`>${text("en", "pay.settled_title")}<`);
    const pressed = await fetch(
      `${server.url}/en/spf/payment-options/${firstTransaction}`,
      form({ pay_with: "mpgs-sandbox", submission_token: "second-try" }),
    );
    expect(pressed.status).toBe(400);
    expect(await pressed.text()).toContain(text("en", "pay.errors.not_payable"));
    const api = await fetch(`${server.url}/api/v1/shopify/transaction/pay/${firstTransaction}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ gateway_code: "mpgs-sandbox" }),
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ non_field_errors: [text("en", "pay.errors.not_payable")] });
    const attempts = await database.db
      .selectFrom("payment_attempts")
      .select("state")
      .where("transaction_id", "=", firstTransaction)
      .execute();
    expect(attempts).toEqual([{ state: "success" }]);
  });

  it("starts paying through the API with JSON and answers where to send the customer, or the field that is wrong", async () => {
    const made = await handOver(session("pay-api"));
    const url = `${server.url}/api/v1/shopify/transaction/pay/${made.body.transaction_id}`;
    const missing = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ gateway_code: [text("en", "pay.errors.choose_gateway")] });
    const started = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": "k-1" },
      body: JSON.stringify({ gateway_code: "mpgs-sandbox" }),
    });
    expect(started.status).toBe(200);
    const body = (await started.json()) as { redirect_url: string; attempt_id: string };
    expect(body.redirect_url).toMatch(/^http/);
    const repeated = (await (
      await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": "k-1" },
        body: JSON.stringify({ gateway_code: "mpgs-sandbox" }),
      })
    ).json()) as { attempt_id: string };
    expect(repeated.attempt_id).toBe(body.attempt_id);
    expect(
      (
        await fetch(`${server.url}/api/v1/shopify/transaction/pay/AAAAAAAAAAAAAAAAAAAAAA`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ gateway_code: "mpgs-sandbox" }),
        })
      ).status,
    ).toBe(404);
  });

  it("refuses an expired session: no pay button, the way back to the shop, and the shop hears reject", async () => {
    const made = await handOver(session("pay-late"));
    const id = made.body.transaction_id as string;
    await database.db
      .updateTable("transactions")
      .set({ expiration_time: "2000-01-01T00:00:00.000Z" })
      .where("id", "=", id)
      .execute();
    const page = await (await fetch(`${server.url}/en/spf/payment-options/${id}`)).text();
    expect(page).not.toContain('name="pay_with"');
    expect(page).toContain(`>${text("en", "pay.expired")}<`);
    expect(page).toContain(`>${text("en", "shopify_public.back_to_shop")}<`);
    const pressed = await fetch(
      `${server.url}/en/spf/payment-options/${id}`,
      form({ pay_with: "mpgs-sandbox", submission_token: "late" }),
    );
    expect(pressed.status).toBe(400);
    expect(
      await database.db.selectFrom("payment_attempts").select("id").where("transaction_id", "=", id).execute(),
    ).toEqual([]);
    received.length = 0;
    await drain();
    const rejects = received.map((delivery) => JSON.parse(delivery.body)).filter((body) => body.id === "pay-late");
    expect(rejects).toEqual([
      expect.objectContaining({ action: "reject", reason: expect.objectContaining({ code: "PAYMENT_EXPIRED" }) }),
    ]);
  });

  it("tries the callback again when the shop platform fails, and logs every try", async () => {
    const made = await handOver(session("pay-retry"));
    received.length = 0;
    answer("pay-retry", { status: 500 }, { status: 502 });
    await payOnOptionsPage(made.body.transaction_id, "ar");
    await drain();
    expect(received).toHaveLength(1);
    try {
      // The webhooks' waits: a minute, then five.
      advanceClock(59_000);
      await drain();
      expect(received).toHaveLength(1);
      advanceClock(1_000);
      await drain();
      expect(received).toHaveLength(2);
      advanceClock(5 * 60_000);
      await drain();
      expect(received).toHaveLength(3);
    } finally {
      resetClock();
    }
    const secret = (await loadConnection(database.db, alpha.merchantId))!.signing_secret;
    expect(received.map((delivery) => verified(delivery, secret).action)).toEqual(["resolve", "resolve", "resolve"]);
    const log = await database.db
      .selectFrom("shopify_callbacks")
      .select(["attempt", "status", "response_code"])
      .where("transaction_id", "=", made.body.transaction_id)
      .orderBy("attempt")
      .execute();
    expect(log).toEqual([
      { attempt: 1, status: "failed", response_code: 500 },
      { attempt: 2, status: "failed", response_code: 502 },
      { attempt: 3, status: "succeeded", response_code: 200 },
    ]);
    await drain();
    expect(received).toHaveLength(3);
  });

  it("stops reading a platform's answer that never ends, and keeps only a shop address it answers for the way back", async () => {
    const made = await handOver(session("pay-stream"));
    answer("pay-stream", { status: 200, stream: true });
    const result = await payOnOptionsPage(made.body.transaction_id);
    await drain();
    expect(receivedFor("pay-stream").map((body) => body.action)).toEqual(["resolve"]);
    const log = await database.db
      .selectFrom("shopify_callbacks")
      .select(["attempt", "status", "response_code"])
      .where("transaction_id", "=", made.body.transaction_id)
      .execute();
    expect(log).toEqual([{ attempt: 1, status: "succeeded", response_code: 200 }]);
    const other = await handOver(session("pay-foreign"));
    answer("pay-foreign", { status: 200, body: JSON.stringify({ redirect_url: "https://evil.example/thanks" }) });
    const paid = await payOnOptionsPage(other.body.transaction_id);
    await drain();
    expect(receivedFor("pay-foreign")).toHaveLength(1);
    const page = await (await fetch(paid.url)).text();
    expect(page).not.toContain("evil.example");
    expect(page).toContain('href="https://alpha-shop.myshopify.com/"');
    expect(result.page).toContain('href="https://alpha-shop.myshopify.com/"');
  });

  it("refuses a private callback address when saving and when delivering, unless private targets are allowed", async () => {
    const made = await handOver(session("pay-private"));
    await payOnOptionsPage(made.body.transaction_id);
    process.env.WEBHOOK_ALLOW_PRIVATE = "0";
    resetEnvCache();
    try {
      expect(await checkConnection({ shop_domain: "alpha-shop.myshopify.com", callback_url: callbackUrl })).toEqual({
        ok: false,
        errors: { callback_url: ["shopify.errors.callback_private"] },
      });
      expect(
        await checkConnection({ shop_domain: "alpha-shop.myshopify.com", callback_url: "http://localhost:9/cb" }),
      ).toEqual({ ok: false, errors: { callback_url: ["shopify.errors.callback_private"] } });
      for (const callback_url of [
        "http://localhost.:9/cb",
        "http://[::ffff:7f00:1]:9/cb",
        "http://[2002:7f00:1::]/cb",
        "http://2130706433/cb",
        "http://0x7f.1/cb",
      ]) {
        expect(await checkConnection({ shop_domain: "alpha-shop.myshopify.com", callback_url }), callback_url).toEqual({
          ok: false,
          errors: { callback_url: ["shopify.errors.callback_private"] },
        });
      }
      await drain();
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "1";
      resetEnvCache();
    }
    expect(receivedFor("pay-private")).toEqual([]);
    const log = await database.db
      .selectFrom("shopify_callbacks")
      .select(["attempt", "status", "error"])
      .where("transaction_id", "=", made.body.transaction_id)
      .execute();
    expect(log).toEqual([{ attempt: 1, status: "failed", error: expect.stringContaining("private") }]);
    try {
      advanceClock(60_000);
      await drain();
    } finally {
      resetClock();
    }
    expect(receivedFor("pay-private").map((body) => body.action)).toEqual(["resolve"]);
  });

  it("resolves once when the customer presses Pay twice at once and pays both card pages", async () => {
    const made = await handOver(session("pay-twice"));
    const id = made.body.transaction_id as string;
    const pages = await Promise.all([startOnOptionsPage(id), startOnOptionsPage(id)]);
    await Promise.all(pages.map((page) => submitCard(page).catch(() => null)));
    await drain();
    expect(receivedFor("pay-twice").map((body) => body.action)).toEqual(["resolve"]);
    const transaction = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(transaction.state).toBe("paid");
  });

  it("ends a session nobody paid when its time is over, without anyone opening its page, and the shop hears reject", async () => {
    const made = await handOver(session("pay-abandoned"));
    const id = made.body.transaction_id as string;
    await drain();
    expect(receivedFor("pay-abandoned")).toEqual([]);
    try {
      advanceClock(SESSION_HOLD_MS + 60_000);
      await drain();
    } finally {
      resetClock();
    }
    const transaction = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(transaction.state).toBe("expired");
    const secret = (await loadConnection(database.db, alpha.merchantId))!.signing_secret;
    const delivery = received.find((entry) => JSON.parse(entry.body).id === "pay-abandoned")!;
    expect(verified(delivery, secret)).toMatchObject({
      action: "reject",
      reason: { code: "PAYMENT_EXPIRED" },
      state: "expired",
    });
  });

  it("asks the gateway before telling reject: a customer still on the card page when the session ends is resolved, never rejected", async () => {
    const made = await handOver(session("pay-slow"));
    const id = made.body.transaction_id as string;
    const cardPage = await startOnOptionsPage(id);
    try {
      advanceClock(SESSION_HOLD_MS + 60_000);
      await drain();
      expect(
        (await database.db.selectFrom("transactions").select("state").where("id", "=", id).executeTakeFirstOrThrow())
          .state,
      ).toBe("expired");
      // The attempt is still open at its gateway: the reject waits for it.
      expect(receivedFor("pay-slow")).toEqual([]);
      await submitCard(cardPage);
      await drain();
      expect(receivedFor("pay-slow").map((body) => body.action)).toEqual(["resolve"]);
      for (let wait = 0; wait <= REJECT_MAX_WAITS; wait++) {
        advanceClock(REJECT_WAIT_MS);
        await drain();
      }
    } finally {
      resetClock();
    }
    expect(receivedFor("pay-slow").map((body) => body.action)).toEqual(["resolve"]);
    expect(
      (await database.db.selectFrom("transactions").select("state").where("id", "=", id).executeTakeFirstOrThrow())
        .state,
    ).toBe("paid");
  });

  it("does not resolve a payment that lands after the shop was told reject: the merchant is asked to refund it", async () => {
    const made = await handOver(session("pay-after-reject"));
    const id = made.body.transaction_id as string;
    const cardPage = await startOnOptionsPage(id);
    try {
      advanceClock(SESSION_HOLD_MS + 60_000);
      await drain();
      for (let wait = 0; wait < REJECT_MAX_WAITS; wait++) {
        expect(receivedFor("pay-after-reject")).toEqual([]);
        advanceClock(REJECT_WAIT_MS);
        await drain();
      }
    } finally {
      resetClock();
    }
    expect(receivedFor("pay-after-reject").map((body) => body.action)).toEqual(["reject"]);
    await submitCard(cardPage);
    await drain();
    expect(receivedFor("pay-after-reject").map((body) => body.action)).toEqual(["reject"]);
    expect(
      (await database.db.selectFrom("transactions").select("state").where("id", "=", id).executeTakeFirstOrThrow())
        .state,
    ).toBe("paid");
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "object_id"])
      .where("action", "=", "shopify_paid_after_reject")
      .execute();
    expect(audit).toEqual([{ action: "shopify_paid_after_reject", object_id: id }]);
    const cookie = await signIn(alpha.admin.username);
    const settings = await (await fetch(`${server.url}/en/shopify/settings`, { headers: { Cookie: cookie } })).text();
    expect(settings).toContain(text("en", "shopify.settings.to_refund"));
    expect(settings).toContain(`/en/shopify/transactions/${id}`);
    const details = await (
      await fetch(`${server.url}/en/shopify/transactions/${id}`, { headers: { Cookie: cookie } })
    ).text();
    expect(details).toContain(text("en", "shopify_public.details.refund_it"));
  });

  it("gives a callback up after its last try, over more than a day, and a manager sends it again from the settings page", async () => {
    const made = await handOver(session("pay-giveup"));
    const id = made.body.transaction_id as string;
    answer("pay-giveup", ...Array.from({ length: CALLBACK_MAX_ATTEMPTS }, () => ({ status: 503 })));
    await payOnOptionsPage(id);
    try {
      await drain();
      for (const wait of RETRY_AFTER_MS) {
        expect(
          await database.db
            .selectFrom("audit_log")
            .select("id")
            .where("action", "=", "shopify_callback_given_up")
            .where("object_id", "=", id)
            .execute(),
        ).toEqual([]);
        advanceClock(wait);
        await drain();
      }
    } finally {
      resetClock();
    }
    expect(receivedFor("pay-giveup")).toHaveLength(CALLBACK_MAX_ATTEMPTS);
    expect(RETRY_AFTER_MS.reduce((sum, wait) => sum + wait, 0)).toBeGreaterThan(24 * 3_600_000);
    expect(
      await database.db
        .selectFrom("audit_log")
        .select("action")
        .where("action", "=", "shopify_callback_given_up")
        .where("object_id", "=", id)
        .execute(),
    ).toHaveLength(1);
    const cookie = await signIn(alpha.admin.username);
    const page = await (await fetch(`${server.url}/en/shopify/settings`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain(`value="${id}"`);
    expect(page).toContain(`>${text("en", "shopify.settings.resend")}<`);
    // Staff cannot; another merchant's manager cannot reach this session.
    const staff = await signIn(alpha.staff.username);
    expect(
      (
        await fetch(
          `${server.url}/en/shopify/settings`,
          form({ intent: "resend", transaction_id: id, action: "resolve" }, staff),
        )
      ).status,
    ).toBe(403);
    const other = await signIn(beta.admin.username);
    await fetch(
      `${server.url}/en/shopify/settings`,
      form({ intent: "resend", transaction_id: id, action: "resolve" }, other),
    );
    await drain();
    expect(receivedFor("pay-giveup")).toHaveLength(CALLBACK_MAX_ATTEMPTS);
    const resent = await fetch(
      `${server.url}/en/shopify/settings`,
      form({ intent: "resend", transaction_id: id, action: "resolve" }, cookie),
    );
    expect(resent.status).toBe(302);
    await drain();
    expect(receivedFor("pay-giveup")).toHaveLength(CALLBACK_MAX_ATTEMPTS + 1);
    const last = await database.db
      .selectFrom("shopify_callbacks")
      .select(["attempt", "status"])
      .where("transaction_id", "=", id)
      .orderBy("attempt", "desc")
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ attempt: CALLBACK_MAX_ATTEMPTS + 1, status: "succeeded" });
    expect(
      await database.db
        .selectFrom("audit_log")
        .select("actor_name")
        .where("action", "=", "shopify_callback_resent")
        .where("object_id", "=", id)
        .execute(),
    ).toEqual([{ actor_name: alpha.admin.username }]);
    // Delivered: nothing more to send.
    const again = await fetch(
      `${server.url}/en/shopify/settings`,
      form({ intent: "resend", transaction_id: id, action: "resolve" }, cookie),
    );
    expect(again.status).toBe(302);
    await drain();
    expect(receivedFor("pay-giveup")).toHaveLength(CALLBACK_MAX_ATTEMPTS + 1);
  });
});
