import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import ar from "../../locales/ar/common.json";
import { IssueCodeSchema, issueCode } from "~/sections/code-pairing/domain/codes.server";
import { addressGroup, pairCode, type MakeRequest } from "~/sections/code-pairing/domain/pairing.server";
import { findOpenSite, isRefusedHost, saveSite } from "~/sections/code-pairing/domain/sites.server";
import { sectionServer as paymentRequests } from "~/sections/payment-request/section.server";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// A customer types a code and its paired value on /cpr, or the merchant's site sends them to the API:
// the right pair lands on the pay page of a payment request made for that use; a wrong code and a
// wrong paired value read the same; failed tries are throttled, page and API alike; a code is never
// used more often than it may be, even when tries come at once.

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let gamma: Awaited<ReturnType<typeof seedMerchant>>;
let delta: Awaited<ReturnType<typeof seedMerchant>>;

const API = "/api/v1/plugins/code_pairing";
const ALPHA_SITE = "school.alpha.example";
const BETA_SITE = "shop.beta.example";
const GAMMA_SITE = "fees.gamma.example";
const DELTA_SITE = "club.delta.example";
const catalogs = { en, ar } as const;

function text(lang: "en" | "ar", key: string, values: Record<string, string | number> = {}) {
  const found = key.split(".").reduce<any>((node, part) => node?.[part], catalogs[lang]);
  if (typeof found !== "string") throw new Error(`no text ${key}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
}
const escape = (value: string) =>
  value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const errorUnder = (html: string, field: string) =>
  new RegExp(`id="field-${field}-error">([^<]*)<`).exec(html)?.[1] ?? null;
/** The error a dashboard form shows under its site host field. */
const hostError = (html: string) => /id="cpr-site-host-error"[^>]*>([^<]*)</.exec(html)?.[1] ?? null;

let ipCounter = 0;
/** A fresh client address, so that one test's failed tries do not hold back another's. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function issue(
  merchant: { merchantId: number; admin: { id: number; username: string } },
  values: Record<string, string>,
) {
  const issued = await issueCode(database.db, {
    merchantId: merchant.merchantId,
    actor: merchant.admin,
    values: IssueCodeSchema.parse({ amount: "12.500", currency_code: "KWD", ...values }),
  });
  if (!issued.ok) throw new Error(JSON.stringify(issued.errors));
  return issued.code;
}

const validate = (body: Record<string, unknown>, options: { ip?: string; lang?: "en" | "ar" } = {}) =>
  app.request(`${API}/validate`, {
    json: { referer: `https://${ALPHA_SITE}/fees`, ...body },
    ip: options.ip ?? freshIp(),
    headers: { "Accept-Language": options.lang ?? "en" },
  });

const usesOf = async (code: string) =>
  (
    await database.db
      .selectFrom("code_pairing_uses")
      .innerJoin("code_pairing_codes", "code_pairing_codes.id", "code_pairing_uses.code_id")
      .select("code_pairing_uses.transaction_id")
      .where("code_pairing_codes.code", "=", code)
      .execute()
  ).map((row) => row.transaction_id);

/** What the gateway's answer or the expiry would have made of the payment. */
const setState = (id: string, state: "paid" | "expired" | "canceled" | "attempted" | "failed") =>
  database.db.updateTable("transactions").set({ state }).where("id", "=", id).execute();

