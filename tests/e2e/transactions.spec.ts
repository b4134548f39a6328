import fs from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import Database from "better-sqlite3";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { databaseDir, workerIndex } from "./servers";
import { DEMO_PASSWORD, signIn, t, urlPath, waitForHydration } from "./support";

/** An API access token for a demo user. */
async function tokenOf(request: APIRequestContext, username = "admin") {
  const answer = await request.post("/api/v1/user/token/", { data: { username, password: DEMO_PASSWORD } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

/** Creates a payment request through the API; answers its id and pay path. */
async function createRequest(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const answer = await request.post("/api/v1/plugins/payment_request/transaction/", {
    headers: { Authorization: `Bearer ${token}` },
    data: { currency_code: "KWD", pg_codes: ["knet-sandbox", "mpgs-sandbox", "cod"], ...body },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const created = (await answer.json()) as { id: string };
  return { id: created.id, payPath: `/en/pay/${created.id}` };
}

/** Pays a request on its pay page with the card sandbox's always-approved card. */
async function payByCard(page: Page, payPath: string) {
  await page.goto(payPath);
  await page.locator("label.pay-choice", { hasText: "Credit Card" }).click();
  await page.getByRole("button", { name: /Pay Now/ }).click();
  await page.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
  await page.getByRole("textbox", { name: "Expiry" }).fill("01/39");
  await page.getByRole("textbox", { name: "CVV" }).fill("123");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
}

/** The list narrowed to one customer's email, as a link would open it. */
function listFor(email: string, section = "payment-request") {
  return `/en/${section}/transactions?q=${encodeURIComponent(email)}`;
}

/** Opens the first row's Actions menu (a menu with JavaScript, a disclosure without) and picks an entry. */
async function pickRowAction(page: Page, action: string) {
  await waitForHydration(page);
  await page
    .locator("tbody")
    .getByLabel(new RegExp(`^${t("en", "transactions.row_actions", { orderNo: "\\d+" })}$`))
    .first()
    .click();
  const name = t("en", `actions.${action}`);
  await page
    .getByRole("menuitem", { name, exact: true })
    .or(page.getByRole("link", { name, exact: true }))
    .click();
}

/** Opens the row's Actions menu and picks an operation, then goes through the two steps of the amount dialog. */
async function operate(page: Page, kind: "refund" | "capture", amount: string | null) {
  await pickRowAction(page, kind);
  const dialog = page.getByRole("dialog");
  await expect(
    dialog.getByRole("heading", { name: new RegExp(t("en", `operations.title.${kind}`, { orderNo: "\\d+" })) }),
  ).toBeVisible();
  const input = dialog.locator('input[name="amount"]');
  if (amount !== null) await input.fill(amount);
  await dialog.getByRole("button", { name: t("en", `actions.${kind}`), exact: true }).click();
  return dialog;
}

test.describe("the transaction list without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("search, paginate and filter through plain links and forms", async ({ page, request }) => {
    const token = await tokenOf(request);
    for (let index = 1; index <= 12; index++) {
      await createRequest(request, token, {
        amount: `${index}.000`,
        customer_email: `listing-${String(index).padStart(2, "0")}@example.com`,
      });
    }
    await signIn(page, "admin");
    await page.goto("/en/payment-request/transactions");
    await page.getByRole("searchbox", { name: t("en", "transactions.search") }).fill("listing-");
    await page.getByRole("searchbox", { name: t("en", "transactions.search") }).press("Enter");
    await expect(page).toHaveURL(/q=listing-/);
    await expect(page.getByText(t("en", "transactions.count", { total: "12" }))).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(10);

    await page
      .getByRole("navigation", { name: t("en", "transactions.pagination") })
      .getByRole("link", { name: "2", exact: true })
      .click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.locator("tbody tr")).toHaveCount(2);
    await expect(page.getByRole("cell", { name: "listing-01@example.com" })).toBeVisible();

    // The filter panel is a plain GET form: the state filter joins the search in the link.
    await page.locator("summary", { hasText: t("en", "transactions.filters.title") }).click();
    await page.getByRole("checkbox", { name: t("en", "states.paid"), exact: true }).check();
    await page.getByRole("button", { name: t("en", "transactions.filters.apply") }).click();
    await expect(page).toHaveURL(/state=paid/);
    await expect(page).toHaveURL(/q=listing-/);
    await expect(page.getByText(t("en", "transactions.empty"))).toBeVisible();

    // To cannot precede From.
    await page.goto(`${listFor("listing-")}&created_after=2026-11-20&created_before=2026-11-10`);
    await expect(page.getByText(t("en", "transactions.errors.to_before_from"))).toBeVisible();
    await expect(page.getByText(t("en", "transactions.count", { total: "12" }))).toBeVisible();
  });
});

test("the search box applies on blur and rows per page come from the query string (JavaScript on)", async ({
  page,
  request,
}) => {
  const token = await tokenOf(request);
  for (let index = 1; index <= 11; index++) {
    await createRequest(request, token, {
      amount: "1.500",
      customer_email: `blur-${String(index).padStart(2, "0")}@example.com`,
    });
  }
  await signIn(page, "admin");
  await page.goto("/en/payment-request/transactions");
  await waitForHydration(page);
  await page.getByRole("searchbox", { name: t("en", "transactions.search") }).fill("blur-");
  await page.getByRole("searchbox", { name: t("en", "transactions.search") }).blur();
  await expect(page).toHaveURL(/q=blur-/);
  await expect(page.getByText(t("en", "transactions.count", { total: "11" }))).toBeVisible();
  await expect(page.locator("tbody tr")).toHaveCount(10);
  await page.getByRole("radio", { name: "50" }).check();
  await expect(page).toHaveURL(/per_page=50/);
  await expect(page.locator("tbody tr")).toHaveCount(11);
  // The same view from the link alone.
  await page.goto(page.url());
  await expect(page.locator("tbody tr")).toHaveCount(11);

  // The filter panel and the paginator, with JavaScript: both write the query string.
  await waitForHydration(page);
  await page.getByRole("radio", { name: "10", exact: true }).check();
  await expect(page).not.toHaveURL(/per_page=50/);
  await page.locator("summary", { hasText: t("en", "transactions.filters.title") }).click();
  await page.getByRole("checkbox", { name: t("en", "states.created"), exact: true }).check();
  await page.getByRole("button", { name: t("en", "transactions.filters.apply") }).click();
  await expect(page).toHaveURL(/state=created/);
  await expect(page).toHaveURL(/q=blur-/);
  await expect(page.getByText(t("en", "transactions.count", { total: "11" }))).toBeVisible();
  await page
    .getByRole("navigation", { name: t("en", "transactions.pagination") })
    .getByRole("link", { name: "2", exact: true })
    .click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("cell", { name: "blur-01@example.com" })).toBeVisible();
});

