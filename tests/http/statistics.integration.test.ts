import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startHttpServer, type TestHttpServer } from "../support/http-server";

/**
 * The statistics home through HTTP (dashboard spec §7 Dashboard; docs/decisions/0009): card
 * payments made for real on the card sandbox, a declined one, a refund in full and a manual capture
 * through the API, each moving the figures of GET dashboard/statistics as worked out by hand; the
 * other dashboard calls; who may see what; and the page itself, which shows the same numbers
 * without JavaScript.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
const tokens = { admin: "", viewer: "", other: "" };
const noRedirect = { redirect: "manual" as const };
const made: Record<string, string> = {};

const kuwaitDate = (offsetDays: number) =>
  new Date(Date.now() + 3 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
/** Yesterday to tomorrow: the payments made now, whichever side of a Kuwait midnight the test runs. */
const AROUND_NOW = () => `period=custom&date_after=${kuwaitDate(-1)}&date_before=${kuwaitDate(1)}`;

async function tokenOf(username: string) {
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

const call = (
  method: string,
  path: string,
  token = tokens.admin,
  json?: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

type Statistics = {
  period: string;
  total_paid: {
    value: number;
    previous: number;
    growth: number | null;
    chart: { label: string; value: number }[];
    url: string;
  };
  total_amount_paid: { currency_code: string; value: string; previous: string; growth: number | null }[];
  success_rate: { value: number | null; completed: number; succeeded: number };
  paid_per_gateway: {
    code: string;
    name: string;
    logo: string | null;
    value: number;
    amounts: { currency_code: string; value: string }[];
  }[];
  success_rate_per_gateway: {
    code: string;
    name: string;
    value: number | null;
    completed: number;
    succeeded: number;
  }[];
  product_wise_sales: {
    product: string;
    name: string;
    value: number;
    amounts: { currency_code: string; value: string }[];
  }[];
};
const statistics = async (query = AROUND_NOW(), token = tokens.admin, headers: Record<string, string> = {}) => {
  const response = await call("GET", `/api/v1/dashboard/statistics/?${query}`, token, undefined, headers);
  expect(response.status).toBe(200);
  return (await response.json()) as Statistics;
};

/** A payment request of `amount` KWD paid on the card sandbox with `card` (the approved test card by default). */
async function pay(key: string, amount: string, card = "5123450000000008") {
  const created = await call("POST", "/api/v1/plugins/payment_request/transaction/", tokens.admin, {
    amount,
    pg_codes: ["mpgs-sandbox"],
    customer_email: `${key}@example.com`,
  });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  const start = await fetch(`${server.url}/en/pay/${id}`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `pay-${id}-${card}` }),
    ...noRedirect,
  });
  expect(start.status).toBe(303);
  const gatewayUrl = start.headers.get("Location")!;
  const page = await fetch(gatewayUrl, {
    method: "POST",
    headers: { Origin: new URL(gatewayUrl).origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber: card, expiry: "01/39", cvv: "123" }),
    ...noRedirect,
  });
  expect(page.status).toBe(303);
  await fetch(new URL(page.headers.get("Location")!, gatewayUrl), noRedirect);
  made[key] = id;
  return id;
}

async function signIn(username: string, lang = "en") {
  const response = await fetch(`${server.url}/${lang}/login`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "login", username, password: DEMO_PASSWORD }),
    ...noRedirect,
  });
  const cookie = response.headers
    .getSetCookie()
    .map((header) => /^(kp_session=[^;]+)/.exec(header)?.[1])
    .find(Boolean);
  if (!cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}

const page = async (path: string, cookie: string) => {
  const response = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, ...noRedirect });
  // Intl puts no-break spaces between a currency and its amount.
  return { status: response.status, html: (await response.text()).replaceAll("\u00a0", " ") };
};

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Board");
  other = await seedMerchant(database.db, "Rival");
  await createUser(database.db, shop.merchantId, {
    username: "Board-viewer",
    email: "viewer@board.example",
    firstName: "View",
    lastName: "Only",
    permissions: ["view_paymenttransaction"],
  });
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  tokens.admin = await tokenOf(shop.admin.username);
  tokens.viewer = await tokenOf("Board-viewer");
  tokens.other = await tokenOf(other.admin.username);
});
afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

