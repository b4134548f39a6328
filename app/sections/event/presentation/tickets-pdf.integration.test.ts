import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMailAttachment } from "~/domain/messaging/mail.server";
import { bookPlaces, insertTicketedEvent } from "../../../../tests/support/event-fixtures-tickets";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { renderTicketsPdf } from "./tickets-pdf.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "TicketsPdf");
});
afterAll(async () => database?.destroy());

const pageCount = (pdf: Uint8Array) =>
  Buffer.from(pdf)
    .toString("latin1")
    .match(/\/Type \/Page\b/g)?.length ?? 0;
const fontsOf = (pdf: Uint8Array) =>
  [
    ...Buffer.from(pdf)
      .toString("latin1")
      .matchAll(/\/BaseFont \/\w+\+([\w-]+)/g),
  ].map((match) => match[1]);

describe("renderTicketsPdf", () => {
  it("draws one page per paid place of a booking, in its unit's fonts", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, event, { quantity: 3 });
    const rendered = await renderTicketsPdf(database.db, booking.id, booking.uuid);
    expect(Buffer.from(rendered!.pdf.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(rendered!.fileName).toBe(`tickets-${booking.id}.pdf`);
    expect(pageCount(rendered!.pdf)).toBe(3);
  });

  it("writes an Arabic booking's tickets with the Arabic font, one page per place", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, event, { quantity: 2, lang: "ar" });
    const rendered = await renderTicketsPdf(database.db, booking.id, booking.uuid);
    expect(pageCount(rendered!.pdf)).toBe(2);
    expect(fontsOf(rendered!.pdf)).toEqual(expect.arrayContaining(["NotoSansArabic-Bold", "NotoSans-Bold"]));
  });

  it("makes nothing for a wrong uuid or a booking with no paid place", async () => {
    const free = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, free, { quantity: 1 });
    expect(await renderTicketsPdf(database.db, booking.id, "not-its-uuid-at-all")).toBeUndefined();
    const paid = await insertTicketedEvent(database.db, shop.merchantId, { free: false });
    const unpaid = await bookPlaces(database.db, paid, { quantity: 2 });
    expect(unpaid.state).toBe("pending");
    expect(await renderTicketsPdf(database.db, unpaid.id, unpaid.uuid)).toBeUndefined();
  });

  it("is the file the booking mail carries", async () => {
    const event = await insertTicketedEvent(database.db, shop.merchantId, { free: true });
    const booking = await bookPlaces(database.db, event, { quantity: 2, email: "carrier@example.com" });
    const mail = await database.db
      .selectFrom("outgoing_mail")
      .select("attachments")
      .where("to_address", "=", "carrier@example.com")
      .executeTakeFirstOrThrow();
    const [attachment] = JSON.parse(mail.attachments!) as { type: string; ref: string; filename: string }[];
    expect(attachment).toMatchObject({ type: "event_tickets", filename: `tickets-${booking.id}.pdf` });
    const file = await renderMailAttachment(database.db, attachment);
    expect(file?.contentType).toBe("application/pdf");
    expect(pageCount(file!.content)).toBe(2);
  });
});