test("a row's action asks first; a bulk action that works on some rows says 'Applied partially'", async ({
  page,
  request,
}) => {
  const token = await tokenOf(request);
  await createRequest(request, token, { amount: "2.000", customer_email: "bulk-a@example.com" });
  await createRequest(request, token, { amount: "2.000", customer_email: "bulk-b@example.com" });
  await signIn(page, "admin");
  await page.goto(listFor("bulk-"));
  await expect(page.locator("tbody tr")).toHaveCount(2);

  // Cancel the newest one from its row: a confirmation first, then the list says it is done.
  await pickRowAction(page, "cancel");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText(t("en", "transactions.confirm.cancel"))).toBeVisible();
  await dialog.getByRole("button", { name: t("en", "operations.yes") }).click();
  await expect(page.getByText(t("en", "actions.done.cancel"))).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.locator("tbody").getByText(t("en", "states.canceled"), { exact: true })).toHaveCount(1);

  // Both selected: the canceled one cannot be canceled again, the other can.
  for (const box of await page.locator("tbody").getByRole("checkbox").all()) await box.check();
  await page.getByRole("combobox", { name: t("en", "transactions.bulk_actions") }).selectOption("cancel");
  await page.getByRole("button", { name: t("en", "transactions.apply"), exact: true }).click();
  await expect(page.getByText(t("en", "actions.applied_partially"))).toBeVisible();
  await expect(
    page.getByText(
      new RegExp(t("en", "transactions.partial_row", { orderNo: "\\d+", message: t("en", "actions.not_available") })),
    ),
  ).toBeVisible();
  await expect(page.locator("tbody").getByText(t("en", "states.canceled"), { exact: true })).toHaveCount(2);
});

