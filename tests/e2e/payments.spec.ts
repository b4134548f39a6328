import { expect, test, type Browser, type Page } from "./fixtures";
import { signIn, t, type Lang } from "./support";

/** Signs in as admin (JS on), creates a payment request through the form and returns its pay URL. */
async function createRequest(
  browser: Browser,
  fields: { amount: string; email?: string; editable?: boolean } = { amount: "12.500" },
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, "admin");
    await page.goto("/en/payment-request/create");
    await page.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill(fields.amount);
    await page.getByRole("textbox", { name: t("en", "payment_request.first_name") }).fill("Fatima");
    if (fields.email)
      await page.getByRole("textbox", { name: t("en", "payment_request.customer_email") }).fill(fields.email);
    await page.getByRole("textbox", { name: t("en", "payment_request.description") }).fill("2 × Abaya, gift wrapped");
    if (fields.editable) await page.getByRole("checkbox", { name: t("en", "payment_request.editable_amount") }).check();
    await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
    await expect(page.getByText(t("en", "payment_request.created"))).toBeVisible();
    const payUrl = await page.getByRole("textbox", { name: t("en", "payment_request.payment_url") }).inputValue();
    return { payUrl: new URL(payUrl).pathname, detailsUrl: new URL(page.url()).pathname };
  } finally {
    await context.close();
  }
}

async function dashboardState(browser: Browser, detailsUrl: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "admin");
  await page.goto(detailsUrl);
  const state = (await page.locator("table").first().getByRole("row").first().textContent()) ?? "";
  await context.close();
  return state;
}

/** A stored time as the result page writes it in Kuwait: "24 Nov 2026, 02:05 PM". */
function kuwaitTime(at: Date) {
  const part = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: "Asia/Kuwait",
      year: "numeric",
      month: "short",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hour12: true,
    })
      .formatToParts(at)
      .map((item) => [item.type, item.value]),
  );
  return `${part.day} ${part.month} ${part.year}, ${part.hour}:${part.minute} ${part.dayPeriod}`;
}

/** Every minute from `from` to `to` as kuwaitTime writes it. */
function kuwaitMinutes(from: Date, to: Date) {
  const minutes: string[] = [];
  for (let at = from.getTime() - 60_000; at <= to.getTime() + 60_000; at += 60_000)
    minutes.push(kuwaitTime(new Date(at)));
  return minutes;
}

/** The references table of a result page: label → value, in page order. */
async function resultTable(page: Page) {
  const rows = page.locator(".result-references tr");
  const entries: [string, string][] = [];
  for (const row of await rows.all())
    entries.push([(await row.locator("th").innerText()).trim(), (await row.locator("td").innerText()).trim()]);
  return entries;
}

async function payWithKnet(page: Page, card: string, lang: Lang = "en", button: "Submit" | "Cancel" = "Submit") {
  await page.getByRole("button", { name: new RegExp(t(lang, "pay.pay_now", { amount: "" }).trim()) }).click();
  await expect(page.getByText("Card number")).toBeVisible();
  if (button === "Submit") {
    await page.getByRole("textbox", { name: "Card number" }).fill(card);
    await page.getByRole("textbox", { name: "PIN" }).fill("1234");
  }
  await page.getByRole("button", { name: button }).click();
}