const transactionOf = (id: string) =>
  database.db.selectFrom("transactions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  gamma = await seedMerchant(database.db, "Gamma");
  delta = await seedMerchant(database.db, "Delta");
  for (const [merchant, host, label_en, label_ar] of [
    [alpha, ALPHA_SITE, "Civil ID", "الرقم المدني"],
    [beta, BETA_SITE, "Booking number", "رقم الحجز"],
    [gamma, GAMMA_SITE, "Civil ID", "الرقم المدني"],
    [delta, DELTA_SITE, "Member number", "رقم العضوية"],
  ] as const) {
    const saved = await saveSite(database.db, {
      merchantId: merchant.merchantId,
      actor: merchant.admin,
      host,
      label_en,
      label_ar,
    });
    if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  }
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

describe("verify-referer", () => {
  it("answers the site's paired field label in the caller's language, and 404 for a site no merchant has", async () => {
    const english = await app.request(`${API}/verify-referer`, {
      json: { referer: `https://www.${ALPHA_SITE}/pay?x=1` },
      headers: { "Accept-Language": "en" },
    });
    expect(english.status).toBe(200);
    expect((await english.json()).field_label).toBe("Civil ID");
    const arabic = await app.request(`${API}/verify-referer`, {
      json: { referer: `https://${ALPHA_SITE}/` },
      headers: { "Accept-Language": "ar" },
    });
    expect((await arabic.json()).field_label).toBe("الرقم المدني");
    const unknown = await app.request(`${API}/verify-referer`, { json: { referer: "https://nobody.example/" } });
    expect(unknown.status).toBe(404);
    const missing = await app.request(`${API}/verify-referer`, { json: {}, headers: { "Accept-Language": "ar" } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).referer).toEqual([text("ar", "errors.required")]);
  });
});

describe("validate", () => {
  it("answers the pay page of a new payment request for the code's amount, made by the code pairing", async () => {
    const code = await issue(alpha, { code: "fees-0417", pair: "298041501234", description: "Tuition, third term" });
    const response = await validate({ code: "FEES 0417", pair: "٢٩٨٠٤١٥٠١٢٣٤" });
    expect(response.status).toBe(200);
    const { redirect_url, transaction_id } = await response.json();
    expect(redirect_url).toMatch(new RegExp(`/en/pay/${transaction_id}$`));
    const transaction = await transactionOf(transaction_id);
    expect(transaction.merchant_id).toBe(alpha.merchantId);
    expect(transaction.plugin).toBe("payment_request");
    expect(transaction.amount).toBe(12_500);
    expect(transaction.description).toBe("Tuition, third term");
    expect(JSON.parse(transaction.extra ?? "{}").source).toBe("code_pairing");
    expect(code.code).toBe("FEES0417");
    // The pay page it names is the payment's; neither the civil ID nor the code is on it (anyone
    // with the link reads it), nor on the payment's remarks.
    const pay = await app.requestPayPage(new URL(redirect_url).pathname);
    expect(pay.status).toBe(200);
    const html = await pay.text();
    expect(html).toContain("Tuition, third term");
    expect(html).not.toContain("298041501234");
    expect(html).not.toContain("FEES0417");
    expect(html).not.toContain("FEES-0417");
    expect(transaction.remarks ?? "").toBe("");
  });

  it("gives a wrong code and a wrong paired value the same answer", async () => {
    await issue(alpha, { code: "SAME-ANSWER", pair: "111" });
    const wrongPair = await validate({ code: "SAME-ANSWER", pair: "112" }, { lang: "ar" });
    const wrongCode = await validate({ code: "SAME-ANSWEX", pair: "111" }, { lang: "ar" });
    expect(wrongPair.status).toBe(400);
    expect(wrongCode.status).toBe(400);
    const [pairBody, codeBody] = [await wrongPair.json(), await wrongCode.json()];
    expect(pairBody).toEqual(codeBody);
    expect(pairBody).toEqual({ code: [text("ar", "cpr_public.errors.no_match")] });
  });

  it("asks for both fields, under each", async () => {
    const response = await validate({ code: " ", pair: "" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: [text("en", "errors.required")],
      pair: [text("en", "errors.required")],
    });
  });

  it("refuses a code of merchant A on merchant B's site", async () => {
    await issue(alpha, { code: "ALPHA-ONLY", pair: "555" });
    const onBeta = await app.request(`${API}/validate`, {
      json: { referer: `https://${BETA_SITE}/`, code: "ALPHA-ONLY", pair: "555" },
      ip: freshIp(),
    });
    expect(onBeta.status).toBe(400);
    expect(await onBeta.json()).toEqual({ code: [text("en", "cpr_public.errors.no_match")] });
    const unknownSite = await app.request(`${API}/validate`, {
      json: { referer: "https://nobody.example/", code: "ALPHA-ONLY", pair: "555" },
      ip: freshIp(),
    });
    expect(unknownSite.status).toBe(400);
    expect(Object.keys(await unknownSite.json())).toEqual(["referer"]);
  });

  it("refuses an expired or deactivated code once the pair is right", async () => {
    await issue(alpha, { code: "OLD-CODE", pair: "777" });
    await database.db
      .updateTable("code_pairing_codes")
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where("code", "=", "OLDCODE")
      .execute();
    expect(await (await validate({ code: "OLD-CODE", pair: "777" })).json()).toEqual({
      code: [text("en", "cpr_public.errors.expired")],
    });
    await issue(alpha, { code: "STOPPED", pair: "778" });
    await database.db.updateTable("code_pairing_codes").set({ is_active: 0 }).where("code", "=", "STOPPED").execute();
    expect(await (await validate({ code: "STOPPED", pair: "778" })).json()).toEqual({
      code: [text("en", "cpr_public.errors.inactive")],
    });
    // The wrong pair on them still reads as any wrong pair.
    expect(await (await validate({ code: "STOPPED", pair: "779" })).json()).toEqual({
      code: [text("en", "cpr_public.errors.no_match")],
    });
  });

  it("lets a single-use code through once when five tries come at once, every one of them sent to its one payment", async () => {
    await issue(alpha, { code: "ONCE-ONLY", pair: "42" });
    // Five: a try is counted against its code until it is answered, and a code takes five at a time.
    const responses = await Promise.all(Array.from({ length: 5 }, () => validate({ code: "ONCE-ONLY", pair: "42" })));
    expect(responses.map((response) => response.status)).toEqual(Array(5).fill(200));
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(new Set(bodies.map((body) => body.transaction_id)).size).toBe(1);
    expect(await usesOf("ONCEONLY")).toEqual([bodies[0].transaction_id]);
    // Once paid, the code is used.
    await setState(bodies[0].transaction_id, "paid");
    const again = await validate({ code: "ONCE-ONLY", pair: "42" });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ code: [text("en", "cpr_public.errors.used")] });
  });

  it("sends a second click, a refresh or a customer back from a failed attempt to the same pay page, without taking another use", async () => {
    await issue(alpha, { code: "DOUBLE-CLICK", pair: "3030" });
    const first = await app.request(`/en/cpr?site=${ALPHA_SITE}`, {
      form: { site: ALPHA_SITE, code: "DOUBLE-CLICK", pair: "3030" },
      ip: freshIp(),
    });
    expect(first.status).toBe(303);
    const second = await app.request(`/en/cpr?site=${ALPHA_SITE}`, {
      form: { site: ALPHA_SITE, code: "double-click", pair: "3030" },
      ip: freshIp(),
    });
    expect(second.status).toBe(303);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    const id = first.headers.get("Location")!.split("/").pop()!;
    await setState(id, "attempted");
    expect((await (await validate({ code: "DOUBLE-CLICK", pair: "3030" })).json()).transaction_id).toBe(id);
    expect(await usesOf("DOUBLECLICK")).toEqual([id]);
  });

  it("frees a use whose payment expired, was canceled or failed unpaid, and not one that was paid", async () => {
    await issue(alpha, { code: "SECOND-CHANCE", pair: "5050" });
    const take = async () =>
      (await (await validate({ code: "SECOND-CHANCE", pair: "5050" })).json()).transaction_id as string;
    const first = await take();
    await setState(first, "expired");
    const second = await take();
    expect(second).not.toBe(first);
    await setState(second, "canceled");
    const third = await take();
    // A payment past its expiry time frees its use even before anyone opened its page.
    await database.db
      .updateTable("transactions")
      .set({ expiration_time: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", third)
      .execute();
    const fourth = await take();
    expect(new Set([first, second, third, fourth]).size).toBe(4);
    await setState(fourth, "paid");
    expect(await (await validate({ code: "SECOND-CHANCE", pair: "5050" })).json()).toEqual({
      code: [text("en", "cpr_public.errors.used")],
    });
    // The codes page counts the use that holds the code, not the ones given back.
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const list = await (await app.request(`/en/code-pairing/codes`, { cookie })).text();
    const row = list.slice(list.indexOf(">SECONDCHANCE<"));
    expect(row.slice(0, row.indexOf("</tr>"))).toContain(">1 of 1<");
  });

  it("lets a code of several uses make at most its number of payments, one at a time, even when tries come at once", async () => {
    await issue(alpha, { code: "BUS-2026", pair: "900", use: "multi", max_uses: "3" });
    const made: string[] = [];
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(Array.from({ length: 5 }, () => validate({ code: "BUS-2026", pair: "900" })));
      expect(responses.map((response) => response.status)).toEqual(Array(5).fill(200));
      const ids = new Set(
        (await Promise.all(responses.map((response) => response.json()))).map((body) => body.transaction_id as string),
      );
      expect(ids.size).toBe(1);
      made.push(...ids);
      await setState(made[made.length - 1], "paid");
    }
    expect(new Set(made).size).toBe(3);
    expect((await usesOf("BUS2026")).sort()).toEqual([...made].sort());
    const fourth = await validate({ code: "BUS-2026", pair: "900" });
    expect(await fourth.json()).toEqual({ code: [text("en", "cpr_public.errors.used")] });
  });
});