test("table headers: choose, rename and order the columns of a section", async ({ page, request }) => {
  const token = await tokenOf(request);
  await createRequest(request, token, {
    amount: "3.000",
    customer_email: "columns@example.com",
    customer_phone: "55512345",
  });
  await signIn(page, "admin");
  await page.goto("/en/payment-request/transactions");
  await page
    .locator("main")
    .getByRole("link", { name: t("en", "transactions.table_headers") })
    .click();
  await expect(page).toHaveURL(urlPath("/en/payment-request/table-headers"));
  await page
    .getByRole("checkbox", { name: t("en", "table_headers.show_field", { field: t("en", "fields.initiator") }) })
    .uncheck();
  await page
    .getByRole("checkbox", { name: t("en", "table_headers.show_field", { field: t("en", "fields.customer_phone") }) })
    .check();
  await page
    .getByRole("textbox", { name: `${t("en", "table_headers.label_en")}: ${t("en", "fields.customer_email")}` })
    .fill("Buyer email");
  await page.getByRole("button", { name: t("en", "table_headers.save") }).click();
  await expect(page.getByText(t("en", "table_headers.saved"))).toBeVisible();

  await page.goto(listFor("columns@example.com"));
  const headers = page.locator("thead th");
  await expect(headers.filter({ hasText: "Buyer email" })).toHaveCount(1);
  await expect(headers.filter({ hasText: t("en", "fields.initiator") })).toHaveCount(0);
  await expect(headers.filter({ hasText: t("en", "fields.customer_phone") })).toHaveCount(1);
  await expect(page.getByRole("cell", { name: "+96555512345" })).toBeVisible();
  // Arabic labels are their own.
  await page.goto(`/ar/payment-request/transactions?q=columns%40example.com`);
  await expect(page.locator("thead th").filter({ hasText: t("ar", "fields.customer_email") })).toHaveCount(1);
});

test("refund part of a paid card payment, then the rest; the child rows show both", async ({ page, request }) => {
  const token = await tokenOf(request);
  const { payPath } = await createRequest(request, token, {
    amount: "10.000",
    customer_email: "refund-me@example.com",
  });
  await payByCard(page, payPath);

  await signIn(page, "admin");
  await page.goto(listFor("refund-me@example.com"));
  await expect(page.locator("tbody").getByText(t("en", "states.paid"), { exact: true })).toBeVisible();

  // More than was paid is refused, and the dialog keeps the amount.
  let dialog = await operate(page, "refund", "11.000");
  await expect(dialog.getByText(t("en", "operations.errors.above_available"))).toBeVisible();
  await expect(dialog.locator('input[name="amount"]')).toHaveValue("11.000");

  await dialog.locator('input[name="amount"]').fill("4.000");
  await dialog.getByRole("button", { name: t("en", "actions.refund"), exact: true }).click();
  await expect(dialog.getByText(t("en", "operations.are_you_sure"))).toBeVisible();
  await expect(dialog.locator('input[name="amount"]')).toHaveAttribute("readonly", "");
  await dialog.getByRole("button", { name: t("en", "operations.yes") }).click();
  await expect(page.getByRole("dialog").getByText(t("en", "operations.success.refund"))).toBeVisible();
  await page
    .getByRole("dialog")
    .getByRole("link", { name: t("en", "operations.ok") })
    .click();
  // Part of it given back: the list says so, and the state filter finds it.
  await expect(page.locator("tbody").getByText(t("en", "states.partially_refunded"), { exact: true })).toBeVisible();
  await page.goto(`${listFor("refund-me@example.com")}&state=partially_refunded`);
  await expect(page.locator("tbody").getByText(t("en", "states.partially_refunded"), { exact: true })).toBeVisible();
  await page.goto(listFor("refund-me@example.com"));

  // The rest: the dialog offers what is left (10.300 paid with the card fee, less 4.000).
  dialog = await operate(page, "refund", null);
  await expect(dialog.getByText(t("en", "operations.are_you_sure"))).toBeVisible();
  await expect(dialog.locator('input[name="amount"]')).toHaveValue("6.300");
  await dialog.getByRole("button", { name: t("en", "operations.yes") }).click();
  await expect(page.getByRole("dialog").getByText(t("en", "operations.success.refund"))).toBeVisible();
  await page
    .getByRole("dialog")
    .getByRole("link", { name: t("en", "operations.ok") })
    .click();

  await expect(page.locator("tbody").getByText(t("en", "states.refunded"), { exact: true })).toBeVisible();
  await page.getByRole("button", { name: t("en", "transactions.children", { count: "2" }) }).click();
  const children = page.locator("tr.child-row");
  await expect(children).toHaveCount(2);
  await expect(children.nth(0)).toContainText("KWD\u00a04.000");
  await expect(children.nth(1)).toContainText("KWD\u00a06.300");
  await expect(children.nth(1)).toContainText(t("en", "operations.state.succeeded"));
});