describe("GET dashboard/statistics", () => {
  it("starts at nothing, with no growth to show", async () => {
    const empty = await statistics();
    expect(empty.total_paid).toMatchObject({ value: 0, previous: 0, growth: null });
    expect(empty.total_amount_paid).toEqual([]);
    expect(empty.success_rate).toMatchObject({ value: null, completed: 0, succeeded: 0 });
  });

  it("counts card payments: paid, GMV with the customer's fee, the success rate and the splits", async () => {
    // The card sandbox gateway adds 0.100 KWD + 2 % for the customer: 10.000 → 10.300, 5.000 → 5.200.
    await pay("alpha", "10.000");
    await pay("beta", "5.000");
    await pay("declined", "4.000", "4000000000000002");
    const figures = await statistics();
    expect(figures.total_paid).toMatchObject({ value: 2, previous: 0, growth: null });
    expect(figures.total_paid.url).toBe(
      `/en/transactions?state=paid&created_after=${kuwaitDate(-1)}&created_before=${kuwaitDate(1)}`,
    );
    expect(figures.total_paid.chart.reduce((sum, point) => sum + point.value, 0)).toBe(2);
    expect(figures.total_amount_paid).toEqual([
      { currency_code: "KWD", value: "15.500", previous: "0.000", growth: null, chart: expect.any(Array) },
    ]);
    expect(figures.success_rate).toMatchObject({ value: 67, completed: 3, succeeded: 2 });
    expect(figures.paid_per_gateway).toEqual([
      {
        code: "mpgs-sandbox",
        name: "Credit Card",
        logo: expect.stringMatching(/^https?:\/\/[^/]+\/gateways\/card\.svg$/),
        value: 2,
        amounts: [{ currency_code: "KWD", value: "15.500" }],
      },
    ]);
    expect(figures.success_rate_per_gateway).toEqual([
      expect.objectContaining({ code: "mpgs-sandbox", value: 67, completed: 3, succeeded: 2 }),
    ]);
    expect(figures.product_wise_sales).toEqual([
      {
        product: "payment_request",
        name: "Payment requests",
        value: 2,
        amounts: [{ currency_code: "KWD", value: "15.500" }],
      },
    ]);
    const arabic = await statistics(AROUND_NOW(), tokens.admin, { "Accept-Language": "ar" });
    expect(arabic.paid_per_gateway[0].name).toBe("بطاقة ائتمان");
  });

  it("drops a transaction refunded in full from the paid ones", async () => {
    const refund = await call(
      "POST",
      `/api/v1/plugins/payment_request/transaction/actions/${made.beta}/refund/`,
      tokens.admin,
      { amount: null },
    );
    expect(refund.status).toBe(200);
    const figures = await statistics();
    expect(figures.total_paid.value).toBe(1);
    expect(figures.total_amount_paid[0].value).toBe("10.300");
    // The attempt itself succeeded: the success rate does not change.
    expect(figures.success_rate).toMatchObject({ completed: 3, succeeded: 2 });
  });

  it("counts an authorized payment once it is captured", async () => {
    await database.db
      .updateTable("gateways")
      .set({ capture_mode: "manual" })
      .where("merchant_id", "=", shop.merchantId)
      .where("code", "=", "mpgs-sandbox")
      .execute();
    // 2.000 → 2.140 with the fee.
    const id = await pay("gamma", "2.000");
    expect(
      (await database.db.selectFrom("transactions").select("state").where("id", "=", id).executeTakeFirstOrThrow())
        .state,
    ).toBe("authorized");
    let figures = await statistics();
    expect(figures.total_paid.value).toBe(1);
    expect(figures.success_rate).toMatchObject({ completed: 4, succeeded: 3, value: 75 });
    const capture = await call(
      "POST",
      `/api/v1/plugins/payment_request/transaction/actions/${id}/capture/`,
      tokens.admin,
      { amount: null },
    );
    expect(capture.status).toBe(200);
    figures = await statistics();
    expect(figures.total_paid.value).toBe(2);
    expect(figures.total_amount_paid[0].value).toBe("12.440");
  });

  it("defaults to today and refuses a custom period without both dates, or an unknown period", async () => {
    expect((await statistics("")).period).toBe("day");
    const missing = await call("GET", "/api/v1/dashboard/statistics?period=custom&date_after=2026-01-01");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ date_before: ["This field is required"] });
    const reversed = await call(
      "GET",
      "/api/v1/dashboard/statistics?period=custom&date_after=2026-02-01&date_before=2026-01-01",
    );
    expect(await reversed.json()).toEqual({ date_before: ["To cannot precede From."] });
    const unknown = await call("GET", "/api/v1/dashboard/statistics?period=decade");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ period: ["Select a valid choice."] });
  });

  it("describes its periods on OPTIONS", async () => {
    const response = await call("OPTIONS", "/api/v1/dashboard/statistics/");
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      actions: { GET: { period: { choices: { value: string }[]; default: string } } };
      txn_avg_size_years: number[];
    };
    expect(body.actions.GET.period.choices.map((choice) => choice.value)).toEqual([
      "day",
      "week",
      "month",
      "year",
      "custom",
    ]);
    expect(body.actions.GET.period.default).toBe("day");
    expect(body.txn_avg_size_years).toHaveLength(10);
  });

  it("needs the statistics right and shows only the merchant's own figures", async () => {
    expect((await call("GET", "/api/v1/dashboard/statistics/", tokens.viewer)).status).toBe(403);
    expect((await call("GET", "/api/v1/dashboard/avg_txn_size/", tokens.viewer)).status).toBe(403);
    expect((await fetch(`${server.url}/api/v1/dashboard/statistics/`)).status).toBe(401);
    expect((await statistics(AROUND_NOW(), tokens.other)).total_paid.value).toBe(0);
  });
});