test.describe("paying a payment request with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("KNET card 8888880000000001 pays 12.500 KWD; the dashboard shows it paid", async ({ page, browser }) => {
    const { payUrl, detailsUrl } = await createRequest(browser);
    await page.goto(payUrl.replace("/en/", "/ar/"));
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByText("12.500").first()).toBeVisible();
    await page.goto(payUrl);
    await expect(page.getByRole("radio", { name: /KNET/ })).toBeChecked();
    const before = new Date();
    await payWithKnet(page, "8888880000000001");
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
    const after = new Date();
    for (const label of [
      "result.track_id",
      "result.transaction_id",
      "result.auth_code",
      "result.reference_id",
      "result.payment_id",
      "result.date_kuwait",
    ]) {
      await expect(page.getByRole("rowheader", { name: t("en", label), exact: true })).toBeVisible();
    }
    await expect(page.getByText("KWD\u00a012.500", { exact: true })).toBeVisible();
    const table = await resultTable(page);
    // The date and time of the payment in Kuwait, written for people.
    const date = table.find(([label]) => label === t("en", "result.date_kuwait"))?.[1];
    expect(kuwaitMinutes(before, after)).toContain(date);
    // KNET's post date is today's: the date row says it already; and no value is shown twice
    // (our track id is KNET's Track ID, not also a Reference No).
    await expect(page.getByRole("rowheader", { name: t("en", "result.post_date"), exact: true })).toHaveCount(0);
    await expect(page.getByRole("rowheader", { name: t("en", "result.reference_no"), exact: true })).toHaveCount(0);
    const values = table.map(([, value]) => value);
    expect(new Set(values).size).toBe(values.length);
    const receipt = page.waitForEvent("download");
    await page.getByRole("link", { name: t("en", "result.download_receipt") }).click();
    expect((await receipt).suggestedFilename()).toMatch(/^receipt-\d+\.pdf$/);
    expect(await dashboardState(browser, detailsUrl)).toContain(t("en", "states.paid"));
    // The link is settled now: paying again is not offered.
    await page.goto(payUrl);
    await expect(page.getByRole("heading", { name: t("en", "pay.settled_title") })).toBeVisible();
  });

  test("each method's Pay button states its own total, and the card page charges what it said", async ({
    page,
    browser,
  }) => {
    const { payUrl } = await createRequest(browser, { amount: "10.000" });
    for (const lang of ["ar", "en"] as const) {
      await page.goto(payUrl.replace("/en/", `/${lang}/`));
      const payButtons = page.getByRole("button", {
        name: new RegExp(`^(${t(lang, "pay.pay_now", { amount: "" }).trim()}|${t(lang, "pay.confirm_order")})`),
      });
      const expected: [RegExp, RegExp][] = [
        [lang === "ar" ? /كي نت|KNET/ : /KNET/, /10\.000/],
        [lang === "ar" ? /بطاقة ائتمان/ : /Credit Card/, /10\.300/],
        [lang === "ar" ? /الدفع عند الاستلام/ : /Cash on delivery/, new RegExp(`^${t(lang, "pay.confirm_order")}$`)],
      ];
      for (const [method, label] of expected) {
        await page.getByRole("radio", { name: method }).check();
        // Exactly one button shows: the chosen method's, with that method's total.
        await expect(payButtons).toHaveCount(1);
        await expect(payButtons).toHaveText(label, { useInnerText: true });
      }
    }
    await page.getByRole("radio", { name: /Credit Card/ }).check();
    await expect(page.getByRole("button", { name: /Pay Now/ })).toHaveText("Pay Now KWD\u00a010.300", {
      useInnerText: true,
    });
    await page.getByRole("button", { name: /Pay Now/ }).click();
    await expect(page.getByText("KWD\u00a010.300")).toBeVisible();
    await page.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
    await page.getByRole("textbox", { name: "Expiry" }).fill("01/39");
    await page.getByRole("textbox", { name: "CVV" }).fill("123");
    await page.getByRole("button", { name: "Pay" }).click();
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
    await expect(page.getByText("KWD\u00a010.300", { exact: true })).toBeVisible();
  });

  test("a declined KNET card shows the failed view with Try again", async ({ page, browser }) => {
    const { payUrl, detailsUrl } = await createRequest(browser, { amount: "3.250" });
    await page.goto(payUrl);
    await payWithKnet(page, "8888880000000002");
    // What happened, in plain words, with the spec's line beneath it.
    await expect(page.getByRole("heading", { name: t("en", "result.reasons.declined.title") })).toBeVisible();
    await expect(page.getByText(t("en", "result.reasons.declined.message"))).toBeVisible();
    await expect(page.getByText(t("en", "result.failed_title"))).toBeVisible();
    await expect(page.getByText("KWD\u00a03.250", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: t("en", "result.try_again") })).toBeVisible();
    // The references are shown, not folded away.
    for (const label of ["result.order_no", "result.status", "result.track_id", "result.date_kuwait"]) {
      await expect(page.getByRole("rowheader", { name: t("en", label), exact: true })).toBeVisible();
    }
    await expect(page.getByRole("cell", { name: t("en", "result.states.failed"), exact: true })).toBeVisible();
    expect(await dashboardState(browser, detailsUrl)).toContain(t("en", "states.attempted"));
  });

  test("Cancel on the KNET page cancels, and the request can still be paid", async ({ page, browser }) => {
    const { payUrl } = await createRequest(browser, { amount: "1.000" });
    await page.goto(payUrl);
    await payWithKnet(page, "", "en", "Cancel");
    await expect(page.getByRole("heading", { name: t("en", "result.reasons.canceled.title") })).toBeVisible();
    await expect(page.getByText(t("en", "result.failed_title"))).toBeVisible();
    await page.getByRole("link", { name: t("en", "result.try_again") }).click();
    await payWithKnet(page, "8888880000000001");
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
  });

  test("cash on delivery says Confirm order and confirms the order at once", async ({ page, browser }) => {
    const { payUrl, detailsUrl } = await createRequest(browser, { amount: "7.000" });
    await page.goto(payUrl.replace("/en/", "/ar/"));
    await page.getByRole("radio", { name: /الدفع عند الاستلام/ }).check();
    await expect(page.getByRole("button", { name: /ادفع الآن/ })).toHaveCount(0);
    await page.getByRole("button", { name: t("ar", "pay.confirm_order"), exact: true }).click();
    await expect(page.getByRole("heading", { name: t("ar", "result.cod_title") })).toBeVisible();
    // A confirmation, not a receipt: nothing has been paid yet.
    await expect(
      page.getByText(new RegExp(`7\\.000.*${t("ar", "result.cod_amount", { amount: "" }).trim()}`)),
    ).toBeVisible();
    await expect(page.locator("summary", { hasText: t("ar", "result.confirmation_details") })).toBeVisible();
    await expect(page.getByRole("link", { name: t("ar", "result.download_receipt") })).toHaveCount(0);
    await expect(page.getByRole("link", { name: t("ar", "result.download_confirmation") })).toBeVisible();
    expect(await dashboardState(browser, detailsUrl)).toContain(t("en", "states.cod"));
  });
});

