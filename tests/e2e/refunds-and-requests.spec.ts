import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, pickKuwaitDateTime, signIn, t, waitForHydration } from "./support";

// The first ten minutes of a merchant: a payment request made, shared, paid, refunded with a
// reason, approved by a checker who sees what they approve; with and without JavaScript.

async function tokenOf(request: APIRequestContext, username = "admin") {
  const answer = await request.post("/api/v1/user/token/", { data: { username, password: DEMO_PASSWORD } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

async function createRequest(request: APIRequestContext, body: Record<string, unknown>) {
  const answer = await request.post("/api/v1/plugins/payment_request/transaction/", {
    headers: { Authorization: `Bearer ${await tokenOf(request)}` },
    data: { currency_code: "KWD", pg_codes: ["knet-sandbox", "mpgs-sandbox", "cod"], ...body },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

async function payByCard(page: Page, id: string) {
  await page.goto(`/en/pay/${id}`);
  await page.locator("label.pay-choice", { hasText: "Credit Card" }).click();
  await page.getByRole("button", { name: /Pay Now/ }).click();
  await page.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
  await page.getByRole("textbox", { name: "Expiry" }).fill("01/39");
  await page.getByRole("textbox", { name: "CVV" }).fill("123");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
}

/** A paid request of 10.000 KWD (10.300 with the card's fee) for a named customer. */
async function paidRequest(page: Page, request: APIRequestContext, email: string) {
  const id = await createRequest(request, {
    amount: "10.000",
    customer_email: email,
    customer_first_name: "Noura",
    customer_last_name: "Hamad",
  });
  const customer = await page.context().browser()!.newPage();
  await payByCard(customer, id);
  await customer.close();
  return id;
}

const amountField = (page: Page) =>
  page.getByRole("dialog").getByRole("textbox", { name: t("en", "operations.amount", { currency: "KWD" }) });

test("the refund dialog drops a stale error, repeats amount, customer and order, and keeps the reason in the history", async ({
  page,
  request,
}) => {
  const id = await paidRequest(page, request, "noura@example.com");
  await signIn(page, "admin");
  await page.goto(`/en/payment-request/transactions/${id}`);
  await waitForHydration(page);
  const orderNo = (await page.getByRole("heading", { level: 1 }).textContent())!.replace(/\D/g, "");
  await page.getByRole("link", { name: t("en", "actions.refund"), exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(amountField(page)).toHaveValue("10.300");
  await amountField(page).fill("99.000");
  await dialog.getByRole("button", { name: t("en", "actions.refund"), exact: true }).click();
  await expect(dialog.getByText(t("en", "operations.errors.above_available"))).toBeVisible();
  // A valid amount clears the error at once, before anything is sent.
  await amountField(page).fill("4.000");
  await expect(dialog.getByText(t("en", "operations.errors.above_available"))).toHaveCount(0);
  await dialog.getByRole("button", { name: t("en", "actions.refund"), exact: true }).click();
  await expect(dialog.getByText(t("en", "operations.are_you_sure"))).toBeVisible();
  await expect(
    dialog.getByRole("row", { name: new RegExp(`${t("en", "operations.confirm.amount.refund")}\\s*KWD.4\\.000`) }),
  ).toBeVisible();
  await expect(
    dialog.getByRole("row", { name: new RegExp(`${t("en", "operations.confirm.order")}\\s*#${orderNo}`) }),
  ).toBeVisible();
  await expect(dialog.getByRole("row", { name: /Noura Hamad \(noura@example\.com\)/ })).toBeVisible();
  await dialog.getByRole("textbox", { name: t("en", "operations.reason") }).fill("Returned one item");
  await dialog.getByRole("button", { name: t("en", "operations.yes") }).click();
  await expect(page.getByRole("dialog").getByText(t("en", "operations.success.refund"))).toBeVisible();
  await page
    .getByRole("dialog")
    .getByRole("link", { name: t("en", "operations.ok") })
    .click();
  await expect(
    page.getByRole("listitem").filter({
      hasText: t("en", "audit_entry.operation_reason", { kind: "refund", orderNo, reason: "Returned one item" }),
    }),
  ).toBeVisible();
});

test("a maker's reason reaches the checker, who sees paid and refunded and confirms before money moves", async ({
  page,
  request,
  browser,
}) => {
  const id = await paidRequest(page, request, "maker-reason@example.com");
  const maker = await (await browser.newContext()).newPage();
  await signIn(maker, "maker");
  await maker.goto(`/en/payment-request/transactions/${id}?operation=refund`);
  await waitForHydration(maker);
  await amountField(maker).fill("2.000");
  await maker
    .getByRole("dialog")
    .getByRole("button", { name: t("en", "actions.refund"), exact: true })
    .click();
  await maker
    .getByRole("dialog")
    .getByRole("textbox", { name: t("en", "operations.reason") })
    .fill("Customer changed the size");
  await maker
    .getByRole("dialog")
    .getByRole("button", { name: t("en", "operations.yes") })
    .click();
  await expect(maker.getByRole("dialog").getByText(t("en", "operations.success.requested"))).toBeVisible();

  const checker = await (await browser.newContext()).newPage();
  await signIn(checker, "checker");
  await checker.goto(`/en/payment-request/transactions/${id}`);
  await checker.getByRole("link", { name: new RegExp(t("en", "tickets.open_request", { id: "\\d+" })) }).click();
  await expect(checker.getByRole("row", { name: /Maker's reason\s*Customer changed the size/ })).toBeVisible();
  await checker.getByRole("button", { name: t("en", "tickets.decisions.approve") }).click();
  const confirmation = checker.getByRole("region", { name: /Approve refunding KWD.2\.000/ });
  await expect(confirmation.getByRole("row", { name: /^Paid\s*KWD.10\.300$/ })).toBeVisible();
  await expect(confirmation.getByRole("row", { name: /^Already refunded\s*KWD.0\.000$/ })).toBeVisible();
  await expect(confirmation.getByRole("row", { name: /Customer changed the size/ })).toBeVisible();
  await expect(checker.getByText(t("en", "operations.done.refund", { amount: "KWD\u00a02.000" }))).toHaveCount(0);
  await confirmation.getByRole("button", { name: t("en", "tickets.confirm.yes") }).click();
  await expect(
    checker.getByRole("status").getByText(t("en", "operations.done.refund", { amount: "KWD\u00a02.000" })),
  ).toBeVisible();
});

test("the details page starts with the payment link, shows no empty rows, and delete asks first", async ({
  page,
  request,
}) => {
  const id = await createRequest(request, {
    amount: "7.250",
    customer_email: "wa@example.com",
    customer_phone: "+96550001234",
  });
  await signIn(page, "admin");
  await page.goto(`/en/payment-request/transactions/${id}`);
  const url = page.getByRole("textbox", { name: t("en", "payment_request.payment_url") });
  const table = page.getByRole("row", { name: new RegExp(`^${t("en", "fields.state")}`) });
  // The link comes before the details, near the top of the page.
  expect((await url.boundingBox())!.y).toBeLessThan((await table.boundingBox())!.y);
  expect((await url.boundingBox())!.y).toBeLessThan(400);
  await expect(page.getByRole("button", { name: t("en", "payment_request.copy") })).toBeVisible();
  await expect(page.getByRole("link", { name: t("en", "payment_request.share_whatsapp") })).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\/96550001234\?text=/,
  );
  for (const label of [
    "fields.refunded_amount",
    "fields.fee",
    "fields.paid_amount",
    "details.captured_amount",
    "fields.auth_code",
  ]) {
    await expect(page.getByRole("rowheader", { name: t("en", label), exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("cell", { name: /0\.000/ })).toHaveCount(0);

  await page.getByText(t("en", "actions.delete"), { exact: true }).click();
  await expect(page.getByText(t("en", "transactions.confirm.delete"))).toBeVisible();
  await page.getByRole("button", { name: t("en", "details.delete_yes") }).click();
  await expect(page.getByText(t("en", "actions.done.delete"))).toBeVisible();
});

test("the create form offers only currencies a method takes and a phone field with JavaScript", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/en/payment-request/create");
  await waitForHydration(page);
  const currency = page.getByRole("combobox", { name: t("en", "payment_request.currency") });
  await expect(currency.locator("option")).toHaveText(["KWD", "USD"]);
  await currency.selectOption("USD");
  await expect(
    page.getByText(t("en", "payment_request.gateway_not_currency", { gateway: "KNET", currency: "USD" })),
  ).toBeVisible();
  await expect(
    page.getByText(t("en", "payment_request.gateway_not_currency", { gateway: "Credit Card", currency: "USD" })),
  ).toHaveCount(0);
  await currency.selectOption("KWD");

  // intl-tel-input: Kuwait first with its dialling code; the country list searches.
  await expect(page.locator(".iti__selected-dial-code")).toHaveText("+965");
  await page.getByRole("button", { name: /Change country for phone number, currently selected Kuwait/ }).click();
  await page.getByRole("combobox", { name: "Search" }).fill("United St");
  await expect(page.getByRole("option", { name: /United States/ }).first()).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("3.000");
  await page.getByRole("textbox", { name: t("en", "payment_request.customer_phone") }).fill("50001234");
  await pickKuwaitDateTime(page, t("en", "payment_request.expiration_time"), new Date(Date.now() + 26 * 3600_000));
  await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
  await expect(page.getByText(t("en", "payment_request.created"))).toBeVisible();
  await expect(
    page.getByRole("row", { name: new RegExp(`${t("en", "fields.customer_phone")}\\s*\\+96550001234`) }),
  ).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(t("en", "fields.expiration_time")) })).not.toContainText(
    t("en", "payment_request.never"),
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the create form takes the phone as country and number, and the refund confirms with a reason", async ({
    page,
    request,
  }) => {
    const id = await paidRequest(page, request, "nojs-refund@example.com");
    await signIn(page, "admin");
    await page.goto("/en/payment-request/create");
    await expect(
      page.getByRole("combobox", { name: t("en", "payment_request.currency") }).locator("option"),
    ).toHaveText(["KWD", "USD"]);
    await page.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("3.000");
    await page.getByRole("combobox", { name: t("en", "payment_request.phone_country") }).selectOption("US");
    await page.getByRole("textbox", { name: t("en", "payment_request.customer_phone") }).fill("2015550123");
    await pickKuwaitDateTime(page, t("en", "payment_request.expiration_time"), new Date(Date.now() + 26 * 3600_000));
    await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
    await expect(
      page.getByRole("row", { name: new RegExp(`${t("en", "fields.customer_phone")}\\s*\\+12015550123`) }),
    ).toBeVisible();

    await page.goto(`/en/payment-request/transactions/${id}?operation=refund`);
    await amountField(page).fill("1.500");
    await page
      .getByRole("dialog")
      .getByRole("button", { name: t("en", "actions.refund"), exact: true })
      .click();
    await expect(
      page.getByRole("dialog").getByRole("row", { name: /Noura Hamad \(nojs-refund@example\.com\)/ }),
    ).toBeVisible();
    await page
      .getByRole("dialog")
      .getByRole("textbox", { name: t("en", "operations.reason") })
      .fill("Late delivery");
    await page
      .getByRole("dialog")
      .getByRole("button", { name: t("en", "operations.yes") })
      .click();
    await expect(page.getByRole("dialog").getByText(t("en", "operations.success.refund"))).toBeVisible();
    await page.goto(`/en/payment-request/transactions/${id}`);
    await expect(page.getByText(/Reason for the refund on order #\d+: Late delivery/)).toBeVisible();
  });
});