describe("the other dashboard calls", () => {
  it("GET dashboard/avg_txn_size averages this year's paid transactions per month", async () => {
    const response = await call("GET", "/api/v1/dashboard/avg_txn_size/");
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      year: number;
      years: number[];
      currencies: string[];
      results: { month: string; values: { currency_code: string; value: string | null; count: number }[] }[];
    };
    expect(body.year).toBe(body.years[0]);
    expect(body.currencies).toEqual(["KWD"]);
    expect(body.results).toHaveLength(12);
    const filled = body.results.flatMap((month) => month.values).filter((value) => value.count > 0);
    // alpha 10.300 and gamma 2.140 (beta was refunded in full): 12.440 / 2, unless the test runs across a new Kuwait month.
    expect(filled.reduce((sum, value) => sum + value.count, 0)).toBe(2);
    if (filled.length === 1) expect(filled[0].value).toBe("6.220");
    expect((await call("GET", "/api/v1/dashboard/avg_txn_size/?year=1999")).status).toBe(400);
    expect((await call("GET", "/api/v1/dashboard/avg_txn_size/?year=abcd")).status).toBe(400);
  });

  it("GET dashboard/recent_orders lists the newest transactions with their actions", async () => {
    const response = await call("GET", "/api/v1/dashboard/recent_orders/?limit=3");
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as {
      results: {
        id: string;
        customer_email: string;
        amount: string;
        currency_code: string;
        state: string;
        actions: { value: string; url: string }[];
      }[];
    };
    expect(results.map((row) => row.id)).toEqual([made.gamma, made.declined, made.beta]);
    expect(results[0]).toMatchObject({
      customer_email: "gamma@example.com",
      amount: "2.000",
      currency_code: "KWD",
      state: "paid",
    });
    expect(results[0].actions.map((action) => action.value)).toContain("refund");
    expect(results[1].actions.find((action) => action.value === "delete")?.url).toBe(
      `/api/v1/plugins/payment_request/transaction/actions/${made.declined}/delete/`,
    );
    const viewer = (await (await call("GET", "/api/v1/dashboard/recent_orders/", tokens.viewer)).json()) as {
      results: { actions: unknown[] }[];
    };
    expect(viewer.results.every((row) => row.actions.length === 0)).toBe(true);
  });

  it("shows another merchant only its own rows: recent_orders and avg_txn_size never carry the shop's transactions", async () => {
    const own = await call("POST", "/api/v1/plugins/payment_request/transaction/", tokens.other, {
      amount: "4.000",
      pg_codes: ["mpgs-sandbox"],
      customer_email: "other-own@example.com",
    });
    expect(own.status).toBe(201);
    const ownId = ((await own.json()) as { id: string }).id;
    const recent = await call("GET", "/api/v1/dashboard/recent_orders/?limit=50", tokens.other);
    expect(recent.status).toBe(200);
    const rows = ((await recent.json()) as { results: { id: string; customer_email: string }[] }).results;
    expect(rows.map((row) => row.id)).toEqual([ownId]);
    expect(rows.map((row) => row.id).filter((id) => Object.values(made).includes(id))).toEqual([]);
    // The shop's two paid transactions of this year are in its average; none of them is in the other merchant's.
    const average = await call("GET", "/api/v1/dashboard/avg_txn_size/", tokens.other);
    expect(average.status).toBe(200);
    const body = (await average.json()) as {
      currencies: string[];
      results: { values: { count: number; value: string | null }[] }[];
    };
    expect(body.results.flatMap((month) => month.values).reduce((sum, value) => sum + value.count, 0)).toBe(0);
    const shop = (await (await call("GET", "/api/v1/dashboard/avg_txn_size/")).json()) as typeof body;
    expect(shop.results.flatMap((month) => month.values).reduce((sum, value) => sum + value.count, 0)).toBe(2);
  });

  it("GET user/actions shows the merchant's actions to its statistics users and their own to others", async () => {
    const admin = (await (await call("GET", "/api/v1/user/actions/?limit=50")).json()) as {
      results: { actor: string; action: string; display_name: string }[];
    };
    expect(
      admin.results.some((entry) => entry.action === "payment_success" && entry.display_name === "Payment received"),
    ).toBe(true);
    const viewer = (await (await call("GET", "/api/v1/user/actions/", tokens.viewer)).json()) as {
      results: { actor: string }[];
    };
    expect(viewer.results.every((entry) => entry.actor === "Board-viewer")).toBe(true);
  });
});