test.describe("paying with JavaScript on", () => {
  test("the card page pays with 5123 4500 0000 0008, fee included", async ({ page, browser }) => {
    const { payUrl, detailsUrl } = await createRequest(browser, { amount: "10.000", email: "buyer@example.com" });
    await page.goto(payUrl);
    await page.getByText(t("en", "pay.choose_method")).waitFor();
    await page.locator("label.pay-choice", { hasText: "Credit Card" }).click();
    await expect(page.getByRole("button", { name: /Pay Now KWD\s10\.300/ })).toBeVisible();
    await page.getByRole("button", { name: /Pay Now/ }).click();
    await page.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
    await page.getByRole("textbox", { name: "Expiry" }).fill("01/39");
    await page.getByRole("textbox", { name: "CVV" }).fill("123");
    await page.getByRole("button", { name: "Pay" }).click();
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
    await expect(page.getByText("KWD\u00a010.300", { exact: true })).toBeVisible();
    expect(await dashboardState(browser, detailsUrl)).toContain(t("en", "states.paid"));
  });

  test("a card left pending by the bank shows the pending view", async ({ page, browser }) => {
    const { payUrl, detailsUrl } = await createRequest(browser, { amount: "2.000" });
    await page.goto(payUrl);
    await page.locator("label.pay-choice", { hasText: "Credit Card" }).click();
    await page.getByRole("button", { name: /Pay Now/ }).click();
    // The Mastercard Gateway's test card with expiry 08/28: the issuer never answers.
    await page.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
    await page.getByRole("textbox", { name: "Expiry" }).fill("08/28");
    await page.getByRole("textbox", { name: "CVV" }).fill("123");
    await page.getByRole("button", { name: "Pay" }).click();
    await expect(page.getByRole("heading", { name: t("en", "result.pending_title") })).toBeVisible();
    expect(await dashboardState(browser, detailsUrl)).not.toContain(t("en", "states.paid"));
  });

  test("an unknown pay link answers 404 'Transaction not found'", async ({ page }) => {
    const response = await page.goto("/en/pay/AAAAAAAAAAAAAAAAAAAAAA");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: t("en", "pay.not_found") })).toBeVisible();
  });
});

