import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { BASE_URL, DEMO_PASSWORD, signIn, t, urlPath, waitForHydration } from "./support";

const stamp = Date.now().toString(36);
const API = "/api/v1/plugins/food_ordering";

const branchNames = { en: `Gulf Grill ${stamp}`, ar: `مشويات الخليج ${stamp}` };
const grills = { en: `Grills ${stamp}`, ar: `مشاوي ${stamp}` };
const dish = { en: `Mixed grill ${stamp}`, ar: `مشاوي مشكلة ${stamp}` };
const trays = { en: `Catering trays ${stamp}`, ar: `صواني الضيافة ${stamp}` };
const tray = { en: `Machboos tray ${stamp}`, ar: `صينية مجبوس ${stamp}` };
const voucherCode = `FE${stamp.toUpperCase()}`;
const customer = { name: `مريم ${stamp}`, phone: "55512345", block: "10", street: "بغداد", house: "7" };

/** What the set-up and the customer's order turned out to be, for the tests that follow them. */
const made = { branch: 0, grillsCategory: 0, trayCategory: 0, dish: 0 };
const ordered = { id: 0, number: "", orderNo: 0 };
let merchantId = 0;

async function adminToken(request: APIRequestContext) {
  const answer = await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

async function create(request: APIRequestContext, token: string, resource: string, body: Record<string, unknown>) {
  const answer = await request.post(`${API}/dashboard/${resource}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()) as { id: number } & Record<string, unknown>;
}

async function apiGet<T>(request: APIRequestContext, token: string, url: string) {
  const answer = await request.get(url, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as T;
}

/** The merchant's menu items whose English name is one of `names`, as the merchant API lists them. */
async function itemsNamed(request: APIRequestContext, names: string[]) {
  const token = await adminToken(request);
  const list = await apiGet<{ results: { name_en: string }[] }>(request, token, `${API}/dashboard/menu-items`);
  return list.results.map((item) => item.name_en).filter((name) => names.includes(name));
}

/** A time `days` from now in Kuwait at `hour`:00, as a datetime-local value. */
function kuwaitLocal(days: number, hour: number) {
  const day = new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Asia/Kuwait",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(Date.now() + days * 86_400_000));
  return `${day}T${String(hour).padStart(2, "0")}:00`;
}

function writeCsv(name: string, lines: string[]) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "food-bulk-")), name);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** A pickup order of two regular grills with garlic sauce, paid on delivery, through the public checkout API. */
async function placeApiOrder(request: APIRequestContext, customerName: string) {
  const product = await apiGet<{ sizes: { id: number }[]; options: { id: number; choices: { id: number }[] }[] }>(
    request,
    await adminToken(request),
    `${API}/products/${made.dish}`,
  );
  const placed = await request.post(`${API}/checkout`, {
    data: {
      delivery_type: "pickup",
      branch: made.branch,
      customer_name: customerName,
      customer_phone: "55598765",
      gateway_code: "cod",
      lines: [
        {
          menu_item: made.dish,
          category_id: made.grillsCategory,
          quantity: 2,
          size: product.sizes[0].id,
          add_ons: [],
          options: { [String(product.options[0].id)]: product.options[0].choices[0].id },
          special_instructions: "",
        },
      ],
    },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  return (await placed.json()) as { id: number; number: string; checkout_url?: string | null };
}

async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

// The restaurant of this file, made through the merchant API once per worker (again after a worker restarts).
test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  const everyDay = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, opens: "00:00", closes: "23:59" }));
  const branch = await create(request, token, "branches", {
    name_en: branchNames.en,
    name_ar: branchNames.ar,
    email: `grill-${stamp}@example.com`,
    phone: "+965 2222 3333",
    address: "<p>Salem Al-Mubarak St., <b>Salmiya</b></p>",
    minimum_order_sum: "1.000",
    delivery_time: 45,
    lat: 29.334,
    lng: 48.076,
    offers_pickup: true,
    offers_delivery: true,
    offers_catering: true,
    is_active: true,
    hours: everyDay,
  });
  made.branch = branch.id;
  await create(request, token, "delivery-areas", {
    branch: branch.id,
    area: "Salmiya",
    charge: "0.500",
    min_order: "2.000",
    is_active: true,
  });
  made.grillsCategory = (
    await create(request, token, "categories", { name_en: grills.en, name_ar: grills.ar, is_active: true })
  ).id;
  made.dish = (
    await create(request, token, "menu-items", {
      category: made.grillsCategory,
      name_en: dish.en,
      name_ar: dish.ar,
      description_en: "Lamb, chicken and kofta from the charcoal grill.",
      description_ar: "لحم ودجاج وكفتة على الفحم.",
      price: "3.000",
      quantity: null,
      is_available: true,
      sizes: [
        { name_en: "Regular", name_ar: "عادي", price: "3.000" },
        { name_en: "Large", name_ar: "كبير", price: "4.500" },
      ],
      add_ons: [{ name_en: "Extra bread", name_ar: "خبز إضافي", price: "0.250" }],
      option_groups: [
        {
          name_en: "Sauce",
          name_ar: "الصلصة",
          min_choices: 1,
          max_choices: 1,
          choices: [
            { name_en: "Garlic", name_ar: "ثوم", price: "0.000" },
            { name_en: "Tahini", name_ar: "طحينة", price: "0.100" },
          ],
        },
      ],
    })
  ).id;
  made.trayCategory = (
    await create(request, token, "categories", {
      name_en: trays.en,
      name_ar: trays.ar,
      is_active: true,
      is_catering: true,
      min_plates: 10,
      service_charge: "2.000",
    })
  ).id;
  await create(request, token, "menu-items", {
    category: made.trayCategory,
    name_en: tray.en,
    name_ar: tray.ar,
    price: "1.500",
    quantity: null,
    is_available: true,
  });
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const nextMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await create(request, token, "vouchers", {
    code: voucherCode,
    discount_type: "percentage",
    amount: "10",
    valid_from: yesterday,
    valid_to: nextMonth,
    min_total: "1.000",
    max_uses: 5,
    max_uses_per_customer: 1,
    is_active: true,
  });
  // The public pages take the merchant's id: the one whose public branches list holds the new branch.
  for (let id = 1; id <= 20 && !merchantId; id++) {
    const answer = await request.get(`${API}/branches?merchant=${id}`);
    if (answer.status() !== 200) continue;
    const body = (await answer.json()) as { id: number }[] | { results: { id: number }[] };
    if ((Array.isArray(body) ? body : body.results).some((one) => one.id === branch.id)) merchantId = id;
  }
  expect(merchantId).toBeGreaterThan(0);
});

test.describe("food ordering: a delivery order from the customer's phone to the kitchen's last state", () => {
  test.describe.configure({ mode: "serial" });

  test.describe("the customer, in Arabic, with JavaScript off, on a phone", () => {
    test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

    test("orders a grill for delivery, applies a voucher and pays with KNET", async ({ page, request }) => {
      await page.goto(`/ar/new-menu?merchant=${merchantId}`);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await fitsTheScreen(page);

      // Delivery from the test's branch, then its area (offered once the branch is chosen).
      await page.getByRole("radio", { name: t("ar", "food_public.delivery_types.delivery"), exact: true }).check();
      await page
        .getByLabel(t("ar", "food_public.menu.branch"), { exact: true })
        .selectOption({ label: branchNames.ar });
      await page.getByRole("button", { name: t("ar", "food_public.menu.apply"), exact: true }).click();
      const areaField = page.getByLabel(t("ar", "food_public.menu.area"), { exact: true });
      await areaField.selectOption({ label: "السالمية" });
      await page.getByRole("button", { name: t("ar", "food_public.menu.apply"), exact: true }).click();
      await expect(
        page.getByRole("radio", { name: t("ar", "food_public.delivery_types.delivery"), exact: true }),
      ).toBeChecked();
      await expect(areaField).toHaveValue(/\d+/);
      await fitsTheScreen(page);

      // The dish's details: a size, an add-on and a sauce.
      await page
        .getByRole("link", { name: new RegExp(dish.ar) })
        .first()
        .click();
      await expect(page).toHaveURL(urlPath(`/ar/new-menu/category/${made.grillsCategory}/food-details/${made.dish}`));
      await expect(page.getByRole("heading", { level: 1, name: dish.ar })).toBeVisible();
      await fitsTheScreen(page);
      await page.getByRole("radio", { name: /كبير/ }).check();
      await page.getByRole("checkbox", { name: /خبز إضافي/ }).check();
      await page.getByRole("radio", { name: /طحينة/ }).check();
      await page.getByRole("button", { name: t("ar", "food_public.details.add_to_cart"), exact: true }).click();

      // Back on the menu, one item in the cart.
      await expect(page.getByText(t("ar", "food_public.menu.cart_summary", { items: "1" }))).toBeVisible();
      await page.getByRole("link", { name: t("ar", "food_public.menu.checkout"), exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/ar/new-menu/checkout\\?merchant=${merchantId}$`));
      await expect(page.getByRole("heading", { level: 1, name: t("ar", "food_public.checkout.title") })).toBeVisible();
      await expect(page.getByText(`1 × ${dish.ar}`)).toBeVisible();
      await fitsTheScreen(page);
      const totals = page.locator("dl.food-totals");
      // Large 4.500 + bread 0.250 + tahini 0.100, and the area's 0.500 for delivery.
      await expect(totals).toContainText("4.850");
      await expect(totals).toContainText(t("ar", "food_public.totals.delivery_charge"));
      await expect(totals).not.toContainText(t("ar", "food_public.totals.discount"));

      // The voucher: 10 % off the dishes.
      await page.getByRole("textbox", { name: t("ar", "food_public.checkout.voucher") }).fill(voucherCode);
      await page.getByRole("button", { name: t("ar", "food_public.checkout.apply"), exact: true }).click();
      await expect(totals).toContainText(t("ar", "food_public.totals.discount"));
      await expect(totals.locator("dd").nth(1)).toContainText("0.485");
      await expect(totals.locator("dd.food-totals__total")).toContainText("4.865");

      await page.getByRole("textbox", { name: t("ar", "food_public.checkout.name"), exact: true }).fill(customer.name);
      await page
        .getByRole("textbox", { name: t("ar", "food_public.checkout.phone"), exact: true })
        .fill(customer.phone);
      await expect(page.getByRole("textbox", { name: t("ar", "food_public.address.area"), exact: true })).toHaveValue(
        "السالمية",
      );
      await page.getByRole("textbox", { name: t("ar", "food_public.address.block"), exact: true }).fill(customer.block);
      await page
        .getByRole("textbox", { name: t("ar", "food_public.address.street"), exact: true })
        .fill(customer.street);
      await page
        .getByRole("textbox", { name: t("ar", "food_public.address.house_no"), exact: true })
        .fill(customer.house);
      await page.getByRole("radio", { name: "كي نت" }).check();
      await page
        .getByRole("button", {
          name: new RegExp(t("ar", "food_public.checkout.place_order", { total: "" }).replace(/[·\s]+$/, "")),
        })
        .click();

      // The pay page of the order, then KNET's sandbox.
      await expect(page).toHaveURL(/\/ar\/pay\/[^/?]+$/);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByText("4.865").first()).toBeVisible();
      await fitsTheScreen(page);
      await page.getByRole("button", { name: new RegExp(t("ar", "pay.pay_now", { amount: "" }).trim()) }).click();
      await expect(page.getByRole("heading", { name: "ادفع ببطاقة السحب الآلي" })).toBeVisible();
      await page.getByRole("textbox", { name: "رقم البطاقة" }).fill("8888880000000001");
      await page.getByRole("textbox", { name: "الرقم السري" }).fill("1234");
      await page.getByRole("button", { name: "إرسال", exact: true }).click();
      await expect(page.getByRole("heading", { name: t("ar", "result.success_title") })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await fitsTheScreen(page);

      // The order, as the merchant's API finds it by the customer's name.
      const token = await adminToken(request);
      const list = await apiGet<{
        count: number;
        results: { id: number; number: string; order_no: number; status: string; total: string }[];
      }>(request, token, `${API}/order?q=${encodeURIComponent(customer.name)}`);
      expect(list.count).toBe(1);
      expect(list.results[0]).toMatchObject({ status: "new", total: "4.865" });
      Object.assign(ordered, {
        id: list.results[0].id,
        number: list.results[0].number,
        orderNo: list.results[0].order_no,
      });

      // Its confirmation page, in Arabic: paid, so new.
      await page.goto(`/ar/new-menu/order-confirmation/${ordered.number}`);
      await expect(
        page.getByRole("heading", {
          level: 1,
          name: t("ar", "food_public.order.title", { number: String(ordered.orderNo) }),
        }),
      ).toBeVisible();
      await expect(page.locator(".food-state")).toHaveText(t("ar", "food_public.states.new"));
      await expect(page.getByText(`1 × ${dish.ar}`)).toBeVisible();
      await fitsTheScreen(page);
    });
  });

  test("staff see the new order highlighted, and the list brings in the next one by itself", async ({
    page,
    request,
  }) => {
    await signIn(page, "admin");
    await page.goto("/en/food-ordering/orders");
    await expect(page.getByRole("heading", { level: 1, name: t("en", "food_orders.title") })).toBeVisible();
    await waitForHydration(page);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: `#${ordered.orderNo}` }) });
    await expect(row).toHaveAttribute("data-new", "true");
    // Its state and the new badge both read "New".
    expect(t("en", "food_orders.new_badge")).toBe(t("en", "food_orders.statuses.new"));
    await expect(row.getByText(t("en", "food_orders.new_badge"), { exact: true })).toHaveCount(2);
    await expect(row).toContainText(customer.name);

    // admin opts in to order notifications (their own setting, through the API).
    const token = await adminToken(request);
    const me = await apiGet<{ id: number }>(request, token, "/api/v1/user/details");
    const optIn = await request.patch(`/api/v1/user/update-user/${me.id}`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { receive_order_notification: true },
    });
    expect(optIn.status(), await optIn.text()).toBe(200);

    // An order placed meanwhile (through the public API, paid on delivery) appears without a reload.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const apiCustomer = `Api customer ${stamp}`;
    const apiOrder = await placeApiOrder(request, apiCustomer);
    // Paid on delivery: no pay link.
    expect(apiOrder.checkout_url ?? null).toBeNull();
    // The 'Order created' alert for staff who opted in, then the row, both without a reload.
    await expect(
      page
        .getByRole("region", { name: t("en", "notifications.region") })
        .getByText(t("en", "notifications.order_created")),
    ).toBeVisible({ timeout: 15_000 });
    const apiRow = page.getByRole("row").filter({ hasText: apiCustomer });
    await expect(apiRow).toBeVisible({ timeout: 15_000 });
    await expect(apiRow).toHaveAttribute("data-new", "true");
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  test("staff move the order through its states and the customer's page follows in Arabic", async ({
    page,
    browser,
  }) => {
    const customerContext = await browser.newContext({
      baseURL: BASE_URL,
      javaScriptEnabled: false,
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const customerPage = await customerContext.newPage();
    const confirmation = `/ar/new-menu/order-confirmation/${ordered.number}`;
    const customerSees = async (status: string) => {
      await customerPage.goto(confirmation);
      await expect(customerPage.locator(".food-state")).toHaveText(t("ar", `food_public.states.${status}`));
    };

    await signIn(page, "admin");
    await page.goto("/en/food-ordering/orders");
    await page.getByRole("link", { name: `#${ordered.orderNo}` }).click();
    await expect(page).toHaveURL(urlPath(`/en/food-ordering/orders/${ordered.id}`));
    await expect(
      page.getByRole("heading", {
        level: 1,
        name: t("en", "food_orders.order_title", { orderNo: String(ordered.orderNo) }),
      }),
    ).toBeVisible();
    await expect(page.getByText(customer.name).first()).toBeVisible();
    await waitForHydration(page);

    // The order's Status field (its label, then its value).
    const statusField = page
      .locator("main")
      .locator(`xpath=.//p[normalize-space()="${t("en", "food_orders.status")}"]/following-sibling::p[1]`);
    await expect(statusField).toHaveText(t("en", "food_orders.statuses.new"));
    for (const status of ["accepted", "preparing", "ready", "out_for_delivery", "delivered"]) {
      await page.getByRole("button", { name: t("en", `food_orders.move_to.${status}`), exact: true }).click();
      await expect(statusField).toHaveText(t("en", `food_orders.statuses.${status}`));
      if (status === "accepted" || status === "preparing" || status === "delivered") await customerSees(status);
    }
    // Delivered is the last state: no further step is offered.
    await expect(page.getByRole("heading", { name: t("en", "food_orders.workflow") })).toHaveCount(0);
    await customerContext.close();

    // Once opened, the order is no longer highlighted as new.
    await page.goto("/en/food-ordering/orders");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: `#${ordered.orderNo}` }) });
    await expect(row.getByText(t("en", "food_orders.statuses.delivered"), { exact: true })).toBeVisible();
    await expect(row).not.toHaveAttribute("data-new", "true");
  });

  test("staff are told the order's new state after moving it", async ({ page, request }) => {
    const order = await placeApiOrder(request, `Flash customer ${stamp}`);
    await signIn(page, "admin");
    await page.goto(`/en/food-ordering/orders/${order.id}`);
    await page.getByRole("button", { name: t("en", "food_orders.move_to.accepted"), exact: true }).click();
    await expect(page.getByText(t("en", "food_orders.moved_to.accepted"), { exact: true })).toBeVisible();
  });

  test("scanning the order's QR code (typed) opens its details; a forged code is refused", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto(`/en/food-ordering/orders/${ordered.id}`);
    await expect(
      page.getByRole("img", { name: t("en", "food_orders.qr_alt", { orderNo: String(ordered.orderNo) }) }),
    ).toBeVisible();
    const code = (await page.getByTestId("order-qr-code").innerText()).trim();
    expect(code.length).toBeGreaterThan(8);

    await page.goto("/en/food-ordering/fulfillment");
    await expect(page.getByRole("heading", { level: 1, name: t("en", "food_orders.fulfillment.title") })).toBeVisible();
    await waitForHydration(page);
    const field = page.getByRole("textbox", { name: t("en", "food_orders.fulfillment.code") });
    await field.fill(code);
    await page.getByRole("button", { name: t("en", "food_orders.fulfillment.submit"), exact: true }).click();
    await expect(page).toHaveURL(urlPath(`/en/food-ordering/orders/${ordered.id}`));
    await expect(
      page.getByRole("heading", {
        level: 1,
        name: t("en", "food_orders.order_title", { orderNo: String(ordered.orderNo) }),
      }),
    ).toBeVisible();

    // The same code with its last character changed.
    const forged = code.slice(0, -1) + (code.endsWith("A") ? "B" : "A");
    await page.goto("/en/food-ordering/fulfillment");
    await waitForHydration(page);
    await field.fill(forged);
    await page.getByRole("button", { name: t("en", "food_orders.fulfillment.submit"), exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: t("en", "food_orders.fulfillment.invalid") })).toBeVisible();
    await expect(page).toHaveURL(urlPath("/en/food-ordering/fulfillment"));
  });
});

