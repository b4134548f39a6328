import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { createDatabase } from "~/db/database.server";
import { qrContentOf } from "~/sections/event/domain/tickets.server";
import { orderQrContent } from "~/sections/food-ordering/domain/order-qr.server";
import { insertCheckinBooking, insertCheckinEvent } from "../support/event-fixtures-checkin";
import { insertFoodOrder, insertOrdersMenu } from "../support/food-fixtures-forders";
import { expect, test } from "./fixtures";
import { databaseDir, workerIndex } from "./servers";
import { signIn, t, urlPath, waitForHydration } from "./support";

/**
 * The one QR camera of the event's door and the food counter, reading a code held up to Chromium's
 * fake camera (a Y4M picture this test draws): what it reads is checked by each page's own rule.
 */
const WIDTH = 640;
const HEIGHT = 480;
const cameraFile = path.join(os.tmpdir(), `fulfilment-camera-${workerIndex}-${process.pid}.y4m`);

/** Puts `text` as a QR code in front of the fake camera (read again each time a page starts it). */
function holdUp(text: string) {
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  if (text) {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
    const scale = Math.floor(400 / modules.size);
    const left = Math.floor((WIDTH - modules.size * scale) / 2);
    const top = Math.floor((HEIGHT - modules.size * scale) / 2);
    for (let row = 0; row < modules.size; row++)
      for (let col = 0; col < modules.size; col++)
        if (modules.get(row, col))
          for (let y = 0; y < scale; y++)
            luma.fill(
              16,
              (top + row * scale + y) * WIDTH + left + col * scale,
              (top + row * scale + y) * WIDTH + left + (col + 1) * scale,
            );
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const header = `YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`;
  fs.writeFileSync(cameraFile, Buffer.concat([Buffer.from(header), Buffer.from("FRAME\n"), luma, chroma]));
}

holdUp("");
test.use({
  permissions: ["camera"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-video-capture=${cameraFile}`,
    ],
  },
});
test.afterAll(() => fs.rmSync(cameraFile, { force: true }));

/** The demo merchant's event of today with one paid place, and a food order; their QR codes. */
async function ticketAndOrder() {
  const db = createDatabase({ sqlitePath: path.join(databaseDir(workerIndex), "e2e.sqlite") });
  try {
    const { merchant_id: merchantId } = await db
      .selectFrom("users")
      .select("merchant_id")
      .where("username", "=", "admin")
      .executeTakeFirstOrThrow();
    const event = await insertCheckinEvent(db, merchantId, { title: `Camera door ${Date.now()}` });
    const { numbers } = await insertCheckinBooking(db, merchantId, event, { firstName: "Maryam" });
    const order = await insertFoodOrder(db, merchantId, await insertOrdersMenu(db, merchantId));
    return {
      event,
      number: numbers[0],
      ticket: await qrContentOf(db, event.id, numbers[0]),
      order: order.id,
      orderCode: await orderQrContent(db, order.id),
    };
  } finally {
    await db.destroy();
  }
}

test("the camera reads a ticket at the door and an order at the counter, each refusing the other's code", async ({
  page,
}) => {
  const { event, number, ticket, order, orderCode } = await ticketAndOrder();
  await signIn(page, "admin");

  // The counter: a ticket is refused, and the camera reads again by itself 2 s later: the order's code opens its details.
  holdUp(ticket);
  await page.goto("/en/food-ordering/fulfillment");
  await waitForHydration(page);
  await page.getByRole("button", { name: t("en", "food_orders.fulfillment.camera_start") }).click();
  await expect(page.getByRole("alert").filter({ hasText: t("en", "food_orders.fulfillment.invalid") })).toBeVisible();
  holdUp(orderCode);
  await expect(page).toHaveURL(urlPath(`/en/food-ordering/orders/${order}`));

  // The door: the order's code is refused, then the ticket held up admits its place.
  await page.goto(`/en/event/fullfilment?event=${event.id}`);
  await waitForHydration(page);
  const dialog = page.getByRole("dialog");
  await page.getByRole("button", { name: t("en", "checkin.camera.start") }).click();
  await expect(dialog.getByText(t("en", "checkin.reasons.unknown"))).toBeVisible();
  holdUp(ticket);
  await expect(dialog.getByText(t("en", "checkin.granted"))).toBeVisible();
  await expect(dialog.getByText(number)).toBeVisible();
});
