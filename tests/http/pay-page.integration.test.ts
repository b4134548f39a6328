import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

// server.js serves GET /:lang/pay/:id with a handler of its own, in front of the router; the
// router still serves the page after a refused form. Customers must not tell the two apart.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  token = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

async function createRequest(body: Record<string, unknown> = {}) {
  const response = await app.request("/api/v1/plugins/payment_request/transaction", {
    json: {
      amount: "12.500",
      currency_code: "KWD",
      customer_first_name: "Fatima",
      customer_email: "fatima@example.com",
      description: "2 × Abaya\nGift wrapping for a long description line",
      remarks: "Size:M~Colour:Black",
      pg_codes: ["knet-sandbox", "cod"],
      ...body,
    },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

/** The page's <main>, without what differs on every render (CSP nonce, double-submit token). */
function mainOf(html: string) {
  const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "";
  return main
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/name="submission_token" value="[^"]*"/g, 'name="submission_token" value=""');
}

describe("GET /:lang/pay/:id without the router", () => {
  it("renders the same page as the router, in English and in Arabic, with the amount the customer typed", async () => {
    const { id } = await createRequest({ editable_amount: true });
    for (const path of [`/en/pay/${id}`, `/ar/pay/${id}`, `/en/pay/${id}?amount=20&gateway=cod`]) {
      const direct = await app.requestPayPage(path);
      const routed = await app.request(path);
      expect(direct.status).toBe(200);
      expect(routed.status).toBe(200);
      const html = await direct.text();
      expect(mainOf(html)).toBe(mainOf(await routed.text()));
      expect(mainOf(html)).toContain("Gift wrapping for a long description line");
    }
    const arabic = await (await app.requestPayPage(`/ar/pay/${id}`)).text();
    expect(arabic).toContain('<html lang="ar" dir="rtl"');
    expect(arabic).toContain("اختر طريقة الدفع");
    const chosen = await (await app.requestPayPage(`/en/pay/${id}?amount=20&gateway=cod`)).text();
    const checked = [...chosen.matchAll(/<input type="radio"[^>]*>/g)].filter(([tag]) => tag.includes("checked"));
    expect(checked.map(([tag]) => /value="([^"]+)"/.exec(tag)?.[1])).toEqual(["cod"]);
    // One Pay button per method, each with its own total; cash on delivery confirms the order.
    const buttons = [
      ...chosen.matchAll(/<button([^>]*name="pay_with"[^>]*)><span class="pay-now__label">([^<]*)<\/span>/g),
    ].map((match) => [/value="([^"]+)"/.exec(match[1])?.[1], match[2]]);
    expect(buttons).toEqual([
      ["knet-sandbox", "Pay Now KWD\u00a020.000"],
      ["cod", "Confirm order"],
    ]);
  });

  it("pays with the method of the button pressed, and with the chosen method when Enter sends the form", async () => {
    const { id } = await createRequest();
    const post = (fields: Record<string, string>) =>
      app.request(`/en/pay/${id}`, { method: "POST", form: { submission_token: `t-${Math.random()}`, ...fields } });
    // The customer chose KNET, but pressed the cash-on-delivery button (a browser showing every button).
    const pressed = await post({ gateway_code: "knet-sandbox", pay_with: "cod" });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get("Location")).toMatch(/^\/en\/pay\/attempt-detail\//);
    const attempts = await database.db
      .selectFrom("payment_attempts")
      .select("gateway_code")
      .where("transaction_id", "=", id)
      .execute();
    expect(attempts.map((row) => row.gateway_code)).toEqual(["cod"]);
    // Enter presses the form's default button, which names no method: the chosen radio is paid.
    const other = await createRequest();
    const entered = await app.request(`/en/pay/${other.id}`, {
      method: "POST",
      form: { submission_token: "enter", gateway_code: "cod" },
    });
    expect(entered.status).toBe(303);
    const enteredAttempts = await database.db
      .selectFrom("payment_attempts")
      .select("gateway_code")
      .where("transaction_id", "=", other.id)
      .execute();
    expect(enteredAttempts.map((row) => row.gateway_code)).toEqual(["cod"]);
  });

  it("pays only with a method the page offers: one that no longer takes the link's currency is refused", async () => {
    const { id } = await createRequest({ pg_codes: ["knet-sandbox", "mpgs-sandbox"] });
    await database.db
      .updateTable("gateways")
      .set({ currencies: "USD" })
      .where("merchant_id", "=", alpha.merchantId)
      .where("code", "=", "mpgs-sandbox")
      .execute();
    try {
      const page = await (await app.request(`/en/pay/${id}`)).text();
      expect(page).not.toContain('value="mpgs-sandbox"');
      const forged = await app.request(`/en/pay/${id}`, {
        method: "POST",
        form: { submission_token: "forged", gateway_code: "knet-sandbox", pay_with: "mpgs-sandbox" },
      });
      expect(forged.status).toBe(400);
      expect(
        await database.db.selectFrom("payment_attempts").select("id").where("transaction_id", "=", id).execute(),
      ).toEqual([]);
    } finally {
      await database.db
        .updateTable("gateways")
        .set({ currencies: "KWD,USD" })
        .where("merchant_id", "=", alpha.merchantId)
        .where("code", "=", "mpgs-sandbox")
        .execute();
    }
  });

  it("tells the customer of an expired link how to reach the merchant, with what the merchant has set", async () => {
    const { id } = await createRequest();
    await database.db
      .updateTable("transactions")
      .set({ expiration_time: "2020-01-01T00:00:00.000Z" })
      .where("id", "=", id)
      .execute();
    const none = await (await app.requestPayPage(`/en/pay/${id}`)).text();
    expect(none).toContain("Transaction cannot be paid as it is expired");
    expect(none).not.toContain("mailto:");
    await database.db
      .updateTable("merchants")
      .set({ contact_email: "desk@alpha.example", contact_phone: "+965 2200 1122" })
      .where("id", "=", alpha.merchantId)
      .execute();
    await database.db
      .updateTable("units")
      .set({ website: "https://alpha.example/shop" })
      .where("merchant_id", "=", alpha.merchantId)
      .execute();
    try {
      for (const lang of ["en", "ar"]) {
        const html = await (await app.requestPayPage(`/${lang}/pay/${id}`)).text();
        expect(html).toContain('href="mailto:desk@alpha.example"');
        expect(html).toContain('href="tel:+96522001122"');
        expect(html).toContain("+965 2200 1122");
        expect(html).toContain('href="https://alpha.example/shop"');
        // The address wraps after its @, never inside a name.
        expect(html).toContain('desk@</span><wbr/><span class="email-address__part">alpha.example');
      }
    } finally {
      await database.db
        .updateTable("merchants")
        .set({ contact_email: null, contact_phone: null })
        .where("id", "=", alpha.merchantId)
        .execute();
      await database.db
        .updateTable("units")
        .set({ website: null })
        .where("merchant_id", "=", alpha.merchantId)
        .execute();
    }
  });

  it("sends the security headers, and its one script carries the CSP's nonce", async () => {
    const { id } = await createRequest();
    const response = await app.requestPayPage(`/en/pay/${id}`);
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' https:");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
    expect(scripts).toEqual([` nonce="${nonce}"`]);
  });

  it("answers an unknown link 404 'Transaction not found'", async () => {
    const response = await app.requestPayPage(`/en/pay/${"Z".repeat(22)}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Transaction not found");
  });

  it("answers 423 while the merchant is paused, and sends a closed link on to its next_url", async () => {
    const { id } = await createRequest({ next_url: "https://shop.example/thanks" });
    await database.db.updateTable("merchants").set({ is_active: 0 }).where("id", "=", alpha.merchantId).execute();
    const paused = await app.requestPayPage(`/en/pay/${id}`);
    expect(paused.status).toBe(423);
    expect(await paused.text()).toContain("Sorry, we don&#x27;t accept payments for the moment");
    await database.db.updateTable("merchants").set({ is_active: 1 }).where("id", "=", alpha.merchantId).execute();

    await database.db.updateTable("transactions").set({ state: "canceled" }).where("id", "=", id).execute();
    const closed = await app.requestPayPage(`/en/pay/${id}`);
    expect(closed.status).toBe(302);
    expect(closed.headers.get("Location")).toBe("https://shop.example/thanks");
    expect((await app.request(`/en/pay/${id}`)).headers.get("Location")).toBe("https://shop.example/thanks");

    // An address with Arabic in it is sent on percent-encoded, as a Location header must be.
    await database.db
      .updateTable("transactions")
      .set({ next_url: "https://shop.example/شكرا" })
      .where("id", "=", id)
      .execute();
    const arabic = await app.requestPayPage(`/ar/pay/${id}`);
    expect(arabic.status).toBe(302);
    expect(arabic.headers.get("Location")).toBe("https://shop.example/%D8%B4%D9%83%D8%B1%D8%A7");
    const created = await createRequest({ next_url: "https://shop.example/شكرا?ref=1" });
    const stored = await database.db
      .selectFrom("transactions")
      .select("next_url")
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(stored.next_url).toBe("https://shop.example/%D8%B4%D9%83%D8%B1%D8%A7?ref=1");
  });
});

describe("who opens a link", () => {
  const PREVIEWERS = [
    "WhatsApp/2.24.6.77 A",
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "TelegramBot (like TwitterBot)",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
    "Microsoft Office Existence Discovery",
    "Google-Safety",
    "curl/8.5.0",
    "",
  ];
  const stateOf = async (id: string) =>
    (await database.db.selectFrom("transactions").select("state").where("id", "=", id).executeTakeFirstOrThrow()).state;

  it("leaves a request Created while link previewers, mail scanners and scripts fetch it, by either handler", async () => {
    const { id } = await createRequest();
    for (const agent of PREVIEWERS) {
      expect((await app.requestPayPage(`/en/pay/${id}`, agent)).status).toBe(200);
      expect((await app.request(`/ar/pay/${id}`, { headers: { "User-Agent": agent } })).status).toBe(200);
      expect(await stateOf(id), agent).toBe("created");
    }
    expect((await app.request(`/en/pay/${id}`, { method: "HEAD" })).status).toBe(200);
    expect(await stateOf(id)).toBe("created");
  });

  it("marks it Pending when a person's browser opens it", async () => {
    const direct = await createRequest();
    await app.requestPayPage(`/en/pay/${direct.id}`);
    expect(await stateOf(direct.id)).toBe("pending");
    const routed = await createRequest();
    await app.request(`/ar/pay/${routed.id}`, {
      headers: {
        "User-Agent":
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      },
    });
    expect(await stateOf(routed.id)).toBe("pending");
  });
});