describe("throttling", () => {
  it("stops an address after ten failed tries, on the page and the API alike, saying how long to wait", async () => {
    await issue(alpha, { code: "GUESS-ME", pair: "31337" });
    const ip = freshIp();
    for (let attempt = 0; attempt < 6; attempt++)
      expect((await validate({ code: `WRONG${attempt}X`, pair: "1" }, { ip })).status).toBe(400);
    for (let attempt = 0; attempt < 4; attempt++) {
      const page = await app.request(`/en/cpr?site=${ALPHA_SITE}`, {
        form: { site: ALPHA_SITE, code: `NOPE${attempt}X`, pair: "1" },
        ip,
      });
      expect(page.status).toBe(400);
    }
    // Even the right pair is held back now, on both.
    const api = await validate({ code: "GUESS-ME", pair: "31337" }, { ip });
    expect(api.status).toBe(429);
    expect((await api.json()).detail).toBe(text("en", "cpr_public.errors.throttled", { minutes: 15 }));
    const page = await app.request(`/ar/cpr?site=${ALPHA_SITE}`, {
      form: { site: ALPHA_SITE, code: "GUESS-ME", pair: "31337" },
      ip,
    });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain(escape(text("ar", "cpr_public.errors.throttled", { minutes: 15 })));
    // Another address is not held back.
    expect((await validate({ code: "GUESS-ME", pair: "31337" })).status).toBe(200);
  });

  it("holds when forty wrong tries from one address come at once", async () => {
    const ip = freshIp();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) => validate({ code: `BURST${index}X`, pair: "1" }, { ip })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 400 || status === 429)).toBe(true);
    const answered = statuses.filter((status) => status === 400).length;
    expect(answered).toBeLessThanOrEqual(10);
    // Tries that were refused are not counted; those answered are: one after another, the address
    // gets exactly the rest of its ten answers, then is held back, the right pair included.
    let more = 0;
    while (more < 20 && (await validate({ code: `AFTER${more}X`, pair: "1" }, { ip })).status === 400) more++;
    expect(answered + more).toBe(10);
    await issue(alpha, { code: "AFTER-BURST", pair: "8080" });
    expect((await validate({ code: "AFTER-BURST", pair: "8080" }, { ip })).status).toBe(429);
  });

  it("holds when twenty wrong paired values of one code come at once from many addresses", async () => {
    await issue(alpha, { code: "TARGET-2", pair: "654321" });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => validate({ code: "TARGET-2", pair: `1000${index}` })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 400 || status === 429)).toBe(true);
    const answered = statuses.filter((status) => status === 400).length;
    expect(answered).toBeLessThanOrEqual(5);
    let more = 0;
    while (more < 20 && (await validate({ code: "TARGET-2", pair: `2000${more}` })).status === 400) more++;
    expect(answered + more).toBe(5);
    expect((await validate({ code: "TARGET-2", pair: "654321" })).status).toBe(429);
  });

  it("counts the addresses of one IPv6 /64 as one", async () => {
    await issue(alpha, { code: "SIX-FOUR", pair: "6464" });
    for (let attempt = 1; attempt <= 10; attempt++)
      expect(
        (await validate({ code: `V6WRONG${attempt}`, pair: "1" }, { ip: `2001:db8:77:1::${attempt.toString(16)}` }))
          .status,
      ).toBe(400);
    expect((await validate({ code: "SIX-FOUR", pair: "6464" }, { ip: "2001:db8:77:1:ffff:ffff:ffff:1" })).status).toBe(
      429,
    );
    expect((await validate({ code: "SIX-FOUR", pair: "6464" }, { ip: "2001:db8:77:2::1" })).status).toBe(200);
    expect(addressGroup("2001:0db8:0077:0001:0000:0000:0000:0009")).toBe(addressGroup("2001:db8:77:1::abcd"));
    expect(addressGroup("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(addressGroup("10.1.2.3")).toBe("10.1.2.3");
  });

  it("when the merchant's limit is full, refuses only codes the merchant does not have: its customers still pay", async () => {
    await issue(gamma, { code: "GAMMA-OK", pair: "1111" });
    await issue(gamma, { code: "GAMMA-TWO", pair: "2222" });
    const hitAt = new Date().toISOString();
    await database.db
      .insertInto("throttle_hits")
      .values(Array.from({ length: 300 }, () => ({ bucket: `cpr:merchant:${gamma.merchantId}`, hit_at: hitAt })))
      .execute();
    const onGamma = (body: Record<string, unknown>) =>
      app.request(`${API}/validate`, { json: { referer: `https://${GAMMA_SITE}/`, ...body }, ip: freshIp() });
    const guess = await onGamma({ code: "GAMMA-NOPE", pair: "1111" });
    expect(guess.status).toBe(429);
    expect(guess.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await onGamma({ code: "GAMMA-OK", pair: "1111" })).status).toBe(200);
    // A code it has, with a wrong paired value, is its code's limit's to count.
    const wrongPair = await onGamma({ code: "GAMMA-TWO", pair: "2223" });
    expect(wrongPair.status).toBe(400);
    expect(await wrongPair.json()).toEqual({ code: [text("en", "cpr_public.errors.no_match")] });
  });

  it("stops guessing one code's paired value from many addresses after five failures", async () => {
    await issue(alpha, { code: "TARGET-1", pair: "123456" });
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await validate({ code: "TARGET-1", pair: `00000${attempt}` })).status).toBe(400);
    expect((await validate({ code: "TARGET-1", pair: "123456" })).status).toBe(429);
  });
});

