// `npm run screenshots [folder]`: pictures of every built screen in English and Arabic, to look at.
// Builds the app if build/ does not match the source, starts `node server.js` on a fresh SQLite file
// with the demo merchant, makes a few payment requests (one paid, one declined, one left open), then
// takes full-page screenshots of the dashboard at 1366×800 (signed in as admin) and of the customer
// pages at 360×740 with JavaScript on and off, into the folder (./screenshots unless given), and
// prints the files it wrote. Exits 1 when a page answers with an error.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.resolve(process.argv[2] ?? path.join(root, "screenshots"));
const LANGS = ["en", "ar"];
const PASSWORD = "Demo@2026!";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];

/** Dashboard screens: a file name and a path under /:lang ({transaction} is filled in). */
const DASHBOARD = [
  ["home", ""],
  ["transactions", "/transactions"],
  ["payment-requests", "/payment-request/transactions"],
  ["deleted-payment-requests", "/payment-request/deleted-transactions"],
  ["transaction-details", "/payment-request/transactions/{transaction}"],
  ["table-headers", "/payment-request/table-headers"],
  ["payment-request-create", "/payment-request/create"],
  ["express-search", "/search/express"],
  ["generated-reports", "/generated-reports"],
  ["mailbox", "/mailbox"],
  ["profile", "/user"],
  ["password", "/user/password"],
  ["reconciliation", "/reconciliation"],
  ["operations-requests", "/ticket/approve-refund-void"],
  ["permissions-requests", "/ticket/approve-permissions"],
  ["help", "/help"],
  ["admin-profile", "/admin/profile"],
  ["admin-units", "/admin/units"],
  ["admin-unit", "/admin/units/2"],
  ["admin-users", "/admin/users"],
  ["admin-roles", "/admin/roles"],
  ["admin-gateways", "/admin/gateways"],
  ["admin-gateway", "/admin/gateways/1"],
  ["admin-sections", "/admin/sections"],
  ["admin-section-payment-request", "/admin/sections/payment_request"],
  ["admin-checkout-fields", "/admin/sections/payment_request/checkout-fields"],
  ["admin-api-keys", "/admin/api-keys"],
  ["admin-webhooks", "/admin/webhooks"],
  ["admin-notifications", "/admin/notifications"],
  ["admin-notification", "/admin/notifications/pay_link/mail/ar"],
  ["admin-audit", "/admin/audit"],
  ["operator", "/operator"],
  ["event-bookings", "/event/bookings"],
  ["event-booking", "/event/bookings/{booking}"],
  ["event-create", "/event/create?event={eventId}"],
  ["event-fulfillment", "/event/fullfilment?event={eventId}"],
  ["event-events", "/event/events"],
  ["event-edit", "/event/events/{eventId}"],
  ["food-orders", "/food-ordering/orders?refresh=0"],
  ["food-order", "/food-ordering/orders/{foodOrderId}"],
  ["food-order-duplicate", "/food-ordering/orders/{foodOrderId}/duplicate"],
  ["food-branches", "/food-ordering/branches"],
  ["food-branch", "/food-ordering/branches/{foodBranchId}"],
  ["food-menu", "/food-ordering/menu"],
  ["food-bulk-create", "/food-ordering/bulk-create"],
  ["food-fulfillment", "/food-ordering/fulfillment"],
  ["catalogue-products", "/catalogue/products"],
  ["catalogue-product", "/catalogue/products/1"],
  ["catalogue-upload", "/catalogue/products/upload"],
  ["catalogue-stores", "/catalogue/stores"],
  ["catalogue-discounts", "/catalogue/discounts"],
  ["catalogue-settings", "/catalogue/settings"],
  ["catalogue-transactions", "/catalogue/transactions"],
  ["collectors", "/customer-payment/collectors"],
  ["sessions", "/session/sessions"],
  ["collector", "/customer-payment/collectors/1"],
  ["payment-restriction", "/customer-payment/payment-restriction"],
  ["shopify-settings", "/shopify/settings"],
  ["shopify-transactions", "/shopify/transactions"],
  ["cpr-codes", "/code-pairing/codes"],
  ["cpr-code-new", "/code-pairing/codes/new"],
  ["cpr-sites", "/code-pairing/sites"],
  ["bulk-uploads", "/bulk/uploads"],
  ["bulk-upload", "/bulk/uploads/1"],
  ["bulk-dispatch-logs", "/bulk/uploads/1/dispatch-logs"],
  ["bulk-transaction-logs", "/bulk/uploads/1/dispatch-logs/1/transaction-logs"],
  ["pos-pay", "/pos/pay"],
  ["pos-payment", "/pos/pay/{open}"],
  ["pos-receipt", "/pos/attempt-detail/{successAttempt}"],
];
/** The point-of-sale pages again at a phone's size (the counter's phone or tablet), signed in. */
const COUNTER = [
  ["pos-pay", "/pos/pay"],
  ["pos-collect", "/pos/pay/collect/{collector}"],
  ["pos-payment", "/pos/pay/{open}"],
  ["pos-receipt", "/pos/attempt-detail/{successAttempt}"],
];
/** Screens for anyone, at a phone's size. */
const PUBLIC = [
  ["sign-in", "/login"],
  ["forgot-password", "/forget-password"],
  ["pay", "/pay/{open}"],
  ["result-success", "{success}"],
  ["result-failed", "{failed}"],
  ["not-found", "/no-such-page"],
  ["events", "/events"],
  ["event", "/events/{slug}"],
  ["event-register", "/events/register/{slug}"],
  ["event-thanks", "/events/thanks-for-register?booking={booking}&uuid={uuid}"],
  ["event-tickets", "/events/tickets/{booking}/{uuid}"],
  ["event-feedback", "/events/leave-feedback/{slug}"],
  ["food-menu", "/new-menu?merchant=1"],
  ["food-details", "/new-menu/category/{foodCategoryId}/food-details/{foodItemId}?merchant=1"],
  ["food-branches", "/new-menu/branches?merchant=1"],
  ["food-order", "/new-menu/order-confirmation/{foodOrderNumber}"],
  ["catalogue-list", "/catalogue/product-list?merchant=1"],
  ["catalogue-detail", "/catalogue/product-detail/saffron-30g?merchant=1"],
  ["catalogue-cart", "/catalogue/cart?merchant=1"],
  ["collect", "/pay/collect/{collector}"],
  ["spf-options", "/spf/payment-options/{spfOpen}"],
  ["spf-paid", "/spf/payment-options/{spfPaid}"],
  ["cpr", "/cpr?site=school.demo-store.com.kw"],
  ["checkout", "/checkout/{openSession}"],
  ["checkout-paid", "/checkout/{paidSession}"],
];