test.describe("food ordering: the menu's bulk create", () => {
  test("a file with one bad row creates nothing and offers the report; a good file creates its items", async ({
    page,
    request,
  }) => {
    const category = `Bulk ${stamp}`;
    const good = [`Falafel wrap ${stamp}`, `Halloumi wrap ${stamp}`];
    const bad = `Broken wrap ${stamp}`;
    const badFile = writeCsv("menu-with-error.csv", [
      "category,name_en,name_ar,price",
      `${category},${good[0]},لفافة فلافل,0.750`,
      `${category},${good[1]},لفافة حلوم,1.250`,
      `${category},${bad},لفافة مكسورة,abc`,
    ]);

    await signIn(page, "admin");
    await page.goto("/en/food-ordering/bulk-create");
    await expect(page.getByRole("heading", { level: 1, name: t("en", "food_bulk.title") })).toBeVisible();
    await page.getByLabel(t("en", "food_bulk.file_label")).setInputFiles(badFile);
    await page.getByRole("button", { name: t("en", "food_bulk.upload"), exact: true }).click();

    const dialog = page.getByRole("alertdialog", { name: t("en", "food_bulk.rows_title") });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(t("en", "food_bulk.rows_summary", { errors: "1", rows: "3" }))).toBeVisible();
    // The bad row is the file's fourth line (the header is the first).
    const errorRow = dialog.getByRole("row").filter({ has: page.getByRole("cell", { name: "price", exact: true }) });
    await expect(errorRow).toHaveCount(1);
    await expect(errorRow.getByRole("cell").first()).toHaveText("4");
    const report = dialog.getByRole("link", { name: t("en", "food_bulk.download_report") });
    await expect(report).toBeVisible();
    await expect(report).toHaveAttribute("download", "menu-items-error-report.csv");
    const reportText = decodeURIComponent(
      (await report.getAttribute("href"))!.replace(/^data:text\/csv;charset=utf-8,/, ""),
    );
    expect(reportText.split(/\r?\n/)[0]).toMatch(/error/);
    expect(reportText).toContain(bad);
    expect(reportText).toContain("abc");

    // Nothing was created, not even the good rows.
    expect(await itemsNamed(request, [...good, bad])).toEqual([]);

    const goodFile = writeCsv("menu.csv", [
      "category,name_en,name_ar,price",
      `${category},${good[0]},لفافة فلافل,0.750`,
      `${category},${good[1]},لفافة حلوم,1.250`,
    ]);
    await page.getByLabel(t("en", "food_bulk.file_label")).setInputFiles(goodFile);
    await page.getByRole("button", { name: t("en", "food_bulk.upload"), exact: true }).click();
    await expect(
      page.getByRole("status").filter({ hasText: t("en", "food_bulk.created", { count: "2" }) }),
    ).toBeVisible();
    await expect(page.getByText(t("en", "food_bulk.categories_created", { count: "1" }))).toBeVisible();
    await expect(dialog).toHaveCount(0);
    expect((await itemsNamed(request, [...good, bad])).sort()).toEqual([...good].sort());
  });
});