describe("a merchant that no longer takes codes", () => {
  it("answers 404 on /cpr and the API once paused or once the section is turned off, and pairs again when back", async () => {
    await issue(delta, { code: "DELTA-1", pair: "4444" });
    const onDelta = () =>
      app.request(`${API}/validate`, {
        json: { referer: `https://${DELTA_SITE}/`, code: "DELTA-1", pair: "4444" },
        ip: freshIp(),
      });
    const closed = async () => {
      expect((await app.request(`/en/cpr?site=${DELTA_SITE}`)).status).toBe(404);
      expect(
        (
          await app.request(`/en/cpr?site=${DELTA_SITE}`, {
            form: { site: DELTA_SITE, code: "DELTA-1", pair: "4444" },
            ip: freshIp(),
          })
        ).status,
      ).toBe(404);
      expect((await app.request(`${API}/verify-referer`, { json: { referer: `https://${DELTA_SITE}/` } })).status).toBe(
        404,
      );
      const refused = await onDelta();
      expect(refused.status).toBe(400);
      expect(Object.keys(await refused.json())).toEqual(["referer"]);
    };
    await database.db.updateTable("merchants").set({ is_active: 0 }).where("id", "=", delta.merchantId).execute();
    await closed();
    await database.db.updateTable("merchants").set({ is_active: 1 }).where("id", "=", delta.merchantId).execute();
    const features = await database.db
      .selectFrom("merchant_features")
      .selectAll()
      .where("merchant_id", "=", delta.merchantId)
      .where("section", "=", "code_pairing")
      .execute();
    expect(features.length).toBeGreaterThan(0);
    await database.db
      .deleteFrom("merchant_features")
      .where("merchant_id", "=", delta.merchantId)
      .where("section", "=", "code_pairing")
      .execute();
    await closed();
    await database.db.insertInto("merchant_features").values(features).execute();
    expect((await onDelta()).status).toBe(200);
    expect(await usesOf("DELTA1")).toHaveLength(1);
  });
});

