import dns from "node:dns";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { sessionCookieFrom } from "../support/http-app";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * An installation as in production: private targets not allowed and the sandboxes off. Addresses a
 * merchant saves for the platform to call (webhooks, gateway endpoints) are refused when they are
 * on this machine or a private network, in any spelling, or when their name resolves there; the
 * reason is shown under the field, on the page and in the API, in the reader's language.
 */
let database: TestDatabase;
let server: TestHttpServer;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let token = "";

const INWARD = [
  "http://localhost.:8080/x",
  "http://[::7f00:1]/",
  "http://[2002:7f00:1::]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://2130706433/",
  "http://0x7f.1/",
  "http://0177.0.0.1/",
  "http://0.0.0.0/",
  "http://169.254.169.254/latest/meta-data/",
  "https://inward.example.com/x",
];

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0", WEBHOOK_ALLOW_PRIVATE: "0", SANDBOX: "0" });
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: alpha.admin.username, password: DEMO_PASSWORD }),
  });
  token = ((await response.json()) as { access: string }).access;
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

/** The one name in these tests that resolves: to a private address. */
function resolveInward() {
  return vi.spyOn(dns.promises, "lookup").mockImplementation((async (name: string) => {
    if (name === "inward.example.com")
      return [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.5", family: 4 },
      ];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  }) as unknown as typeof dns.promises.lookup);
}

const api = (method: string, path: string, json: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Accept-Language": "ar", "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });

async function signIn() {
  const response = await fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: alpha.admin.username, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  return sessionCookieFrom(response)!;
}

describe("an address the platform will call", () => {
  it("is refused for a webhook in every inward form, by the API and the page, and nothing is saved", async () => {
    const resolver = resolveInward();
    for (const url of INWARD) {
      const answer = await api("POST", "/api/v1/admin/webhooks", { url, events: ["payment.succeeded"] });
      expect(answer.status, url).toBe(400);
      expect(await answer.json(), url).toEqual({
        url: ["هذا العنوان على شبكة خاصة أو على هذا الجهاز؛ تُرسل الإشعارات إلى عناوين عامة فقط."],
      });
    }
    expect(resolver).toHaveBeenCalledWith("inward.example.com", expect.anything());
    const cookie = await signIn();
    const page = await fetch(`${server.url}/en/admin/webhooks`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["url", "http://[::ffff:7f00:1]:9/x"],
        ["events", "payment.succeeded"],
      ]),
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(
      "This address is on a private network or this machine; webhooks go to public addresses only.",
    );
    expect(
      await database.db
        .selectFrom("webhook_endpoints")
        .select("id")
        .where("merchant_id", "=", alpha.merchantId)
        .execute(),
    ).toEqual([]);

    const publicAddress = await api("POST", "/api/v1/admin/webhooks", {
      url: "https://93.184.216.34/hooks",
      events: ["payment.succeeded"],
    });
    expect(publicAddress.status).toBe(201);
  });

  it("is refused for a gateway's endpoint in every inward form while the sandboxes are off", async () => {
    resolveInward();
    for (const endpoint_url of INWARD) {
      const answer = await api("POST", "/api/v1/admin/gateways", {
        kind: "mpgs",
        code: "card-inward",
        name_en: "Card",
        name_ar: "بطاقة",
        currencies: ["KWD"],
        endpoint_url,
        credentials: { merchant_id: "TEST1", api_password: "x", notification_secret: "y" },
      });
      expect(answer.status, endpoint_url).toBe(400);
      expect((await answer.json()).endpoint_url, endpoint_url).toEqual([
        "هذا العنوان على شبكة خاصة أو على هذا الجهاز؛ أدخل العنوان العام للبوابة.",
      ]);
    }
    expect(await database.db.selectFrom("gateways").select("id").where("code", "=", "card-inward").execute()).toEqual(
      [],
    );
  });
});