/** The list has no sideways scroll (neither the page nor the table) and the row's Actions menu is on screen. */
async function expectFitsWithActions(page: Page, lang: "en" | "ar") {
  await waitForHydration(page);
  const widths = await page.evaluate(() => {
    const table = document.querySelector("table.transactions-table");
    const container = table?.parentElement;
    return {
      page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
      table: [container?.scrollWidth ?? 0, container?.clientWidth ?? 0],
    };
  });
  expect(widths.page[0]).toBeLessThanOrEqual(widths.page[1]);
  expect(widths.table[0]).toBeLessThanOrEqual(widths.table[1]);
  const trigger = page
    .locator("tbody")
    .getByLabel(new RegExp(`^${t(lang, "transactions.row_actions", { orderNo: "\\d+" })}$`))
    .first();
  await expect(trigger).toBeInViewport();
  const box = (await trigger.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1366);
}

test("status tabs, name search in Arabic and English, and a list that fits 1366 px after a refund", async ({
  page,
  request,
}) => {
  const token = await tokenOf(request);
  const tag = String(Date.now()).slice(-7);
  const paid = await createRequest(request, token, {
    amount: "12.000",
    customer_first_name: "فاطمة",
    customer_last_name: `الصباح${tag}`,
    customer_email: `a.very.long.customer.address.${tag}@subdomain.example.com`,
  });
  await createRequest(request, token, {
    amount: "3.000",
    customer_first_name: "Fatima",
    customer_last_name: `Kw${tag}`,
    customer_email: `fk${tag}@example.com`,
  });
  await payByCard(page, paid.payPath);

  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, "admin");
  // Arabic: the other spelling of ta marbuta, then the start of the next word.
  await page.goto(`/en/payment-request/transactions?q=${encodeURIComponent(`فاطمه الصباح${tag}`)}`);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("cell", { name: t("en", "states.paid") })).toBeVisible();
  // English, in any case, from the last name on.
  await page.goto(`/en/payment-request/transactions?q=${encodeURIComponent(`kw${tag}`)}`);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("cell", { name: `fk${tag}@example.com` })).toBeVisible();

  // The tabs set the state filter and keep the search; the current one is marked.
  const search = `?q=${encodeURIComponent(`فاطمه`)}`;
  await page.goto(`/en/payment-request/transactions${search}`);
  const tabs = page.getByRole("navigation", { name: t("en", "transactions.tabs.label") });
  await expect(tabs.getByRole("link", { name: t("en", "transactions.tabs.all") })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await tabs.getByRole("link", { name: t("en", "transactions.tabs.pending") }).click();
  await expect(page).toHaveURL(/state=created%2Cpending%2Cattempted/);
  await expect(page).toHaveURL(/q=/);
  await expect(tabs.getByRole("link", { name: t("en", "transactions.tabs.pending") })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(
    page.getByRole("cell", { name: `a.very.long.customer.address.${tag}@subdomain.example.com` }),
  ).toHaveCount(0);
  await tabs.getByRole("link", { name: t("en", "transactions.tabs.paid") }).click();
  await expect(
    page.getByRole("cell", { name: `a.very.long.customer.address.${tag}@subdomain.example.com` }),
  ).toBeVisible();
  await expect(tabs.getByRole("link", { name: t("en", "transactions.tabs.all") })).not.toHaveAttribute(
    "aria-current",
    "page",
  );

  // A partial refund: the row reads Partially refunded, is on the Refunded tab, and the list still fits.
  await page.goto(`/en/payment-request/transactions?q=${encodeURIComponent(`فاطمه الصباح${tag}`)}`);
  await operate(page, "refund", "2.000");
  await page
    .getByRole("dialog")
    .getByRole("button", { name: t("en", "operations.yes") })
    .click();
  await page
    .getByRole("dialog")
    .getByRole("link", { name: t("en", "operations.ok") })
    .click();
  await tabs.getByRole("link", { name: t("en", "transactions.tabs.refunded") }).click();
  await expect(page.locator("tbody").getByText(t("en", "states.partially_refunded"), { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: t("en", "transactions.children", { count: "1" }) })).toBeVisible();
  for (const lang of ["en", "ar"] as const) {
    await page.goto(`/${lang}/transactions?q=a.very.long.customer.address.${tag}`);
    await expect(page.locator("tbody").getByText(t(lang, "states.partially_refunded"), { exact: true })).toBeVisible();
    await expectFitsWithActions(page, lang);
    await page.goto(`/${lang}/transactions`);
    await expectFitsWithActions(page, lang);
  }
});

