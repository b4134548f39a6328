import fs from "node:fs";
import { expect, test, type APIRequestContext, type Browser, type Page } from "./fixtures";
import { BASE_URL, DEMO_PASSWORD, signIn, t, urlPath, waitForHydration } from "./support";

/** A day `offset` days from today in Kuwait, as YYYY-MM-DD. */
function kuwaitDay(offset: number) {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Asia/Kuwait",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(Date.now() + offset * 86_400_000));
}

const stamp = Date.now().toString(36);
const paidDates = [kuwaitDay(5), kuwaitDay(6)];
const freeDates = [kuwaitDay(8), kuwaitDay(9)];

const paidEvent = {
  slug: `harbour-gala-${stamp}`,
  title_en: `Harbour Gala ${stamp}`,
  title_ar: `حفل الميناء ${stamp}`,
  ticket_en: "Hall seat",
  ticket_ar: "مقعد القاعة",
};
const freeEvent = {
  slug: `open-day-${stamp}`,
  title_en: `Open Day ${stamp}`,
  title_ar: `اليوم المفتوح ${stamp}`,
};

const customer = {
  firstName: "مريم",
  lastName: "الكندري",
  email: `maryam-${stamp}@example.com`,
  phone: "55512345",
  civilId: "290010112345",
};

/** What the customer's paid booking turned out to be, for the staff's tests that follow it. */
const booked = { id: 0, ticketsPath: "", numbers: [] as string[] };
let paidEventId = 0;

async function adminToken(request: APIRequestContext) {
  const answer = await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

async function createEvent(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const answer = await request.post("/api/v1/plugins/event/dashboard/events", {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()) as { id: number; tickets: { id: number }[] };
}

/** Places left of an event's first ticket, by date, as the public API counts them. */
async function placesLeft(request: APIRequestContext, slug: string) {
  const answer = await request.post("/api/v1/plugins/event/ticket/qty-list", { data: { event: slug } });
  expect(answer.status(), await answer.text()).toBe(200);
  const [ticket] = (await answer.json()) as {
    remaining_qty_per_date: Record<string, { remaining_quantity: number }>;
  }[];
  return Object.fromEntries(
    Object.entries(ticket.remaining_qty_per_date).map(([date, left]) => [date, left.remaining_quantity]),
  );
}

/** A new signed-in admin page of its own (JavaScript on), closed by the caller through its context. */
async function adminPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  await signIn(page, "admin");
  return page;
}

/** The mailbox rows with this subject sent to this address. */
function mailRows(page: Page, subject: string, to: string) {
  return page
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: subject, exact: true }) })
    .filter({ has: page.getByRole("cell", { name: to, exact: true }) });
}

/** The number of pages of a PDF file: its /Type /Page objects (not the /Type /Pages tree). */
function pdfPages(bytes: Buffer) {
  return bytes.toString("latin1").match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;
}

const bookingSubject = () => t("ar", "mail.event_booking.subject", { event: paidEvent.title_ar });

