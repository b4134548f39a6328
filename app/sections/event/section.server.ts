import type { SectionServer } from "../contract";
import { BOOKING_MAIL, TICKETS_ATTACHMENT, ticketsPath } from "./domain/booking-mail.server";
import { bookingOfTransaction, onBookingTransition, releaseAllExpiredHolds } from "./domain/bookings.server";
import { BOOKING_EXPORT_JOB, BOOKINGS_REPORT_SECTION } from "./domain/booking-export.server";
import { DEMO_EVENTS_JOB, seedDemoEvents } from "./domain/demo-events.server";
import { runBookingExport } from "./presentation/booking-export.server";
import { describeBookingReportFilters } from "./presentation/booking-report-filters.server";
import { renderTicketsAttachment } from "./presentation/tickets-pdf.server";

export const RELEASE_HOLDS_JOB = "event_release_holds";

export const sectionServer: SectionServer = {
  key: "event",
  onTransition: onBookingTransition,
  jobs: {
    [RELEASE_HOLDS_JOB]: async (db) => void (await releaseAllExpiredHolds(db)),
    [BOOKING_EXPORT_JOB]: runBookingExport,
    [DEMO_EVENTS_JOB]: (db, payload: { merchantId: number; userId: number }) => seedDemoEvents(db, payload),
  },
  schedules: { release_holds: { type: RELEASE_HOLDS_JOB, everyMs: 30_000 } },
  mailTemplates: { [BOOKING_MAIL]: { audience: "customer", named: "name", action: "link" } },
  reportFilters: { [BOOKINGS_REPORT_SECTION]: describeBookingReportFilters },
  mailAttachments: { [TICKETS_ATTACHMENT]: renderTicketsAttachment },
  transactions: {
    // The result page's Ticket button: the booking's tickets page once the payment confirmed its places.
    ticketsUrl: async (db, transactionId, lang) => {
      const booking = await bookingOfTransaction(db, transactionId);
      return booking?.status === "paid" ? ticketsPath(lang, booking.id, booking.uuid) : null;
    },
  },
};