test("capture an authorization of a manual-capture card gateway", async ({ page, request }) => {
  // The demo gateways capture at once; a merchant's manual-capture gateway is set up here.
  const db = new Database(path.join(databaseDir(workerIndex), "e2e.sqlite"));
  try {
    const card = db.prepare("select * from gateways where code = 'mpgs-sandbox'").get() as Record<string, unknown>;
    db.prepare(
      `insert into gateways (merchant_id, code, kind, name_en, name_ar, logo_url, currencies, endpoint_url, credentials, fee_fixed, fee_basis_points, fee_payer, capture_mode, enabled, sort_order, created_at)
       select merchant_id, 'card-manual', 'mpgs', 'Card (authorize)', 'بطاقة (تفويض)', logo_url, 'USD', endpoint_url, credentials, 0, 0, 'merchant', 'manual', 1, 9, created_at
       from gateways where id = ? and not exists (select 1 from gateways where code = 'card-manual')`,
    ).run(card.id);
  } finally {
    db.close();
  }
  const token = await tokenOf(request);
  const { payPath } = await createRequest(request, token, {
    amount: "25.00",
    currency_code: "USD",
    pg_codes: ["card-manual"],
    customer_email: "capture-me@example.com",
  });
  await page.goto(payPath);
  await page.getByRole("button", { name: /Pay Now/ }).click();
  await page.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
  await page.getByRole("textbox", { name: "Expiry" }).fill("01/39");
  await page.getByRole("textbox", { name: "CVV" }).fill("123");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();

  await signIn(page, "admin");
  await page.goto(listFor("capture-me@example.com"));
  await expect(page.locator("tbody").getByText(t("en", "states.authorized"), { exact: true })).toBeVisible();
  const dialog = await operate(page, "capture", "20.00");
  await expect(dialog.getByText(t("en", "operations.are_you_sure"))).toBeVisible();
  await dialog.getByRole("button", { name: t("en", "operations.yes") }).click();
  await expect(page.getByRole("dialog").getByText(t("en", "operations.success.capture"))).toBeVisible();
  await page
    .getByRole("dialog")
    .getByRole("link", { name: t("en", "operations.ok") })
    .click();
  await expect(page.locator("tbody").getByText(t("en", "states.paid"), { exact: true })).toBeVisible();
  await page.getByRole("button", { name: t("en", "transactions.children", { count: "1" }) }).click();
  await expect(page.locator("tr.child-row")).toContainText("USD\u00a020.00");
});

