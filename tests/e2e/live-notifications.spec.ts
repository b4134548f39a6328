import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { DEMO_PASSWORD, signIn, t, waitForHydration } from "./support";

/**
 * The live channel as staff meet it: what happens elsewhere (a customer's order, a colleague's
 * request) reaches the page they have open, without a reload.
 */
const stamp = Date.now().toString(36);
const API = "/api/v1/plugins/food_ordering";

async function tokenOf(request: APIRequestContext, username: string) {
  const answer = await request.post("/api/v1/user/token/", { data: { username, password: DEMO_PASSWORD } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

async function create(request: APIRequestContext, token: string, resource: string, body: Record<string, unknown>) {
  const answer = await request.post(`${API}/dashboard/${resource}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()) as { id: number };
}

/** The page counts the sounds it plays (the browser has no speakers here). */
async function countSounds(page: Page) {
  await page.addInitScript(() => {
    const played = { count: 0 };
    (window as unknown as { __sounds: typeof played }).__sounds = played;
    HTMLMediaElement.prototype.play = function play() {
      played.count += 1;
      return Promise.resolve();
    };
  });
}

const sounds = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sounds: { count: number } }).__sounds.count);

/** The badge on a side-menu item, 0 without one. */
async function badgeOf(page: Page, label: string) {
  const text = await page
    .getByRole("navigation")
    .getByRole("link", { name: new RegExp(label) })
    .locator(".mantine-Badge-root")
    .textContent({ timeout: 1_000 })
    .catch(() => null);
  return text ? Number(text) : 0;
}

async function liveOpen(page: Page) {
  await waitForHydration(page);
  await expect(page.locator("html[data-live=open]")).toHaveCount(1, { timeout: 15_000 });
}

test("a customer's food order appears on the staff's orders page, with its sound and the Orders badge, without a reload", async ({
  page,
  request,
}) => {
  const token = await tokenOf(request, "admin");
  // The admin asks for order notifications (their account page's setting, through the API here).
  const me = (await (
    await request.get("/api/v1/user/details/", { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { id: number };
  const opted = await request.patch(`/api/v1/user/update-user/${me.id}/`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { receive_order_notification: true },
  });
  expect(opted.status(), await opted.text()).toBe(200);
  const everyDay = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, opens: "00:00", closes: "23:59" }));
  const branch = await create(request, token, "branches", {
    name_en: `Live Grill ${stamp}`,
    name_ar: `مشويات مباشرة ${stamp}`,
    email: `live-${stamp}@example.com`,
    phone: "+965 2222 4444",
    address: "<p>Gulf Road</p>",
    minimum_order_sum: "0.500",
    delivery_time: 30,
    lat: 29.37,
    lng: 47.98,
    offers_pickup: true,
    offers_delivery: false,
    offers_catering: false,
    is_active: true,
    hours: everyDay,
  });
  const category = await create(request, token, "categories", {
    name_en: `Sandwiches ${stamp}`,
    name_ar: `سندويشات ${stamp}`,
    is_active: true,
  });
  const item = await create(request, token, "menu-items", {
    category: category.id,
    name_en: `Falafel wrap ${stamp}`,
    name_ar: `لفة فلافل ${stamp}`,
    price: "1.250",
    quantity: null,
    is_available: true,
  });

  await countSounds(page);
  await signIn(page, "admin");
  await page.goto("/en/food-ordering/orders");
  await liveOpen(page);
  const badgeBefore = await badgeOf(page, t("en", "features.food_ordering.orders"));
  const customerName = `Live customer ${stamp}`;
  await expect(page.getByText(customerName)).toHaveCount(0);

  const placed = await request.post(`${API}/checkout`, {
    data: {
      delivery_type: "pickup",
      branch: branch.id,
      customer_name: customerName,
      customer_phone: "55598765",
      gateway_code: "cod",
      lines: [
        {
          menu_item: item.id,
          category_id: category.id,
          quantity: 1,
          add_ons: [],
          options: {},
          special_instructions: "",
        },
      ],
    },
  });
  expect(placed.status(), await placed.text()).toBe(201);

  // The list, the notice and the badge follow at once; the page was not loaded again.
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
  await expect(page.getByText(customerName)).toBeVisible({ timeout: 10_000 });
  await expect(
    page
      .getByRole("region", { name: t("en", "notifications.region") })
      .getByText(t("en", "notifications.order_created")),
  ).toBeVisible();
  await expect.poll(() => sounds(page)).toBe(1);
  await expect.poll(() => badgeOf(page, t("en", "features.food_ordering.orders"))).toBe(badgeBefore + 1);
  expect(navigations).toEqual([]);
});

test("a new permission request raises the checker's Tickets badge and notice live; an exported report's notice appears on any page", async ({
  page,
  request,
}) => {
  const admin = await tokenOf(request, "admin");
  await signIn(page, "checker");
  await page.goto("/en/help");
  await liveOpen(page);
  const label = t("en", "features.ticket.user_permission_changes");
  const before = await badgeOf(page, label);

  // The administrator asks for rights for a colleague; whichever pair is not pending already.
  const options = (await (
    await request.fetch("/api/v1/plugins/ticket/permission-requests/", {
      method: "OPTIONS",
      headers: { Authorization: `Bearer ${admin}` },
    })
  ).json()) as {
    actions: { POST: { user: { choices: { value: number; display_name: string }[] } } };
  };
  let created = false;
  for (const candidate of options.actions.POST.user.choices.filter(
    (choice) => !["checker", "admin"].includes(choice.display_name),
  )) {
    for (const permission of ["refund_paymenttransaction", "void_paymenttransaction"]) {
      if (created) break;
      const answer = await request.post("/api/v1/plugins/ticket/permission-requests/", {
        headers: { Authorization: `Bearer ${admin}` },
        data: { user: candidate.value, permission },
      });
      created = answer.status() === 201;
    }
  }
  expect(created).toBe(true);
  await expect(
    page
      .getByRole("region", { name: t("en", "notifications.region") })
      .getByText(t("en", "notifications.permission_request")),
  ).toBeVisible({ timeout: 10_000 });
  await expect.poll(() => badgeOf(page, label)).toBe(before + 1);

  // The checker exports the payment requests from the API; the notice reaches the page open.
  const checker = await tokenOf(request, "checker");
  const exported = await request.get(
    `/api/v1/plugins/payment_request/transaction/export?file_format=csv&export_type=default&language=en`,
    { headers: { Authorization: `Bearer ${checker}` } },
  );
  expect(exported.status(), await exported.text()).toBeLessThan(300);
  const notices = page.getByRole("region", { name: t("en", "notifications.region") });
  await expect(notices.getByText(t("en", "notifications.report_exported"))).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/en\/help$/);
  // The notice leads to the report among the generated reports.
  const reportNotice = notices
    .locator(".mantine-Notification-root")
    .filter({ hasText: t("en", "notifications.report_exported") });
  await expect(reportNotice.getByRole("link")).toHaveAttribute("href", /^\/en\/generated-reports\?id=\d+$/);
});