test.describe("food ordering: catering, with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a catering order under the category's minimum plates is refused, naming it; with enough plates it is placed", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const me = await apiGet<{ results: { id: number; name_en: string; category: number }[] }>(
      request,
      token,
      `${API}/dashboard/menu-items?category=${made.trayCategory}`,
    );
    expect(me.results.map((item) => item.name_en)).toEqual([tray.en]);

    await page.goto(`/en/new-menu?merchant=${merchantId}`);
    await page.getByRole("radio", { name: t("en", "food_public.delivery_types.catering"), exact: true }).check();
    await page.getByLabel(t("en", "food_public.menu.branch"), { exact: true }).selectOption({ label: branchNames.en });
    await page.getByRole("button", { name: t("en", "food_public.menu.apply"), exact: true }).click();
    await expect(
      page.getByRole("radio", { name: t("en", "food_public.delivery_types.catering"), exact: true }),
    ).toBeChecked();

    await page
      .getByRole("link", { name: new RegExp(tray.en) })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1, name: tray.en })).toBeVisible();
    await page.getByRole("spinbutton", { name: t("en", "food_public.details.quantity") }).fill("4");
    await page.getByRole("button", { name: t("en", "food_public.details.add_to_cart"), exact: true }).click();
    await page.getByRole("link", { name: t("en", "food_public.menu.checkout"), exact: true }).click();
    await expect(page.getByText(`4 × ${tray.en}`)).toBeVisible();

    const placeOrder = async () => {
      await page.getByLabel(t("en", "food_public.checkout.scheduled_for")).fill(kuwaitLocal(2, 13));
      await page
        .getByRole("textbox", { name: t("en", "food_public.checkout.name"), exact: true })
        .fill(`Catering guest ${stamp}`);
      await page.getByRole("textbox", { name: t("en", "food_public.checkout.phone"), exact: true }).fill("55511122");
      await page.getByRole("radio", { name: /Cash on delivery/ }).check();
      await page
        .getByRole("button", {
          name: new RegExp(`^${t("en", "food_public.checkout.place_order", { total: "" }).replace(/[·\s]+$/, "")}`),
        })
        .click();
    };
    await placeOrder();
    await expect(page).toHaveURL(urlPath("/en/new-menu/checkout"));
    await expect(
      page.getByRole("alert").filter({
        hasText: t("en", "food.errors.catering_minimum", {
          category: `${trays.en} / ${trays.ar}`,
          minimum: "10",
          plates: "4",
        }),
      }),
    ).toBeVisible();

    // Ten plates: placed, paid on delivery, with the category's service charge.
    await page.getByRole("spinbutton", { name: t("en", "food_public.details.quantity") }).fill("10");
    await page.getByRole("button", { name: t("en", "food_public.checkout.update"), exact: true }).click();
    await expect(page.getByText(`10 × ${tray.en}`)).toBeVisible();
    await expect(page.locator("dl.food-totals")).toContainText("15.000");
    await placeOrder();
    await expect(page).toHaveURL(/\/en\/new-menu\/order-confirmation\/[^/?]+$/);
    // The page is found by the order's unguessable key and names the order by its short order number.
    const title = t("en", "food_public.order.title", { number: "ORDER_NO" }).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await expect(
      page.getByRole("heading", { level: 1, name: new RegExp(`^${title.replace("ORDER_NO", "\\d+")}$`) }),
    ).toBeVisible();
    await expect(page.getByText(`10 × ${tray.en}`)).toBeVisible();
    const totals = page.locator("dl.food-totals");
    await expect(totals).toContainText(t("en", "food_public.totals.service_charge"));
    await expect(totals.locator("dd.food-totals__total")).toContainText("17.000");
  });
});