describe("the use and its payment request", () => {
  it("takes no use when the payment request cannot be made, and pairs once it can", async () => {
    await issue(delta, { code: "NO-GATEWAY", pair: "9090" });
    const enabled = await database.db
      .selectFrom("gateways")
      .select("id")
      .where("merchant_id", "=", delta.merchantId)
      .where("enabled", "=", 1)
      .execute();
    await database.db.updateTable("gateways").set({ enabled: 0 }).where("merchant_id", "=", delta.merchantId).execute();
    const refused = await app.request(`${API}/validate`, {
      json: { referer: `https://${DELTA_SITE}/`, code: "NO-GATEWAY", pair: "9090" },
      ip: freshIp(),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ non_field_errors: [text("en", "cpr_public.errors.unavailable")] });
    expect(await usesOf("NOGATEWAY")).toEqual([]);
    expect(
      Number(
        (
          await database.db
            .selectFrom("code_pairing_codes")
            .select("uses")
            .where("code", "=", "NOGATEWAY")
            .executeTakeFirstOrThrow()
        ).uses,
      ),
    ).toBe(0);
    await database.db
      .updateTable("gateways")
      .set({ enabled: 1 })
      .where(
        "id",
        "in",
        enabled.map((row) => row.id),
      )
      .execute();
    expect(
      (
        await app.request(`${API}/validate`, {
          json: { referer: `https://${DELTA_SITE}/`, code: "NO-GATEWAY", pair: "9090" },
          ip: freshIp(),
        })
      ).status,
    ).toBe(200);
  });

  it("leaves neither a payment request nor a use behind when writing the use fails half way", async () => {
    await issue(delta, { code: "HALF-WAY", pair: "7070" });
    const site = await findOpenSite(database.db, DELTA_SITE);
    const before = await database.db
      .selectFrom("transactions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("merchant_id", "=", delta.merchantId)
      .executeTakeFirstOrThrow();
    const crashing: MakeRequest = (db, input) =>
      paymentRequests.requestMaker!(db, {
        ...input,
        alongside: async (trx, made) => {
          await input.alongside?.(trx, made);
          throw new Error("the machine stopped");
        },
      });
    await expect(
      pairCode(database.db, {
        site: site!,
        code: "HALF-WAY",
        pair: "7070",
        ip: freshIp(),
        lang: "en",
        makeRequest: crashing,
      }),
    ).rejects.toThrow("the machine stopped");
    const after = await database.db
      .selectFrom("transactions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("merchant_id", "=", delta.merchantId)
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
    expect(await usesOf("HALFWAY")).toEqual([]);
    expect(
      Number(
        (
          await database.db
            .selectFrom("code_pairing_codes")
            .select("uses")
            .where("code", "=", "HALFWAY")
            .executeTakeFirstOrThrow()
        ).uses,
      ),
    ).toBe(0);
    const paired = await pairCode(database.db, {
      site: site!,
      code: "HALF-WAY",
      pair: "7070",
      ip: freshIp(),
      lang: "en",
      makeRequest: paymentRequests.requestMaker!,
    });
    expect(paired.ok).toBe(true);
    expect(await usesOf("HALFWAY")).toHaveLength(1);
  });
});

describe("the /cpr page", () => {
  it("labels the paired field by the referring site, in English and Arabic, as plain HTML", async () => {
    const english = await app.request(`/en/cpr`, { headers: { Referer: `https://${ALPHA_SITE}/fees` } });
    expect(english.status).toBe(200);
    const html = await english.text();
    expect(html).toContain(">Civil ID<");
    expect(html).toContain(`name="site" value="${ALPHA_SITE}"`);
    expect(html).not.toMatch(/<script[^>]*src=/);
    const arabic = await (await app.request(`/ar/cpr?site=${BETA_SITE}`)).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain(">رقم الحجز<");
    const nowhere = await app.request(`/en/cpr`);
    expect(nowhere.status).toBe(404);
    expect(await nowhere.text()).toContain(escape(text("en", "cpr_public.unknown_site")));
  });

  it("says what is missing under each field, keeps what was typed, and sends the right pair to the pay page", async () => {
    await issue(alpha, { code: "PAGE-CODE", pair: "246810" });
    const empty = await app.request(`/ar/cpr?site=${ALPHA_SITE}`, {
      form: { site: ALPHA_SITE, code: "PAGE-CODE", pair: "" },
      ip: freshIp(),
    });
    expect(empty.status).toBe(400);
    const html = await empty.text();
    expect(errorUnder(html, "pair")).toBe(escape(text("ar", "errors.required")));
    expect(html).toContain('value="PAGE-CODE"');
    const done = await app.request(`/ar/cpr?site=${ALPHA_SITE}`, {
      form: { site: ALPHA_SITE, code: "page-code", pair: "246 810" },
      ip: freshIp(),
    });
    expect(done.status).toBe(303);
    const location = done.headers.get("Location")!;
    const id = /^\/ar\/pay\/([\w-]+)$/.exec(location)?.[1];
    expect(id).toBeTruthy();
    expect((await transactionOf(id!)).merchant_id).toBe(alpha.merchantId);
  });
});

describe("the dashboard", () => {
  it("issues a code with a plain form, errors under the fields, and lists it with its uses", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const refused = await app.request(`/en/code-pairing/codes/new`, {
      cookie,
      form: { code: "", pair: "", amount: "abc", currency_code: "KWD", use: "multi", max_uses: "1" },
    });
    expect(refused.status).toBe(400);
    const form = await refused.text();
    expect(form).toContain(escape(text("en", "code_pairing.errors.max_uses")));
    const issued = await app.request(`/en/code-pairing/codes/new`, {
      cookie,
      form: {
        code: "DASH-7",
        pair: "5551234",
        amount: "7.250",
        currency_code: "KWD",
        use: "single",
        description: "Dashboard code",
      },
    });
    expect(issued.status).toBe(303);
    expect((await validate({ code: "DASH7", pair: "5551234" })).status).toBe(200);
    const list = await (await app.request(`/en/code-pairing/codes`, { cookie })).text();
    expect(list).toContain(">DASH7<");
    expect(list).toContain(">1 of 1<");
    // Another merchant's staff never see it.
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    expect(await (await app.request(`/en/code-pairing/codes`, { cookie: betaCookie })).text()).not.toContain(">DASH7<");
    // Staff who may only view are refused the form.
    const viewer = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect(
      (
        await app.request(`/en/code-pairing/codes/new`, {
          cookie: viewer,
          form: { code: "X1234", pair: "1", amount: "1.000", use: "single" },
        })
      ).status,
    ).toBe(403);
  });

  it("keeps each merchant's codes and sites its own: another merchant can neither deactivate nor change nor remove them by id", async () => {
    const code = await issue(alpha, { code: "KEEP-MINE", pair: "1212" });
    const site = await database.db
      .selectFrom("code_pairing_sites")
      .select(["id", "label_en"])
      .where("host", "=", ALPHA_SITE)
      .executeTakeFirstOrThrow();
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    const deactivate = await app.request(`/en/code-pairing/codes`, {
      cookie: betaCookie,
      form: { intent: "deactivate", id: String(code.id) },
    });
    expect(deactivate.status).toBe(303);
    expect(
      Number(
        (
          await database.db
            .selectFrom("code_pairing_codes")
            .select("is_active")
            .where("id", "=", code.id)
            .executeTakeFirstOrThrow()
        ).is_active,
      ),
    ).toBe(1);
    const change = await app.request(`/en/code-pairing/sites`, {
      cookie: betaCookie,
      form: { intent: "save", id: String(site.id), label_en: "Stolen", label_ar: "مسروق" },
    });
    expect(change.status).toBe(400);
    await app.request(`/en/code-pairing/sites`, {
      cookie: betaCookie,
      form: { intent: "remove", id: String(site.id) },
    });
    const still = await database.db
      .selectFrom("code_pairing_sites")
      .select(["merchant_id", "label_en"])
      .where("id", "=", site.id)
      .executeTakeFirstOrThrow();
    expect(still).toEqual({ merchant_id: alpha.merchantId, label_en: site.label_en });
    expect((await validate({ code: "KEEP-MINE", pair: "1212" })).status).toBe(200);
  });

  it("says under the host field that a host is taken or cannot be a merchant's site", async () => {
    const betaCookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    const taken = await app.request(`/ar/code-pairing/sites`, {
      cookie: betaCookie,
      form: { intent: "add", host: `https://www.${ALPHA_SITE}/x`, label_en: "Civil ID", label_ar: "الرقم المدني" },
    });
    expect(taken.status).toBe(400);
    const html = await taken.text();
    expect(hostError(html)).toBe(escape(text("ar", "code_pairing.sites.taken")));
    expect(html).toContain('value="الرقم المدني"');
    for (const host of [
      "localhost:3000",
      "pay.localhost",
      "10.0.0.5",
      "192.168.1.20:8080",
      "127.0.0.1",
      "169.254.169.254",
    ]) {
      const refused = await app.request(`/en/code-pairing/sites`, {
        cookie: betaCookie,
        form: { intent: "add", host, label_en: "", label_ar: "" },
      });
      expect(refused.status).toBe(400);
      expect(hostError(await refused.text())).toBe(escape(text("en", "code_pairing.sites.refused_host")));
    }
    expect(
      await database.db
        .selectFrom("code_pairing_sites")
        .select("host")
        .where("merchant_id", "=", beta.merchantId)
        .execute(),
    ).toEqual([{ host: BETA_SITE }]);
    // The platform's own host is no merchant's site either.
    expect(isRefusedHost("pay.platform.example", "https://pay.platform.example")).toBe(true);
    expect(isRefusedHost("pay.platform.example:8443", "https://pay.platform.example")).toBe(true);
    expect(isRefusedHost("school.platform.example", "https://pay.platform.example")).toBe(false);
  });

  it("refuses staff who may only view when they change the sites", async () => {
    await createUser(database.db, alpha.merchantId, {
      username: "alpha-sites",
      email: "sites@alpha.example",
      firstName: "Site",
      lastName: "Viewer",
      permissions: ["view_pairingcode"],
    });
    const viewer = await app.signIn("alpha-sites", DEMO_PASSWORD);
    expect((await app.request(`/en/code-pairing/sites`, { cookie: viewer })).status).toBe(200);
    const refused = await app.request(`/en/code-pairing/sites`, {
      cookie: viewer,
      form: { intent: "add", host: "viewer.alpha.example", label_en: "", label_ar: "" },
    });
    expect(refused.status).toBe(403);
    expect(
      await database.db
        .selectFrom("code_pairing_sites")
        .select("id")
        .where("host", "=", "viewer.alpha.example")
        .execute(),
    ).toEqual([]);
  });
});

describe("paired values (civil IDs)", () => {
  const CIVIL_ID = "287010112345";
  const MASKED = "••••2345";
  const bearer = async (username: string) => ({
    Authorization: `Bearer ${(await app.apiToken(username, DEMO_PASSWORD)).access}`,
  });
  const reveals = (action: string) =>
    database.db
      .selectFrom("audit_log")
      .select(["actor_name", "params"])
      .where("merchant_id", "=", gamma.merchantId)
      .where("action", "=", action)
      .execute();

  it("are closed to staff who may only view transactions: page, export and API", async () => {
    await issue(gamma, { code: "CIVILONE", pair: CIVIL_ID });
    const staff = await app.signIn(gamma.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/code-pairing/codes", { cookie: staff })).status).toBe(403);
    expect((await app.request("/en/code-pairing/sites", { cookie: staff })).status).toBe(403);
    expect((await app.request("/en/code-pairing/codes/export.csv", { cookie: staff })).status).toBe(403);
    expect((await app.request(`${API}/codes`, { headers: await bearer(gamma.staff.username) })).status).toBe(403);
  });

  it("are masked to their last four in the page, the export and the API unless revealed, and only who may reveals them, audited", async () => {
    await createUser(database.db, gamma.merchantId, {
      username: "gamma-viewer",
      email: "viewer@gamma.example",
      firstName: "Code",
      lastName: "Viewer",
      permissions: ["view_pairingcode"],
    });
    const viewer = await app.signIn("gamma-viewer", DEMO_PASSWORD);
    const page = await app.request("/en/code-pairing/codes", { cookie: viewer });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`>${MASKED}<`);
    expect(html).not.toContain(CIVIL_ID);
    expect(html).not.toContain(">Show<");
    const csv = await app.request("/en/code-pairing/codes/export.csv", { cookie: viewer });
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const csvText = await csv.text();
    expect(csvText).toContain(`CIVILONE,${MASKED},12.500,KWD`);
    expect(csvText).not.toContain(CIVIL_ID);
    const api = await app.request(`${API}/codes`, { headers: await bearer("gamma-viewer") });
    const apiText = await api.text();
    expect(apiText).not.toContain(CIVIL_ID);
    expect(JSON.parse(apiText).results).toContainEqual(
      expect.objectContaining({ code: "CIVILONE", pair: MASKED, amount: "12.500" }),
    );
    // Asking to reveal without the permission is refused, and nothing is revealed.
    expect((await app.request("/en/code-pairing/codes/export.csv?reveal=1", { cookie: viewer })).status).toBe(403);
    expect((await app.request(`${API}/codes?reveal=1`, { headers: await bearer("gamma-viewer") })).status).toBe(403);
    const id = (
      await database.db
        .selectFrom("code_pairing_codes")
        .select("id")
        .where("code", "=", "CIVILONE")
        .executeTakeFirstOrThrow()
    ).id;
    expect(
      (await app.request("/en/code-pairing/codes", { cookie: viewer, form: { intent: "reveal", id: String(id) } }))
        .status,
    ).toBe(403);
    expect(await reveals("cpr_pair_revealed")).toEqual([]);

    // The superuser sees it masked too, until they ask for it; each reveal is written in the audit log.
    const admin = await app.signIn(gamma.admin.username, DEMO_PASSWORD);
    const adminPage = await (await app.request("/en/code-pairing/codes", { cookie: admin })).text();
    expect(adminPage).not.toContain(CIVIL_ID);
    expect(adminPage).toContain(">Show<");
    const revealed = await app.request("/en/code-pairing/codes", {
      cookie: admin,
      form: { intent: "reveal", id: String(id) },
    });
    expect(revealed.status).toBe(200);
    expect(await revealed.text()).toContain(`>${CIVIL_ID}<`);
    expect(await reveals("cpr_pair_revealed")).toEqual([
      { actor_name: gamma.admin.username, params: JSON.stringify({ code: "CIVILONE" }) },
    ]);
    expect(await (await app.request("/en/code-pairing/codes/export.csv?reveal=1", { cookie: admin })).text()).toContain(
      `CIVILONE,${CIVIL_ID},`,
    );
    const full = (await (
      await app.request(`${API}/codes?reveal=1`, { headers: await bearer(gamma.admin.username) })
    ).json()) as { results: { code: string; pair: string }[] };
    expect(full.results.find((row) => row.code === "CIVILONE")?.pair).toBe(CIVIL_ID);
    expect((await reveals("cpr_pairs_revealed")).map((row) => JSON.parse(row.params ?? "{}").channel).sort()).toEqual([
      "api",
      "export",
    ]);
  });
});