/** The demo shop's handed-over payments: one still open, one paid (the demo's jobs may still be paying them: waits up to a minute). */
async function shopifyPayments(base, access) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(`${base}/api/v1/plugins/shopify/transaction/?page_size=50`, {
      headers: { Authorization: `Bearer ${access}` },
    });
    const body = await answer.json();
    const rows = Array.isArray(body) ? body : (body.results ?? []);
    const find = (states) => rows.find((row) => states.includes(row.state))?.id ?? "missing";
    const found = { spfOpen: find(["created", "pending"]), spfPaid: find(["paid"]) };
    if ((found.spfOpen !== "missing" && found.spfPaid !== "missing") || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

const freePort = () =>
  new Promise((resolve) => {
    const probe = http.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function waitForHealth(base, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server.js exited (code ${child.exitCode}):\n${child.log}`);
    if (
      await fetch(`${base}/healthz`).then(
        (answer) => answer.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server.js did not answer /healthz within 60 s:\n${child.log}`);
}

async function createRequest(base, token, amount) {
  const answer = await fetch(`${base}/api/v1/plugins/payment_request/transaction/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      amount,
      currency_code: "KWD",
      pg_codes: ["knet-sandbox", "mpgs-sandbox", "cod"],
      customer_email: "fatima@example.com",
      description: "2 × Abaya, gift wrapped",
    }),
  });
  if (answer.status !== 201)
    throw new Error(`creating a payment request answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()).id;
}

/** A paid event a week ahead (two tickets, an extra field) and a free booking of a free one; what the event pages need. */
async function createEvents(base, token) {
  const day = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const post = async (url, body, headers = {}) => {
    const answer = await fetch(`${base}${url}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    if (answer.status !== 201) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
    return answer.json();
  };
  const auth = { Authorization: `Bearer ${token}` };
  const event = {
    title_en: "Winter Oud Concert",
    title_ar: "حفل العود الشتوي",
    description_en: "An evening of classical oud music by the sea, with Kuwaiti and Gulf songs.",
    description_ar: "أمسية من موسيقى العود الكلاسيكية على البحر، مع أغانٍ كويتية وخليجية.",
    location_en: "Kuwait National Cultural District",
    location_ar: "مركز الشيخ جابر الأحمد الثقافي",
    lat: 29.3694,
    lng: 47.9908,
    currency_code: "KWD",
    status: "published",
    fields: [{ name: "civil_id", label_en: "Civil ID", label_ar: "الرقم المدني", type: "text", required: false }],
  };
  const paid = await post(
    "/api/v1/plugins/event/dashboard/events",
    {
      ...event,
      slug: "winter-oud-concert",
      is_free: false,
      gateway_codes: ["knet-sandbox", "mpgs-sandbox"],
      tickets: [
        {
          name_en: "Standard",
          name_ar: "عادي",
          price: "7.500",
          start_time: "19:00",
          end_time: "22:00",
          quantity: 120,
          dates: [day(7), day(8)],
        },
        {
          name_en: "Front rows",
          name_ar: "الصفوف الأمامية",
          price: "15.000",
          start_time: "19:00",
          end_time: "22:00",
          quantity: 20,
          dates: [day(7), day(8)],
        },
      ],
    },
    auth,
  );
  const free = await post(
    "/api/v1/plugins/event/dashboard/events",
    {
      ...event,
      slug: "oud-open-rehearsal",
      title_en: "Open rehearsal",
      title_ar: "بروفة مفتوحة",
      is_free: true,
      tickets: [
        {
          name_en: "Entry",
          name_ar: "دخول",
          price: "0",
          start_time: "17:00",
          end_time: "18:30",
          quantity: 60,
          dates: [day(6)],
        },
      ],
    },
    auth,
  );
  const booking = await post("/api/v1/plugins/event/booking", {
    event: free.slug,
    ticket: free.tickets[0].id,
    event_date: day(6),
    quantity: 2,
    email: "noura@example.com",
    customer_first_name: "Noura",
    customer_last_name: "Al-Sabah",
    customer_phone: "50001234",
    extra: { civil_id: "290010112345" },
  });
  return { slug: paid.slug, eventId: free.id, booking: booking.id, uuid: booking.uuid };
}

/**
 * The demo restaurant (made by the worker's demo job once the server is up) and one cash-on-delivery
 * order placed through the public API: what the food pages need.
 */
async function foodOrder(base) {
  const deadline = Date.now() + 60_000;
  let branches = [];
  while (Date.now() < deadline) {
    branches = await fetch(`${base}/api/v1/plugins/food_ordering/branches?merchant=1`).then(
      (answer) => (answer.ok ? answer.json() : []),
      () => [],
    );
    if (Array.isArray(branches) ? branches.length : branches.results?.length) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const list = Array.isArray(branches) ? branches : (branches.results ?? []);
  if (!list.length) throw new Error("the demo restaurant was not made within 60 s");
  const branch = list[0];
  const categories = await fetch(`${base}/api/v1/plugins/food_ordering/product_categories?merchant=1`).then((answer) =>
    answer.json(),
  );
  const category =
    (Array.isArray(categories) ? categories : categories.results).find((one) => !one.is_catering) ??
    (Array.isArray(categories) ? categories : categories.results)[0];
  const items = await fetch(`${base}/api/v1/plugins/food_ordering/menu-items?category=${category.id}&merchant=1`).then(
    (answer) => answer.json(),
  );
  const item =
    (Array.isArray(items) ? items : items.results).find(
      (one) => !one.sizes?.length && !one.options?.length && !one.option_groups?.length,
    ) ?? (Array.isArray(items) ? items : items.results)[0];
  const answer = await fetch(`${base}/api/v1/plugins/food_ordering/checkout`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    // Scheduled for noon tomorrow (Kuwait): the demo branches may be closed when the screenshots are taken.
    body: JSON.stringify({
      delivery_type: "pickup",
      branch: branch.id,
      scheduled_for: `${new Date(Date.now() + 3 * 3_600_000 + 86_400_000).toISOString().slice(0, 10)}T12:00`,
      customer_name: "Maryam",
      customer_phone: "50001234",
      gateway_code: "cod",
      lines: [
        { menu_item: item.id, category_id: category.id, quantity: 4, special_instructions: "Extra lemon, please" },
      ],
    }),
  });
  if (answer.status !== 201) throw new Error(`placing a food order answered ${answer.status}: ${await answer.text()}`);
  const order = await answer.json();
  return {
    foodOrderId: order.id,
    foodOrderNumber: order.number,
    foodBranchId: branch.id,
    foodCategoryId: category.id,
    foodItemId: item.id,
  };
}

/** Pays request `id` with KNET `card` without JavaScript; the path of the result page, without its language. */
async function payWithKnet(browser, base, id, card) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/en/pay/${id}`);
    await page.getByRole("button", { name: /Pay Now/ }).click();
    await page.getByRole("textbox", { name: "Card number" }).fill(card);
    await page.getByRole("textbox", { name: "PIN" }).fill("1234");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/attempt-detail/);
    return new URL(page.url()).pathname.replace(/^\/en\//, "/");
  } finally {
    await context.close();
  }
}

async function main() {
  ensureBuild();
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "screenshots-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    SQLITE_PATH: path.join(tmp, "demo.sqlite"),
    SEED_DEMO: "1",
    SANDBOX: "1",
    WORKER: "on",
    DEMO_ACTIVITY: "0",
    UPLOADS_DIR: path.join(tmp, "uploads"),
    REPORTS_DIR: path.join(tmp, "reports"),
    BASE_URL: base,
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ["server.js"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  server.log = "";
  const keep = (chunk) => (server.log = (server.log + chunk).slice(-4000));
  server.stdout.on("data", keep);
  server.stderr.on("data", keep);
  let browser;
  const written = [];
  const failures = [];
  try {
    await waitForHealth(base, server);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    });

    const signIn = await fetch(`${base}/api/v1/user/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: PASSWORD }),
    });
    const { access } = await signIn.json();
    const made = {
      transaction: await createRequest(base, access, "12.500"),
      open: await createRequest(base, access, "7.250"),
    };
    Object.assign(made, await createEvents(base, access));
    Object.assign(made, await shopifyPayments(base, access));
    Object.assign(made, await foodOrder(base));
    made.success = await payWithKnet(browser, base, await createRequest(base, access, "3.000"), "8888880000000001");
    made.failed = await payWithKnet(browser, base, await createRequest(base, access, "4.500"), "8888880000000002");
    made.successAttempt = String(made.success).split("/").pop();
    const fill = (route) => route.replace(/\{(\w+)\}/g, (_, name) => made[name]);

    const shoot = async (page, file, url) => {
      const answer = await page.goto(url, { waitUntil: "networkidle" });
      const status = answer?.status() ?? 0;
      if (status >= 400 && !file.includes("not-found")) failures.push(`${url} answered ${status}`);
      const target = path.join(outDir, `${file}.png`);
      await page.screenshot({ path: target, fullPage: true });
      written.push(target);
    };

    for (const lang of LANGS) {
      // The dashboard, signed in through the sign-in page, with JavaScript on.
      const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${base}/${lang}/login`);
      await page.locator('input[name="username"]').fill("admin");
      await page.locator('input[name="password"]').fill(PASSWORD);
      await Promise.all([
        page.waitForURL(`${base}/${lang}`),
        page.locator('form button[type="submit"]').first().click(),
      ]);
      for (const [name, route] of DASHBOARD)
        await shoot(page, `dashboard-${name}-${lang}`, `${base}/${lang}${fill(route)}`);
      // The demo collector page's public address, as its list links to it.
      if (!made.collector) {
        await page.goto(`${base}/${lang}/customer-payment/collectors`);
        const link = await page.locator('a[href*="/pay/collect/"]').first().getAttribute("href");
        made.collector = link?.split("/pay/collect/")[1] ?? "missing";
      }
      // The counter's pages on a phone.
      await page.setViewportSize({ width: 360, height: 740 });
      for (const [name, route] of COUNTER)
        await shoot(page, `counter-${name}-${lang}`, `${base}/${lang}${fill(route)}`);
      await page.setViewportSize({ width: 1366, height: 800 });
      // The demo checkout sessions' hosted pages, one still open and one paid, as the sessions list links to them.
      if (!made.openSession) {
        const checkoutOf = async (state) => {
          const deadline = Date.now() + 60_000;
          for (;;) {
            await page.goto(`${base}/${lang}/session/sessions?state=${state}`);
            const anchor = page.locator('a[href*="/checkout/"]').first();
            const link = (await anchor.count()) ? await anchor.getAttribute("href") : null;
            if (link || Date.now() > deadline) return link?.split("/checkout/")[1] ?? "missing";
            await page.waitForTimeout(2000);
          }
        };
        made.openSession = await checkoutOf("created");
        made.paidSession = await checkoutOf("paid");
      }
      // The account menu, open.
      await page.goto(`${base}/${lang}`, { waitUntil: "networkidle" });
      await page.locator("details.disclosure-menu > summary").first().click();
      const menuShot = path.join(outDir, `dashboard-account-menu-${lang}.png`);
      await page.screenshot({ path: menuShot });
      written.push(menuShot);
      await context.close();

      // Customer pages (and sign-in), at a phone's size, with JavaScript on and off.
      for (const javaScriptEnabled of [true, false]) {
        const phone = await browser.newContext({
          viewport: { width: 360, height: 740 },
          javaScriptEnabled,
          isMobile: true,
          hasTouch: true,
        });
        const phonePage = await phone.newPage();
        for (const [name, route] of PUBLIC)
          await shoot(
            phonePage,
            `public-${name}-${lang}-js-${javaScriptEnabled ? "on" : "off"}`,
            `${base}/${lang}${fill(route)}`,
          );
        await phone.close();
      }
    }
    console.log(`${written.length} screenshots in ${outDir}:`);
    for (const file of written) console.log(`  ${path.relative(process.cwd(), file)}`);
    if (failures.length) {
      console.log("\nPages that answered with an error:");
      for (const failure of failures) console.log(`  ${failure}`);
      process.exitCode = 1;
    }
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once("exit", resolve)));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