test.describe("events: a paid booking from the customer's phone to the door", () => {
  test.describe.configure({ mode: "serial" });

  test.beforeAll(async ({ request }) => {
    const token = await adminToken(request);
    const created = await createEvent(request, token, {
      slug: paidEvent.slug,
      title_en: paidEvent.title_en,
      title_ar: paidEvent.title_ar,
      description_en: "An evening of music by the sea.",
      description_ar: "أمسية موسيقية على البحر.",
      currency_code: "KWD",
      is_free: false,
      status: "published",
      gateway_codes: ["knet-sandbox"],
      terms_en: "Tickets are not refundable after the event.",
      terms_ar: "لا تسترد التذاكر بعد الحدث.",
      fields: [{ name: "civil_id", label_en: "Civil ID", label_ar: "الرقم المدني", type: "text", required: true }],
      tickets: [
        {
          name_en: paidEvent.ticket_en,
          name_ar: paidEvent.ticket_ar,
          price: "5.000",
          start_time: "18:00",
          end_time: "22:00",
          quantity: 10,
          dates: paidDates,
        },
      ],
    });
    paidEventId = created.id;
  });

  test.describe("the customer, in Arabic, with JavaScript off, on a phone", () => {
    test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

    test("registers for two tickets, pays with KNET and gets the Ticket button", async ({ page }) => {
      const fitsTheScreen = async () =>
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

      await page.goto(`/ar/events/${paidEvent.slug}`);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1, name: paidEvent.title_ar })).toBeVisible();
      await expect(page.getByText(t("ar", "events_public.places_left", { count: "10" }))).toHaveCount(2);
      await fitsTheScreen();
      await page.getByRole("link", { name: t("ar", "events_public.details.register"), exact: true }).click();
      await expect(page).toHaveURL(urlPath(`/ar/events/register/${paidEvent.slug}`));
      await expect(page.getByRole("heading", { level: 1, name: paidEvent.title_ar })).toBeVisible();
      await fitsTheScreen();

      await page
        .getByRole("group", { name: t("ar", "events_public.register.date") })
        .getByRole("radio")
        .first()
        .check();
      await page.getByRole("radio", { name: new RegExp(paidEvent.ticket_ar) }).check();
      await page.getByRole("spinbutton", { name: t("ar", "events_public.register.quantity") }).fill("2");
      await page.getByRole("textbox", { name: t("ar", "events_public.register.first_name") }).fill(customer.firstName);
      await page.getByRole("textbox", { name: t("ar", "events_public.register.last_name") }).fill(customer.lastName);
      await page.getByRole("textbox", { name: t("ar", "events_public.register.email") }).fill(customer.email);
      await page
        .getByRole("textbox", { name: t("ar", "events_public.register.phone"), exact: true })
        .fill(customer.phone);
      await page.getByRole("textbox", { name: "الرقم المدني" }).fill(customer.civilId);
      await expect(
        page
          .getByRole("group", { name: t("ar", "events_public.register.pay_with") })
          .getByRole("radio", { name: "كي نت" }),
      ).toBeChecked();
      await page.getByRole("checkbox", { name: new RegExp(t("ar", "events_public.register.accept_terms")) }).check();
      await page.getByRole("button", { name: t("ar", "events_public.register.submit_pay"), exact: true }).click();

      // The pay page of the booking's transaction: two places at 5.000.
      await expect(page).toHaveURL(/\/ar\/pay\/[^/?]+$/);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByText("10.000").first()).toBeVisible();
      await fitsTheScreen();
      await page.getByRole("button", { name: new RegExp(t("ar", "pay.pay_now", { amount: "" }).trim()) }).click();
      // KNET's sandbox page speaks the customer's language too (its own words, not the platform's).
      await expect(page.getByRole("heading", { name: "ادفع ببطاقة السحب الآلي" })).toBeVisible();
      await fitsTheScreen();
      await page.getByRole("textbox", { name: "رقم البطاقة" }).fill("8888880000000001");
      await page.getByRole("textbox", { name: "الرقم السري" }).fill("1234");
      await page.getByRole("button", { name: "إرسال", exact: true }).click();

      await expect(page.getByRole("heading", { name: t("ar", "result.success_title") })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await fitsTheScreen();
      const ticketButton = page.getByRole("link", { name: t("ar", "result.download_tickets"), exact: true });
      await expect(ticketButton).toBeVisible();
      await ticketButton.click();

      // The tickets page: one QR code and number per place.
      await expect(page).toHaveURL(/\/ar\/events\/tickets\/\d+\/[^/]+$/);
      await expect(page.getByRole("heading", { level: 1, name: paidEvent.title_ar })).toBeVisible();
      await fitsTheScreen();
      for (const n of ["1", "2"]) {
        const place = page.getByRole("region", { name: t("ar", "event_tickets.place_of", { n, total: "2" }) });
        await expect(place.getByRole("img", { name: t("ar", "event_tickets.qr_alt", { n }) })).toBeVisible();
      }
      const numbers = await page.locator(".tickets-place__number").allInnerTexts();
      expect(numbers).toHaveLength(2);
      for (const number of numbers) expect(number).toMatch(/^[A-Z0-9]{10}$/);
      expect(new Set(numbers).size).toBe(2);
      const path = new URL(page.url()).pathname;
      Object.assign(booked, { id: Number(path.split("/")[4]), ticketsPath: path, numbers });

      // Two places are sold on the chosen date.
      await page.goto(`/ar/events/${paidEvent.slug}`);
      await expect(page.getByText(t("ar", "events_public.places_left", { count: "8" }))).toHaveCount(1);
      await expect(page.getByText(t("ar", "events_public.places_left", { count: "10" }))).toHaveCount(1);
    });
  });

  test("the booking e-mail in Arabic carries a PDF with two QR tickets and the tickets link", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/en/mailbox");
    const rows = mailRows(page, bookingSubject(), customer.email);
    await expect(rows).toHaveCount(1);
    await rows.getByRole("link", { name: bookingSubject(), exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: bookingSubject() })).toBeVisible();
    const text = page.locator("pre");
    await expect(text).toContainText(`${customer.firstName} ${customer.lastName}`);
    await expect(text).toContainText(paidEvent.title_ar);

    // The tickets, attached as one PDF with a page per place.
    await expect(page.getByRole("heading", { name: t("en", "mailbox.attachments") })).toBeVisible();
    const attachment = page.getByRole("link", { name: `tickets-${booked.id}.pdf`, exact: true });
    await expect(attachment).toBeVisible();
    const downloading = page.waitForEvent("download");
    await attachment.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`tickets-${booked.id}.pdf`);
    const pdf = fs.readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdfPages(pdf)).toBe(2);

    // The mail's link opens the same tickets page as the result page's button.
    const link = text.getByRole("link", { name: `${BASE_URL}${booked.ticketsPath}`, exact: true });
    await expect(link).toBeVisible();
    await page.goto(booked.ticketsPath);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("img", { name: /QR/ })).toHaveCount(2);
    for (const number of booked.numbers) await expect(page.getByText(number, { exact: true })).toBeVisible();
  });

  test("staff check one place in with its typed number and the tiles follow", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/en/event/fullfilment");
    await expect(page.getByText(t("en", "checkin.select_event"))).toBeVisible();
    await page.getByLabel(t("en", "checkin.event"), { exact: true }).selectOption({ label: paidEvent.title_en });
    await page.getByRole("button", { name: t("en", "checkin.choose"), exact: true }).click();
    await expect(page).toHaveURL(`${BASE_URL}/en/event/fullfilment?event=${paidEventId}`);
    await waitForHydration(page);
    const tile = (name: string) => page.locator(`[data-tile="${name}"] .stat-value`);
    await expect(page.getByRole("region", { name: t("en", "checkin.tiles.booked") })).toBeVisible();
    await expect(tile("booked")).toHaveText("2");
    await expect(tile("attended")).toHaveText("0");
    await expect(tile("not_attended")).toHaveText("2");

    const code = page.getByRole("textbox", { name: t("en", "checkin.code_label") });
    const dialog = page.getByRole("dialog", { name: t("en", "checkin.result_title") });
    await code.fill(booked.numbers[0]);
    await page.getByRole("button", { name: t("en", "checkin.submit"), exact: true }).click();
    // The booking is for a later date: refused with its date, and a superuser may let it in anyway.
    await expect(dialog.getByText(/^This ticket is for \w{3} \d{1,2} \w{3}\.$/)).toBeVisible();
    await dialog.getByRole("button", { name: t("en", "checkin.admit_anyway") }).click();
    await expect(dialog.getByText(t("en", "checkin.granted"))).toBeVisible();
    await expect(dialog.getByText(booked.numbers[0])).toBeVisible();
    await expect(dialog.getByText(`${customer.firstName} ${customer.lastName}`)).toBeVisible();
    await dialog.getByRole("button", { name: t("en", "checkin.close") }).click();
    await expect(dialog).toBeHidden();
    await expect(tile("booked")).toHaveText("2");
    await expect(tile("attended")).toHaveText("1");
    await expect(tile("not_attended")).toHaveText("1");

    // The same place again: refused, saying it was used.
    await code.fill(booked.numbers[0]);
    await page.getByRole("button", { name: t("en", "checkin.submit"), exact: true }).click();
    await expect(
      dialog.getByText(new RegExp(`^${t("en", "checkin.reasons.already_used").replace(/\.$/, "")} on `)),
    ).toBeVisible();
    await expect(dialog.getByText(t("en", "checkin.granted"))).toHaveCount(0);
    await dialog.getByRole("button", { name: t("en", "checkin.close") }).click();
    await expect(tile("attended")).toHaveText("1");

    // The bookings list counts the same.
    await page.goto(`/en/event/bookings?event=${paidEventId}`);
    await expect(page.locator('[data-tile="booked"]')).toContainText("2");
    await expect(page.locator('[data-tile="attended"]')).toContainText("1");
    await expect(page.locator('[data-tile="not_attended"]')).toContainText("1");
  });

  test("a filtered CSV export of the bookings arrives in Generated reports with its header row", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/en/event/bookings");
    await waitForHydration(page);
    const filters = page.getByRole("search", { name: t("en", "bookings.filters.title") });
    await filters
      .getByLabel(t("en", "bookings.filters.event"), { exact: true })
      .selectOption({ label: paidEvent.title_en });
    await filters.getByRole("button", { name: t("en", "bookings.filters.apply") }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]event=${paidEventId}(&|$)`));
    await filters
      .getByLabel(t("en", "bookings.filters.attendance"), { exact: true })
      .selectOption({ label: t("en", "bookings.attendance.partial_attended") });
    await filters.getByRole("button", { name: t("en", "bookings.filters.apply") }).click();
    await expect(page).toHaveURL(/[?&]attendance=partial_attended(&|$)/);
    await expect(page.getByText(t("en", "bookings.count", { total: "1" }))).toBeVisible();
    await expect(page.getByRole("cell", { name: customer.email })).toBeVisible();

    await page.getByRole("button", { name: "CSV", exact: true }).click();
    await expect(page).toHaveURL(/\/en\/generated-reports\?id=\d+$/);
    const id = new URL(page.url()).searchParams.get("id");
    const row = page.locator(`#report-${id}`);
    await expect(row.getByText(t("en", "reports.states.done"), { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText(t("en", "sections.event_bookings"));
    const fileName = (await row.locator("bdi").first().textContent()) ?? "";
    expect(fileName).toMatch(/^event-bookings_.*\.csv$/);

    const downloading = page.waitForEvent("download");
    await row.getByRole("link", { name: t("en", "reports.download") }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    const csv = fs.readFileSync(await download.path(), "utf8");
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = csv.slice(1).trimEnd().split("\r\n");
    const columns = [
      "event",
      "quantity",
      "full_name",
      "purchase_type",
      "email",
      "event_date",
      "created",
      "customer_phone",
    ].map((name) => t("en", `bookings.columns.${name}`));
    const others = ["id", "ticket", "paid_places", "scanned_places"].map((name) => t("en", `bookings.columns.${name}`));
    expect(header).toBe([...columns, "Civil ID", ...others].join(","));
    // Only the booking the filters leave: one place of two scanned.
    expect(rows).toHaveLength(1);
    const cells = rows[0].split(",");
    expect(cells[0]).toBe(paidEvent.title_en);
    expect(cells[1]).toBe("2");
    expect(cells[2]).toBe(`${customer.firstName} ${customer.lastName}`);
    expect(cells[3]).toBe(t("en", "bookings.purchase_types.paid"));
    expect(cells[4]).toBe(customer.email);
    expect(cells[8]).toBe(customer.civilId);
    expect(cells.slice(9)).toEqual([String(booked.id), paidEvent.ticket_en, "2", "1"]);
  });

  test("Generated reports states the filters the bookings export was made with", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto(`/en/event/bookings?event=${paidEventId}&email=${encodeURIComponent(customer.email)}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "XLS", exact: true }).click();
    await expect(page).toHaveURL(/\/en\/generated-reports\?id=\d+$/);
    const row = page.locator(`#report-${new URL(page.url()).searchParams.get("id")}`);
    await expect(row.getByText(t("en", "reports.states.done"), { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(row.locator("bdi").first()).toHaveText(/^event-bookings_.*\.xlsx$/);
    await expect(row).not.toContainText(t("en", "reports.no_filters"));
    await expect(row).toContainText(
      `${t("en", "reports.filter", { label: t("en", "bookings.filters.event") })} ${paidEvent.title_en}`,
    );
    await expect(row).toContainText(
      `${t("en", "reports.filter", { label: t("en", "bookings.filters.email") })} ${customer.email}`,
    );
  });

  test("staff change the e-mail with the booking sent again, and send it again from the list", async ({
    page,
    browser,
  }) => {
    const newEmail = `maryam.alkandari-${stamp}@example.com`;
    await signIn(page, "admin");
    await page.goto(`/en/event/bookings?email=${encodeURIComponent(customer.email)}`);
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: customer.email }) });
    await expect(row).toHaveCount(1);
    await row.getByRole("link", { name: paidEvent.title_en }).click();
    await expect(page).toHaveURL(urlPath(`/en/event/bookings/${booked.id}`));
    await expect(
      page.getByRole("heading", { level: 1, name: t("en", "bookings.details_title", { id: String(booked.id) }) }),
    ).toBeVisible();
    // Both places are paid; the first is scanned.
    await expect(page.getByRole("cell", { name: t("en", "bookings.states.paid"), exact: true })).toBeVisible();
    for (const number of booked.numbers)
      await expect(page.getByRole("cell", { name: number, exact: true })).toBeVisible();

    const emailForm = page
      .locator("form")
      .filter({ has: page.getByRole("button", { name: t("en", "bookings.save_email") }) });
    await emailForm.getByRole("textbox", { name: t("en", "bookings.columns.email") }).fill(newEmail);
    await expect(emailForm.getByRole("checkbox", { name: t("en", "bookings.resend_email") })).toBeChecked();
    await emailForm.getByRole("button", { name: t("en", "bookings.save_email") }).click();
    await expect(page.getByText(t("en", "bookings.email_changed_sent"))).toBeVisible();
    await expect(page.getByText(newEmail, { exact: true })).toBeVisible();

    const mailbox = await adminPage(browser);
    try {
      await mailbox.goto("/en/mailbox");
      await expect(mailRows(mailbox, bookingSubject(), newEmail)).toHaveCount(1);

      // Send email from the list: a second mail to the new address.
      await page.goto(`/en/event/bookings?email=${encodeURIComponent(newEmail)}`);
      await waitForHydration(page);
      const listed = page.getByRole("row").filter({ has: page.getByRole("cell", { name: newEmail }) });
      await listed.getByRole("button", { name: t("en", "bookings.send_email") }).click();
      await expect(page.getByText(t("en", "bookings.email_sent"))).toBeVisible();
      await expect(page).toHaveURL(/[?&]email=/);
      await mailbox.reload();
      await expect(mailRows(mailbox, bookingSubject(), newEmail)).toHaveCount(2);
      await expect(mailRows(mailbox, bookingSubject(), customer.email)).toHaveCount(1);
    } finally {
      await mailbox.context().close();
    }
  });
});