test.describe("attachments on the create page, JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a refused form keeps the chosen file, and the customer can download it", async ({ page, browser }) => {
    await signIn(page, "admin");
    await page.goto("/en/payment-request/create");
    await page.getByLabel(t("en", "payment_request.attachment")).setInputFiles({
      name: "invoice-77.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4\n%%EOF\n"),
    });
    // No amount: refused, but the file stays attached.
    await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
    await expect(page.getByText(t("en", "errors.required")).first()).toBeVisible();
    await expect(page.getByText(t("en", "payment_request.attachment_kept", { name: "invoice-77.pdf" }))).toBeVisible();
    await page.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("8.000");
    await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
    await expect(page.getByText(t("en", "payment_request.created"))).toBeVisible();
    const payUrl = new URL(
      await page.getByRole("textbox", { name: t("en", "payment_request.payment_url") }).inputValue(),
    ).pathname;

    const customer = await browser.newContext({ javaScriptEnabled: false });
    const pay = await customer.newPage();
    await pay.goto(payUrl);
    // The order's details fold into one line under the amount; the attachment is inside.
    await pay.getByText(t("en", "pay.attachment"), { exact: true }).click();
    const download = pay.waitForEvent("download");
    await pay.getByRole("link", { name: /invoice-77\.pdf/ }).click();
    expect((await download).suggestedFilename()).toBe("invoice-77.pdf");
    await customer.close();
  });
});

test.describe("an amount the customer may change", () => {
  test("re-prices the methods as the customer types (JavaScript on)", async ({ page, browser }) => {
    const { payUrl } = await createRequest(browser, { amount: "10.000", editable: true });
    await page.goto(payUrl);
    const card = page.locator("label.pay-choice", { hasText: "Credit Card" });
    await expect(card).toContainText("KWD\u00a010.300");
    await page.getByRole("textbox", { name: t("en", "pay.amount_to_pay") }).fill("20");
    await expect(card).toContainText("KWD\u00a020.500");
    await expect(page.getByRole("button", { name: /Pay Now KWD\s20\.000/ })).toBeVisible();
    await page.getByRole("textbox", { name: t("en", "pay.amount_to_pay") }).fill("0");
    await expect(page.getByText(t("en", "pay.errors.positive_number"))).toBeVisible();
    await page.getByRole("textbox", { name: t("en", "pay.amount_to_pay") }).fill("15.250");
    await expect(page.getByRole("button", { name: /Pay Now KWD\s15\.250/ })).toBeVisible();
    await page.getByRole("button", { name: /Pay Now/ }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { name: t("en", "result.reasons.canceled.title") })).toBeVisible();
  });

  test.describe("with JavaScript off", () => {
    test.use({ javaScriptEnabled: false });
    test("the Update button re-prices the methods", async ({ page, browser }) => {
      const { payUrl } = await createRequest(browser, { amount: "10.000", editable: true });
      await page.goto(payUrl);
      await page.getByRole("textbox", { name: t("en", "pay.amount_to_pay") }).fill("20");
      await page.getByRole("button", { name: t("en", "pay.update") }).click();
      await expect(page.locator("label.pay-choice", { hasText: "Credit Card" })).toContainText("KWD\u00a020.500");
      await expect(page.getByRole("button", { name: /Pay Now/ })).toHaveText("Pay Now KWD\u00a020.000", {
        useInnerText: true,
      });
      await page.getByRole("radio", { name: /Credit Card/ }).check();
      await expect(page.getByRole("button", { name: /Pay Now/ })).toHaveText("Pay Now KWD\u00a020.500", {
        useInnerText: true,
      });
      await page.getByRole("radio", { name: /Cash on delivery/ }).check();
      await page.getByRole("button", { name: t("en", "pay.confirm_order") }).click();
      await expect(page.getByText(t("en", "result.cod_amount", { amount: "KWD\u00a020.000" }))).toBeVisible();
    });
  });
});

