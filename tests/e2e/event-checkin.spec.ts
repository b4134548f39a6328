import path from "node:path";
import { DateTime } from "luxon";
import { createDatabase } from "~/db/database.server";
import { formatDay } from "~/lib/format";
import { doorToday, insertCheckinBooking, insertCheckinEvent } from "../support/event-fixtures-checkin";
import { expect, test } from "./fixtures";
import { databaseDir, workerIndex } from "./servers";
import { DEMO_PASSWORD, signIn, t, waitForHydration } from "./support";

/** An event of the demo merchant (today unless told) with one booking of two paid places, inserted into this worker's database. */
async function eventWithTwoPlaces(date?: string) {
  const db = createDatabase({ sqlitePath: path.join(databaseDir(workerIndex), "e2e.sqlite") });
  try {
    const { merchant_id: merchantId } = await db
      .selectFrom("users")
      .select("merchant_id")
      .where("username", "=", "admin")
      .executeTakeFirstOrThrow();
    const event = await insertCheckinEvent(db, merchantId, { title: `Offline door ${Date.now()}`, date });
    const { numbers } = await insertCheckinBooking(db, merchantId, event, {
      quantity: 2,
      firstName: "Maryam",
      lastName: "Al-Kandari",
    });
    return { event, numbers };
  } finally {
    await db.destroy();
  }
}

test("scans made while offline are queued, sent when the network returns, and a place admitted twice is reported", async ({
  page,
  context,
  request,
}) => {
  const { event, numbers } = await eventWithTwoPlaces();
  await signIn(page, "admin");
  await page.goto("/en/event/fullfilment");
  await expect(page.getByText(t("en", "checkin.select_event"))).toBeVisible();
  await page.getByLabel(t("en", "checkin.event"), { exact: true }).selectOption({ label: event.title });
  await page.getByRole("button", { name: t("en", "checkin.choose") }).click();
  await waitForHydration(page);
  const network = page.getByTestId("checkin-network");
  await expect(network.getByText(t("en", "checkin.network.online"))).toBeVisible();
  // The signed list is in the browser before the network goes.
  await expect(network.getByText(/Offline list: 2 places/)).toBeVisible();

  // Meanwhile another device, online, admits the second place.
  const token = (await (
    await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } })
  ).json()) as { access: string };
  const other = await request.post("/api/v1/plugins/event/validate_qr_code", {
    headers: { Authorization: `Bearer ${token.access}` },
    data: { event_id: event.id, qrcode: numbers[1] },
  });
  expect(other.status()).toBe(200);

  await context.setOffline(true);
  await expect(network.getByText(t("en", "checkin.network.offline"))).toBeVisible();
  const code = page.getByRole("textbox", { name: t("en", "checkin.code_label") });
  const dialog = page.getByRole("dialog");
  for (const number of numbers) {
    await code.fill(number);
    await page.getByRole("button", { name: t("en", "checkin.submit") }).click();
    await expect(dialog.getByText(t("en", "checkin.granted"))).toBeVisible();
    await expect(dialog.getByText(t("en", "checkin.offline.admitted"))).toBeVisible();
    await expect(dialog.getByText(number)).toBeVisible();
    await dialog.getByRole("button", { name: t("en", "checkin.close") }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByTestId("checkin-waiting")).toHaveText(t("en", "checkin.network.waiting", { count: "2" }));

  await context.setOffline(false);
  await expect(page.getByTestId("checkin-waiting")).toHaveText(t("en", "checkin.network.waiting", { count: "0" }));
  await expect(network.getByText(t("en", "checkin.network.online"))).toBeVisible();
  const problems = page.getByTestId("checkin-problems");
  await expect(problems.getByText(t("en", "checkin.sync.title"))).toBeVisible();
  await expect(problems.getByRole("listitem")).toHaveCount(1);
  await expect(problems.getByRole("listitem")).toContainText(numbers[1]);
  await expect(problems.getByRole("listitem")).toContainText("Admitted twice");
  await expect(page.locator('[data-tile="attended"] .stat-value')).toHaveText("2");
  await expect(page.locator('[data-tile="not_attended"] .stat-value')).toHaveText("0");
});

test("a ticket of another date is refused with its date in the dialog and offline, and a superuser may admit it anyway", async ({
  page,
  context,
}) => {
  const date = DateTime.fromISO(doorToday()).plus({ days: 7 }).toFormat("yyyy-MM-dd");
  const { event, numbers } = await eventWithTwoPlaces(date);
  const reason = t("en", "checkin.reasons.other_date", { date: formatDay(date, "en") });
  await signIn(page, "admin");
  await page.goto(`/en/event/fullfilment?event=${event.id}`);
  await waitForHydration(page);
  const network = page.getByTestId("checkin-network");
  await expect(network.getByText(/Offline list: 2 places/)).toBeVisible();
  const code = page.getByRole("textbox", { name: t("en", "checkin.code_label") });
  const dialog = page.getByRole("dialog");

  await code.fill(numbers[0]);
  await page.getByRole("button", { name: t("en", "checkin.submit") }).click();
  await expect(dialog.getByText(reason)).toBeVisible();
  await dialog.getByRole("button", { name: t("en", "checkin.admit_anyway") }).click();
  await expect(dialog.getByText(t("en", "checkin.granted"))).toBeVisible();
  await dialog.getByRole("button", { name: t("en", "checkin.close") }).click();
  await expect(dialog).toBeHidden();

  // Offline, the list refuses it too and queues nothing.
  await context.setOffline(true);
  await expect(network.getByText(t("en", "checkin.network.offline"))).toBeVisible();
  await code.fill(numbers[1]);
  await page.getByRole("button", { name: t("en", "checkin.submit") }).click();
  await expect(dialog.getByText(reason)).toBeVisible();
  await expect(dialog.getByRole("button", { name: t("en", "checkin.admit_anyway") })).toHaveCount(0);
  await expect(page.getByTestId("checkin-waiting")).toHaveText(t("en", "checkin.network.waiting", { count: "0" }));
  await context.setOffline(false);
});