test.describe("events: staff edit and cancel a free booking", () => {
  test.describe.configure({ mode: "serial" });
  let freeBooking = 0;
  let freeEventId = 0;
  const visitorEmail = `visitor-${stamp}@example.com`;

  test.beforeAll(async ({ request }) => {
    const token = await adminToken(request);
    const created = await createEvent(request, token, {
      slug: freeEvent.slug,
      title_en: freeEvent.title_en,
      title_ar: freeEvent.title_ar,
      description_en: "Come and see the workshop.",
      description_ar: "تعال وشاهد الورشة.",
      currency_code: "KWD",
      is_free: true,
      status: "published",
      tickets: [
        {
          name_en: "Visitor",
          name_ar: "زائر",
          price: "0",
          start_time: "10:00",
          end_time: "13:00",
          quantity: 10,
          dates: freeDates,
        },
      ],
    });
    // A customer books one place through the public API: free, so confirmed at once.
    const answer = await request.post("/api/v1/plugins/event/booking", {
      data: {
        event: freeEvent.slug,
        ticket: created.tickets[0].id,
        event_date: freeDates[0],
        quantity: 1,
        email: visitorEmail,
        customer_first_name: "Yousef",
        customer_last_name: "Al-Sabah",
        customer_phone: "+96566677788",
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    const body = (await answer.json()) as { id: number; state: string; checkout_url?: string | null };
    expect(body.state).toBe("paid");
    expect(body.checkout_url ?? null).toBeNull();
    freeBooking = body.id;
    freeEventId = created.id;
  });

  test("Edit adds a place and moves the booking to another date; the places follow", async ({ page, request }) => {
    expect(await placesLeft(request, freeEvent.slug)).toEqual({ [freeDates[0]]: 9, [freeDates[1]]: 10 });
    await signIn(page, "admin");
    await page.goto(`/en/event/bookings/${freeBooking}`);
    const edit = page
      .locator("form")
      .filter({ has: page.getByRole("button", { name: t("en", "bookings.edit_form.submit") }) });
    await edit.getByRole("textbox", { name: t("en", "bookings.edit_form.quantity") }).fill("1");
    await edit.getByRole("button", { name: t("en", "bookings.edit_form.submit") }).click();
    await expect(page.getByText(t("en", "bookings.changed"))).toBeVisible();
    const places = page.getByRole("table").last();
    await expect(places.getByRole("row")).toHaveCount(3);
    // The form starts over from the saved booking: saving again adds nothing more.
    await expect(edit.getByRole("textbox", { name: t("en", "bookings.edit_form.quantity") })).toHaveValue("0");
    expect(await placesLeft(request, freeEvent.slug)).toEqual({ [freeDates[0]]: 8, [freeDates[1]]: 10 });

    await edit.getByLabel(t("en", "bookings.edit_form.event_date"), { exact: true }).selectOption(freeDates[1]);
    await edit.getByRole("button", { name: t("en", "bookings.edit_form.submit") }).click();
    await expect(page.getByText(t("en", "bookings.changed"))).toBeVisible();
    await expect(page.getByText(freeDates[1], { exact: true }).first()).toBeVisible();
    expect(await placesLeft(request, freeEvent.slug)).toEqual({ [freeDates[0]]: 10, [freeDates[1]]: 8 });
    await expect(page.getByRole("table").last().getByRole("row")).toHaveCount(3);

    // The list shows the booking on its new date with its two places, as a free one.
    await page.goto(
      `/en/event/bookings?event=${freeEventId}&event_date=${freeDates[1]}&q=${encodeURIComponent(visitorEmail)}`,
    );
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: freeEvent.title_en }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell", { name: freeDates[1] })).toBeVisible();
    await expect(row.getByRole("cell", { name: t("en", "bookings.purchase_types.free"), exact: true })).toBeVisible();
    await expect(row.getByRole("cell", { name: "2", exact: true })).toBeVisible();
  });

  test("Cancel asks first, then cancels and the places go back on sale", async ({ page, request }) => {
    await signIn(page, "admin");
    await page.goto(`/en/event/bookings/${freeBooking}`);
    await page.getByRole("link", { name: t("en", "bookings.cancel"), exact: true }).click();
    await expect(page.getByText(t("en", "bookings.cancel_confirm"))).toBeVisible();
    // No: nothing changes.
    await page.getByRole("link", { name: t("en", "bookings.cancel_no"), exact: true }).click();
    await expect(page.getByText(t("en", "bookings.cancel_confirm"))).toHaveCount(0);
    expect(await placesLeft(request, freeEvent.slug)).toEqual({ [freeDates[0]]: 10, [freeDates[1]]: 8 });

    await page.getByRole("link", { name: t("en", "bookings.cancel"), exact: true }).click();
    await page.getByRole("button", { name: t("en", "bookings.cancel_yes"), exact: true }).click();
    await expect(page).toHaveURL(urlPath("/en/event/bookings"));
    await expect(page.getByText(t("en", "bookings.canceled"), { exact: true })).toBeVisible();
    expect(await placesLeft(request, freeEvent.slug)).toEqual({ [freeDates[0]]: 10, [freeDates[1]]: 10 });

    // The public page offers all ten places on both dates again.
    await page.goto(`/en/events/${freeEvent.slug}`);
    await expect(page.getByText(t("en", "events_public.places_left", { count: "10" }))).toHaveCount(2);
    // The booking shows its places canceled, and can no more be canceled.
    await page.goto(`/en/event/bookings/${freeBooking}`);
    await expect(
      page.getByRole("cell", { name: t("en", "bookings.states.cancel"), exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: t("en", "bookings.cancel"), exact: true })).toHaveCount(0);
  });
});