test("a maker's refund waits for the checker and runs once approved", async ({ browser, request }) => {
  const token = await tokenOf(request);
  const { payPath } = await createRequest(request, token, {
    amount: "8.000",
    customer_email: "maker-flow@example.com",
  });
  const customer = await browser.newPage();
  await payByCard(customer, payPath);
  await customer.close();

  const makerPage = await (await browser.newContext()).newPage();
  await signIn(makerPage, "maker");
  await makerPage.goto(listFor("maker-flow@example.com"));
  const dialog = await operate(makerPage, "refund", "2.000");
  await dialog.getByRole("button", { name: t("en", "operations.yes") }).click();
  await expect(makerPage.getByRole("dialog").getByText(t("en", "operations.success.requested"))).toBeVisible();
  await makerPage
    .getByRole("dialog")
    .getByRole("link", { name: t("en", "operations.ok") })
    .click();
  // Nothing moved yet.
  await expect(makerPage.locator("tbody").getByText(t("en", "states.paid"), { exact: true })).toBeVisible();
  await expect(makerPage.locator("tr.child-row")).toHaveCount(0);

  const checkerPage = await (await browser.newContext()).newPage();
  await signIn(checkerPage, "checker");
  await checkerPage.goto("/en/ticket/approve-refund-void?state=pending");
  await checkerPage
    .getByRole("link", { name: /^#\d+$/ })
    .first()
    .waitFor();
  const row = checkerPage.locator("tbody tr", { hasText: "maker" }).first();
  await row.getByRole("link", { name: new RegExp(t("en", "tickets.open_request", { id: "\\d+" })) }).click();
  await checkerPage.getByRole("button", { name: t("en", "tickets.decisions.approve") }).click();
  // Approve asks first, showing what will move; money moves on Yes.
  await checkerPage.getByRole("button", { name: t("en", "tickets.confirm.yes") }).click();
  await expect(
    checkerPage.getByRole("status").getByText(t("en", "operations.done.refund", { amount: "KWD\u00a02.000" })),
  ).toBeVisible();
  // Approving again does nothing more.
  await expect(checkerPage.getByRole("button", { name: t("en", "tickets.decisions.approve") })).toHaveCount(0);

  await checkerPage.goto(listFor("maker-flow@example.com"));
  await checkerPage.getByRole("button", { name: t("en", "transactions.children", { count: "1" }) }).click();
  await expect(checkerPage.locator("tr.child-row")).toHaveCount(1);
  await expect(checkerPage.locator("tr.child-row")).toContainText("KWD\u00a02.000");
  await expect(checkerPage.locator("tr.child-row")).toContainText(t("en", "operations.state.succeeded"));
});

/** Waits on Generated Reports until the highlighted report is ready, then downloads it. */
async function downloadReport(page: Page, lang: "en" | "ar") {
  await expect(page).toHaveURL(/generated-reports\?id=\d+/);
  const id = new URL(page.url()).searchParams.get("id");
  const link = page.locator(`a[href="/${lang}/generated-reports/${id}/download"]`);
  await expect(async () => {
    await page.reload();
    await expect(link).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return fs.readFileSync((await download.path())!);
}

test("a CSV in Arabic and an XLSX in English with chosen fields arrive in Generated reports", async ({
  page,
  request,
}) => {
  const token = await tokenOf(request);
  await createRequest(request, token, { amount: "7.250", customer_email: "columns-export-a@example.com" });
  await createRequest(request, token, {
    amount: "9.500",
    customer_email: "columns-export-b@example.com",
    description: '=HYPERLINK("x")',
  });
  await signIn(page, "admin");

  // XLSX, selected fields, English labels, from the all-transactions list.
  await page.goto("/en/transactions?q=columns-export-");
  await page.locator("summary", { hasText: t("en", "exports.button") }).click();
  await page.getByRole("radio", { name: t("en", "exports.xls") }).check();
  await page.getByRole("radio", { name: t("en", "exports.type_selected") }).check();
  // The selection starts from the list's columns: keep only the three wanted.
  const panel = page.locator("form[action='/en/transactions/export']");
  for (const box of await panel.getByRole("checkbox").all()) await box.uncheck();
  for (const field of ["customer_email", "amount", "description"]) {
    await page.getByRole("checkbox", { name: t("en", `fields.${field}`), exact: true }).check();
  }
  await page.getByRole("button", { name: t("en", "exports.submit") }).click();
  const xlsx = await downloadReport(page, "en");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows = sheet
    .getSheetValues()
    .filter(Boolean)
    .map((row) => (row as unknown[]).slice(1).map(String));
  expect(rows[0]).toEqual([t("en", "fields.customer_email"), t("en", "fields.amount"), t("en", "fields.description")]);
  // Amounts are numbers Excel can add up, shown with the currency's three decimals.
  expect(rows.slice(1)).toEqual([
    ["columns-export-b@example.com", "9.5", '\'=HYPERLINK("x")'],
    ["columns-export-a@example.com", "7.25"],
  ]);
  expect(sheet.getCell("B2").numFmt).toBe("0.000");

  // CSV, the default fields (the list's columns), Arabic labels.
  await page.goto(`/ar/payment-request/transactions?q=columns-export-`);
  await page.locator("summary", { hasText: t("ar", "exports.button") }).click();
  await page.getByRole("radio", { name: t("ar", "exports.csv") }).check();
  await page.getByRole("button", { name: t("ar", "exports.submit") }).click();
  const csv = (await downloadReport(page, "ar")).toString("utf8").replace(/^\uFEFF/, "");
  const [header, ...lines] = csv.trim().split(/\r?\n/);
  expect(header).toContain(t("ar", "fields.customer_email"));
  expect(header).toContain(t("ar", "fields.amount"));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain("columns-export-b@example.com");
});