describe("the statistics home page", () => {
  it("shows the tiles, the charts' tables and recent orders in the page's HTML (no JavaScript needed)", async () => {
    const cookie = await signIn(shop.admin.username);
    const { status, html } = await page(`/en?${AROUND_NOW()}`, cookie);
    expect(status).toBe(200);
    expect(html).toContain(">Paid transactions<");
    expect(html).toContain(
      `href="/en/transactions?state=paid&amp;created_after=${kuwaitDate(-1)}&amp;created_before=${kuwaitDate(1)}"`,
    );
    expect(html).toContain("KWD 12.440");
    expect(html).toContain("3 of 4 payment attempts succeeded");
    expect(html).toContain(">Figures by day<");
    expect(html).toContain("Success rate per gateway");
    expect(html).toContain("Recent orders");
    expect(html).toContain("gamma@example.com");
    const arabic = await page(`/ar?${AROUND_NOW()}`, await signIn(shop.admin.username, "ar"));
    expect(arabic.html).toContain("المعاملات المدفوعة");
    expect(arabic.html).toContain("نجحت 3 من 4 محاولة دفع");
  });

  it("waits for both dates of a custom period", async () => {
    const cookie = await signIn(shop.admin.username);
    const { html } = await page("/en?period=custom&date_after=2026-01-01", cookie);
    expect(html).toContain("Choose From and To to see the statistics of a custom period.");
    expect(html).not.toMatch(/>Figures by[^<]*</);
  });

  it("keeps today's page for users without the statistics right", async () => {
    const { html } = await page("/en", await signIn("Board-viewer"));
    expect(html).not.toContain(">Paid transactions<");
    expect(html).toContain("Recent orders");
    expect(html).toContain("Recent actions");
  });

  it("deletes a recent order with a plain form post", async () => {
    const cookie = await signIn(shop.admin.username);
    const response = await fetch(`${server.url}/en?index`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ row_command: `delete:${made.declined}` }),
      ...noRedirect,
    });
    expect(response.status).toBe(200);
    const row = await database.db
      .selectFrom("transactions")
      .select("deleted_at")
      .where("id", "=", made.declined)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    // Its declined attempt no longer counts.
    expect((await statistics()).success_rate).toMatchObject({ completed: 3, succeeded: 3, value: 100 });
    const refund = await fetch(`${server.url}/en?index`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ row_command: `refund:${made.alpha}` }),
      ...noRedirect,
    });
    expect(refund.status).toBe(400);
  });
});