test("in Arabic with JavaScript on, a declined card comes back to the Arabic result page", async ({
  page,
  browser,
}) => {
  const { payUrl } = await createRequest(browser, { amount: "7.250" });
  await page.goto(payUrl.replace("/en/", "/ar/"));
  await page.locator("label.pay-choice", { hasText: "بطاقة ائتمان" }).click();
  await page.getByRole("button", { name: /ادفع الآن/ }).click();
  // The Hosted Payment Page speaks the session's locale: Arabic.
  await page.getByRole("textbox", { name: "رقم البطاقة" }).fill("5123450000000008");
  await page.getByRole("textbox", { name: "تاريخ الانتهاء" }).fill("05/39");
  await page.getByRole("textbox", { name: "CVV" }).fill("123");
  await page.getByRole("button", { name: "ادفع", exact: true }).click();
  await expect(page.getByRole("heading", { name: t("ar", "result.reasons.declined.title") })).toBeVisible();
  await expect(page.getByText(t("ar", "result.failed_title"))).toBeVisible();
  // 7.250 with the card's fee (0.100 + 2 %).
  await expect(page.getByText(/7\.495/)).toBeVisible();
  await expect(page.getByRole("link", { name: t("ar", "result.try_again") })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
});

test.describe("terms and conditions", () => {
  test.use({ javaScriptEnabled: false });
  test("open in a dialog and close with Agree, without JavaScript, in Arabic", async ({ page, browser }) => {
    const { payUrl } = await createRequest(browser, { amount: "1.500" });
    await page.goto(payUrl.replace("/en/", "/ar/"));
    const dialog = page.getByRole("dialog", { name: t("ar", "pay.terms_title") });
    await expect(dialog).toBeHidden();
    await page.getByRole("link", { name: t("ar", "pay.terms_link") }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("الدينار الكويتي");
    await dialog.getByRole("link", { name: t("ar", "pay.agree") }).click();
    await expect(dialog).toBeHidden();
  });
});

test.describe("delivery details before paying, JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("address, location, confirmation, then the payment methods (Arabic)", async ({ page, browser }) => {
    const context = await browser.newContext();
    const admin = await context.newPage();
    await signIn(admin, "admin");
    await admin.goto("/en/payment-request/create");
    await admin.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("9.000");
    await admin.getByLabel(t("en", "payment_request.delivery_mode")).selectOption("address_location");
    await admin.getByRole("button", { name: t("en", "payment_request.submit") }).click();
    const payUrl = new URL(
      await admin.getByRole("textbox", { name: t("en", "payment_request.payment_url") }).inputValue(),
    ).pathname;
    const detailsUrl = new URL(admin.url()).pathname;

    await page.goto(payUrl.replace("/en/", "/ar/"));
    await expect(page.getByRole("button", { name: /ادفع الآن/ })).toHaveCount(0);
    await page.getByRole("link", { name: t("ar", "delivery.continue") }).click();
    await page.getByRole("radio", { name: t("ar", "delivery.types.Home") }).check();
    await page.getByLabel(t("ar", "delivery.area")).selectOption("السالمية");
    await page.getByRole("textbox", { name: t("ar", "delivery.block"), exact: true }).fill("10");
    await page.getByRole("textbox", { name: t("ar", "delivery.street"), exact: true }).fill("بغداد");
    await page.getByRole("textbox", { name: t("ar", "delivery.house_no"), exact: true }).fill("7");
    await page.getByRole("textbox", { name: t("ar", "delivery.paci_no") }).fill("12345678");
    await page.getByRole("button", { name: t("ar", "delivery.submit") }).click();

    await expect(page.getByRole("heading", { name: t("ar", "delivery.location_title") })).toBeVisible();
    await page.getByText(t("ar", "delivery.enter_coordinates")).click();
    await page.getByRole("textbox", { name: t("ar", "delivery.latitude") }).fill("29.3340");
    await page.getByRole("textbox", { name: t("ar", "delivery.longitude") }).fill("48.0760");
    await page.getByRole("button", { name: t("ar", "delivery.confirm_location") }).click();

    await expect(page.getByRole("dialog", { name: t("ar", "delivery.confirm_title") })).toContainText("السالمية");
    await page.getByRole("button", { name: t("ar", "delivery.confirm") }).click();
    await page.getByRole("radio", { name: /الدفع عند الاستلام/ }).check();
    await page.getByRole("button", { name: t("ar", "pay.confirm_order") }).click();
    await expect(page.getByRole("heading", { name: t("ar", "result.cod_title") })).toBeVisible();

    await admin.goto(detailsUrl);
    await expect(admin.getByText(/Salmiya|السالمية/)).toBeVisible();
    await expect(admin.getByRole("link", { name: t("en", "delivery.view_on_map") })).toHaveAttribute(
      "href",
      "https://www.google.com/maps?q=29.334,48.076",
    );
    await context.close();
  });
});

