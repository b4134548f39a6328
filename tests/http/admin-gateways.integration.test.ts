import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { sessionCookieFrom } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Gateways in the administration panel, against this installation's own KNET and Mastercard Gateway sandboxes
 * reached at their addresses as a real gateway would be: credentials entered once, sealed, never
 * shown again; Test connection; the order customers see.
 */
let database: TestDatabase;
let server: TestHttpServer;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let alphaToken = "";
let betaToken = "";
let terminal: { tranportal_id: string; password: string; resource_key: string };
let mpgs: { merchant_id: string; api_password: string; notification_secret: string };

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  alphaToken = await tokenOf(alpha.admin.username);
  betaToken = await tokenOf(beta.admin.username);
  terminal = await database.db.selectFrom("sandbox_knet_terminals").selectAll().executeTakeFirstOrThrow();
  mpgs = await database.db.selectFrom("sandbox_mpgs_merchants").selectAll().executeTakeFirstOrThrow();
});
afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

async function tokenOf(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}
const call = (method: string, path: string, token: string, json?: unknown, lang = "en") =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      "Accept-Language": lang,
      ...(json === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

async function signIn(username: string) {
  const response = await fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  return sessionCookieFrom(response)!;
}

let knetId = 0;

describe("gateways in the administration panel", () => {
  it("adds a KNET gateway with its credentials, which are never shown again anywhere", async () => {
    const created = await call("POST", "/api/v1/admin/gateways", alphaToken, {
      kind: "knet",
      code: "knet-main",
      name_en: "KNET",
      name_ar: "كي نت",
      currencies: ["KWD"],
      fee_fixed: "0.100",
      fee_percentage: "1.5",
      fee_payer: "customer",
      mode: "test",
      endpoint_url: `${server.url}/sandbox/knet`,
      credentials: {
        tranportal_id: terminal.tranportal_id,
        tranportal_password: terminal.password,
        resource_key: terminal.resource_key,
      },
    });
    expect(created.status).toBe(201);
    const gateway = await created.json();
    knetId = gateway.id;
    expect(gateway).toMatchObject({
      code: "knet-main",
      kind: "knet",
      enabled: false,
      fee_fixed: "0.100",
      fee_percentage: "1.50",
      fee_payer: "customer",
      mode: "test",
      uses_sandbox: false,
    });
    expect(gateway.credentials).toEqual([
      { field: "tranportal_id", set: true },
      { field: "tranportal_password", set: true },
      { field: "resource_key", set: true },
    ]);
    expect(gateway.credentials_set_at).toBeTruthy();

    const secrets = [terminal.password, terminal.resource_key];
    const cookie = await signIn(alpha.admin.username);
    const seen = [
      JSON.stringify(gateway),
      await (await call("GET", "/api/v1/admin/gateways", alphaToken)).text(),
      await (await call("GET", `/api/v1/admin/gateways/${knetId}`, alphaToken)).text(),
      await (await fetch(`${server.url}/en/admin/gateways`, { headers: { Cookie: cookie } })).text(),
      await (await fetch(`${server.url}/en/admin/gateways/${knetId}`, { headers: { Cookie: cookie } })).text(),
      await (await fetch(`${server.url}/ar/admin/gateways/${knetId}`, { headers: { Cookie: cookie } })).text(),
      JSON.stringify(await database.db.selectFrom("audit_log").selectAll().execute()),
      JSON.stringify(
        await database.db.selectFrom("gateways").select(["credentials"]).where("id", "=", knetId).execute(),
      ),
    ];
    for (const text of seen) for (const secret of secrets) expect(text).not.toContain(secret);
    expect(seen[4]).toContain("Tranportal password");
  });

  it("Test connection says whether the gateway accepts the credentials, in the reader's language", async () => {
    const tested = await call("POST", `/api/v1/admin/gateways/${knetId}/test`, alphaToken);
    expect(await tested.json()).toMatchObject({
      result: "connected",
      message: "Connected: the gateway accepted the credentials.",
    });

    // New credentials replace the old: a wrong password is refused by KNET.
    const changed = await call("PATCH", `/api/v1/admin/gateways/${knetId}`, alphaToken, {
      credentials: { tranportal_password: "not-the-pass" },
    });
    expect(changed.status).toBe(200);
    const refused = await (
      await call("POST", `/api/v1/admin/gateways/${knetId}/test`, alphaToken, undefined, "ar")
    ).json();
    expect(refused).toMatchObject({ result: "refused", message: "أجابت البوابة لكنها رفضت بيانات الاعتماد." });
    // KNET's own refusal of the terminal's password, as tranPipe answers it.
    expect(refused.detail).toContain("IPAY0100015");
    // Moved to another address, the stored credentials do not follow: they are asked for again.
    const moved = await call("PATCH", `/api/v1/admin/gateways/${knetId}`, alphaToken, {
      endpoint_url: "https://kpay.example/kpg",
    });
    expect(Object.keys(await moved.json()).sort()).toEqual([
      "credentials.resource_key",
      "credentials.tranportal_id",
      "credentials.tranportal_password",
    ]);
    // Fields left out keep what is stored.
    await call("PATCH", `/api/v1/admin/gateways/${knetId}`, alphaToken, {
      credentials: { tranportal_password: terminal.password },
    });
    expect((await (await call("POST", `/api/v1/admin/gateways/${knetId}/test`, alphaToken)).json()).result).toBe(
      "connected",
    );

    const nowhere = await call("POST", "/api/v1/admin/gateways", alphaToken, {
      kind: "mpgs",
      code: "card-nowhere",
      name_en: "Card",
      name_ar: "بطاقة",
      currencies: ["KWD", "USD"],
      endpoint_url: "http://127.0.0.1:9/acquirer",
      credentials: { merchant_id: "TEST1", api_password: "x", notification_secret: "y" },
    });
    const id = (await nowhere.json()).id;
    expect((await (await call("POST", `/api/v1/admin/gateways/${id}/test`, alphaToken)).json()).result).toBe(
      "unreachable",
    );

    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "description"])
      .where("action", "=", "gateway_tested")
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.description)).toEqual([
      "Tested the connection of the gateway KNET: Connected: the gateway accepted the credentials.",
      "Tested the connection of the gateway KNET: The gateway answered, but refused the credentials.",
      "Tested the connection of the gateway KNET: Connected: the gateway accepted the credentials.",
      "Tested the connection of the gateway Card: The gateway could not be reached.",
    ]);
  });

  it("the Mastercard Gateway's merchant id and API password are checked the same way", async () => {
    const created = await call("POST", "/api/v1/admin/gateways", alphaToken, {
      kind: "mpgs",
      code: "card-main",
      name_en: "Visa / Mastercard",
      name_ar: "فيزا / ماستركارد",
      currencies: ["KWD"],
      capture_mode: "manual",
      endpoint_url: `${server.url}/sandbox/mpgs`,
      credentials: {
        merchant_id: mpgs.merchant_id,
        api_password: mpgs.api_password,
        notification_secret: mpgs.notification_secret,
      },
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).id;
    expect((await (await call("POST", `/api/v1/admin/gateways/${id}/test`, alphaToken)).json()).result).toBe(
      "connected",
    );
    await call("PATCH", `/api/v1/admin/gateways/${id}`, alphaToken, { credentials: { api_password: "wrong" } });
    expect((await (await call("POST", `/api/v1/admin/gateways/${id}/test`, alphaToken)).json()).result).toBe("refused");
  });

  it("refuses what cannot work, by field, and loses nothing", async () => {
    const bad = await call("POST", "/api/v1/admin/gateways", alphaToken, {
      kind: "knet",
      code: "Bad Code",
      name_en: "",
      name_ar: "كي نت",
      currencies: ["USD"],
      fee_percentage: "45",
      capture_mode: "manual",
      mode: "live",
      credentials: { tranportal_id: "1", tranportal_password: "p", resource_key: "short", pin: "1234" },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(await bad.json()).sort()).toEqual([
      "capture_mode",
      "code",
      "credentials",
      "credentials.resource_key",
      "currencies",
      "endpoint_url",
      "fee_percentage",
      "name_en",
    ]);
    const taken = await call("POST", "/api/v1/admin/gateways", alphaToken, {
      kind: "cod",
      code: "knet-main",
      name_en: "Cash",
      name_ar: "نقدًا",
      currencies: ["KWD"],
    });
    expect(await taken.json()).toEqual({ code: ["Another gateway of this merchant has this code."] });
    const partial = await call("POST", "/api/v1/admin/gateways", alphaToken, {
      kind: "knet",
      code: "knet-two",
      name_en: "K",
      name_ar: "ك",
      currencies: ["KWD"],
      endpoint_url: "https://kpay.example/kpg",
      credentials: { tranportal_id: "123" },
    });
    expect(Object.keys(await partial.json()).sort()).toEqual([
      "credentials.resource_key",
      "credentials.tranportal_password",
    ]);
    expect(
      (await call("GET", "/api/v1/admin/gateways", alphaToken).then((response) => response.json())).some(
        (gateway: { code: string }) => gateway.code === "knet-two",
      ),
    ).toBe(false);
    // Added without credentials (they are entered on its page next), it cannot be turned on until they are.
    const later = await call("POST", "/api/v1/admin/gateways", alphaToken, {
      kind: "knet",
      code: "knet-two",
      name_en: "K",
      name_ar: "ك",
      currencies: ["KWD"],
      endpoint_url: "https://kpay.example/kpg",
    });
    expect(later.status).toBe(201);
    const laterId = (await later.json()).id;
    const on = await call("PATCH", `/api/v1/admin/gateways/${laterId}`, alphaToken, { enabled: true });
    expect(await on.json()).toEqual({ enabled: ["Enter the gateway's credentials before turning it on."] });
  });

  it("turns gateways on and off and orders them, from the page without JavaScript", async () => {
    const cookie = await signIn(alpha.admin.username);
    const post = (body: Record<string, string>) =>
      fetch(`${server.url}/en/admin/gateways`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
        redirect: "manual",
      });
    expect((await post({ intent: "enable", id: String(knetId) })).status).toBe(302);
    const before = (
      (await (await call("GET", "/api/v1/admin/gateways", alphaToken)).json()) as { id: number; enabled: boolean }[]
    ).map((gateway) => gateway.id);
    const position = before.indexOf(knetId);
    expect((await post({ intent: "up", id: String(knetId) })).status).toBe(302);
    const after = (await (await call("GET", "/api/v1/admin/gateways", alphaToken)).json()) as {
      id: number;
      enabled: boolean;
    }[];
    expect(after.map((gateway) => gateway.id).indexOf(knetId)).toBe(position - 1);
    expect(after.find((gateway) => gateway.id === knetId)?.enabled).toBe(true);
    // Customers see it, in that order: the pay choices of a request for KNET.
    const request = await call("POST", "/api/v1/plugins/payment_request/transaction", alphaToken, {
      amount: "1.000",
      currency_code: "KWD",
      pg_codes: ["knet-main"],
    });
    expect(request.status).toBe(201);
  });

  it("sets up KNET from the pages without JavaScript: the fields KNET's manual gives, the addresses to give the bank, and Test connection", async () => {
    const cookie = await signIn(alpha.admin.username);
    const post = (path: string, body: URLSearchParams) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
      });
    const added = await post(
      "/en/admin/gateways",
      new URLSearchParams({
        intent: "add",
        kind: "knet",
        code: "knet-page",
        name_en: "KNET page",
        name_ar: "كي نت",
        currencies: "KWD",
        endpoint_url: `${server.url}/sandbox/knet`,
      }),
    );
    expect(added.status).toBe(302);
    const page = added.headers.get("Location")!;
    const id = Number(page.split("/").pop());
    const row = () =>
      database.db
        .selectFrom("gateways")
        .select(["name_en", "credentials", "credentials_set_at"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();

    // responseURL and errorURL, read-only to copy or select, with the host KNET must allow.
    const html = await (await fetch(`${server.url}${page}`, { headers: { Cookie: cookie } })).text();
    const inputs = html.match(/<input[^>]*>/g) ?? [];
    for (const leg of ["response", "error"]) {
      expect(
        inputs.filter(
          (input) =>
            input.includes(`value="${server.url}/gateway/knet/${leg}/"`) && /\sreadonly(=""|\s|>)/i.test(input),
        ),
        leg,
      ).toHaveLength(1);
    }
    expect(html).toContain(`KNET must allow this host (${new URL(server.url).host})`);
    expect(html).toContain("At most 15 characters, as the bank gave it.");
    const arabic = await (
      await fetch(`${server.url}${page.replace("/en/", "/ar/")}`, { headers: { Cookie: cookie } })
    ).text();
    expect(arabic).toContain("عنوان الاستجابة");
    expect(arabic).toContain(`يجب أن تسمح كي نت بهذا النطاق (${new URL(server.url).host})`);

    const form = (credentials: Record<string, string>, name_en = "KNET page") =>
      new URLSearchParams({
        intent: "save",
        name_en,
        name_ar: "كي نت",
        currencies: "KWD",
        fee_fixed: "0",
        fee_percentage: "0",
        fee_payer: "merchant",
        mode: "test",
        endpoint_url: `${server.url}/sandbox/knet`,
        ...Object.fromEntries(Object.entries(credentials).map(([field, value]) => [`credentials.${field}`, value])),
      });
    // A password longer than KNET's 15 characters and a resource key that is not 16: refused by field, in the reader's language, and nothing saved.
    const before = await row();
    const bad = {
      tranportal_id: terminal.tranportal_id,
      tranportal_password: "sixteen-chars-xx",
      resource_key: terminal.resource_key.slice(1),
    };
    const refused = await post(page, form(bad, "Renamed"));
    expect(refused.status).toBe(400);
    const refusedText = await refused.text();
    expect(refusedText).toContain("A KNET tranportal password has at most 15 characters.");
    expect(refusedText).toContain("A KNET resource key has 16 characters.");
    const refusedArabic = await (await post(page.replace("/en/", "/ar/"), form(bad, "Renamed"))).text();
    expect(refusedArabic).toContain("كلمة مرور طرفية كي نت 15 حرفًا على الأكثر.");
    expect(refusedArabic).toContain("يتكوّن مفتاح المورد في كي نت من 16 حرفًا.");
    expect(await row()).toEqual(before);
    const usd = await post(page, new URLSearchParams([...form({}).entries(), ["currencies", "USD"]]));
    expect(await usd.text()).toContain("KNET takes Kuwaiti dinars only.");

    const saved = await post(
      page,
      form({
        tranportal_id: terminal.tranportal_id,
        tranportal_password: terminal.password,
        resource_key: terminal.resource_key,
      }),
    );
    expect(saved.status).toBe(302);
    expect((await row()).credentials_set_at).toBeTruthy();

    // Test connection: an inquiry for a track id KNET never saw, asked of the sandbox at its address; the answer in the page.
    const connected = await post(page, new URLSearchParams({ intent: "test" }));
    expect(connected.status).toBe(200);
    const connectedText = await connected.text();
    expect(connectedText).toContain("Connected: the gateway accepted the credentials.");
    expect(connectedText).toContain("KNET answered an inquiry for a test track id");
    expect(await (await post(page.replace("/en/", "/ar/"), new URLSearchParams({ intent: "test" }))).text()).toContain(
      "متصل: قبلت البوابة بيانات الاعتماد.",
    );
    expect((await post(page, form({ tranportal_password: "wrong-password" }))).status).toBe(302);
    const wrong = await (await post(page.replace("/en/", "/ar/"), new URLSearchParams({ intent: "test" }))).text();
    expect(wrong).toContain("أجابت البوابة لكنها رفضت بيانات الاعتماد.");
    expect(wrong).toContain("IPAY0100015");
  });

  it("the API refuses a tranportal password longer than KNET's 15 characters, and adds nothing", async () => {
    const refused = await call(
      "POST",
      "/api/v1/admin/gateways",
      alphaToken,
      {
        kind: "knet",
        code: "knet-long",
        name_en: "K",
        name_ar: "ك",
        currencies: ["KWD"],
        endpoint_url: `${server.url}/sandbox/knet`,
        credentials: { tranportal_id: "1", tranportal_password: "sixteen-chars-xx", resource_key: "0123456789abcdef" },
      },
      "ar",
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      "credentials.tranportal_password": ["كلمة مرور طرفية كي نت 15 حرفًا على الأكثر."],
    });
    expect(await database.db.selectFrom("gateways").select("id").where("code", "=", "knet-long").execute()).toEqual([]);
  });

  it("another merchant can read and change nothing of them", async () => {
    expect((await call("GET", `/api/v1/admin/gateways/${knetId}`, betaToken)).status).toBe(404);
    expect((await call("PATCH", `/api/v1/admin/gateways/${knetId}`, betaToken, { enabled: false })).status).toBe(404);
    expect((await call("POST", `/api/v1/admin/gateways/${knetId}/test`, betaToken)).status).toBe(404);
    const listed = (await (await call("GET", "/api/v1/admin/gateways", betaToken)).json()) as { id: number }[];
    expect(listed.map((gateway) => gateway.id)).not.toContain(knetId);
    const cookie = await signIn(beta.admin.username);
    expect((await fetch(`${server.url}/en/admin/gateways/${knetId}`, { headers: { Cookie: cookie } })).status).toBe(
      404,
    );
  });
});