test("the delivery map: tap to edit, place the pin, confirm, save (JavaScript on)", async ({ page, browser }) => {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, "admin");
  await admin.goto("/en/payment-request/create");
  await admin.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("6.000");
  await admin.getByLabel(t("en", "payment_request.delivery_mode")).selectOption("address_location");
  await admin.getByRole("button", { name: t("en", "payment_request.submit") }).click();
  const payUrl = new URL(
    await admin.getByRole("textbox", { name: t("en", "payment_request.payment_url") }).inputValue(),
  ).pathname;
  await context.close();

  await page.goto(`${payUrl}?step=address`);
  await page.getByLabel(t("en", "delivery.area")).selectOption("Salmiya");
  await page.getByRole("textbox", { name: t("en", "delivery.block"), exact: true }).fill("1");
  await page.getByRole("textbox", { name: t("en", "delivery.street"), exact: true }).fill("Salem Al-Mubarak");
  await page.getByRole("textbox", { name: t("en", "delivery.house_no"), exact: true }).fill("12");
  await page.getByRole("button", { name: t("en", "delivery.submit") }).click();

  const map = page.locator("#delivery-map canvas");
  await expect(map).toBeVisible();
  const save = page.getByRole("button", { name: t("en", "delivery.confirm_location") });
  await expect(save).toBeDisabled();
  await page.getByRole("button", { name: t("en", "delivery.tap_to_edit") }).click();
  await expect(page.getByRole("dialog", { name: t("en", "delivery.location_title") })).toBeVisible();
  await page.getByRole("button", { name: t("en", "delivery.got_it") }).click();
  await expect(page.getByRole("dialog", { name: t("en", "delivery.location_title") })).toBeHidden();
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height * 0.3);
  await expect(save).toBeDisabled();
  await page.getByRole("button", { name: t("en", "delivery.confirm_pin"), exact: true }).click();
  await expect(save).toBeEnabled();
  await save.click();
  const link = page.getByRole("link", { name: t("en", "delivery.view_on_map") });
  await expect(link).toBeVisible();
  expect(await link.getAttribute("href")).not.toBe("https://www.google.com/maps?q=29.3759,47.9774");
});
