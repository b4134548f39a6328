import type { SectionServer } from "../contract";
import { BOOKING_MAIL } from "./domain/booking-mail.server";
import { onBookingTransition, releaseAllExpiredHolds } from "./domain/bookings.server";
import { DEMO_EVENTS_JOB, seedDemoEvents } from "./domain/demo-events.server";

export const RELEASE_HOLDS_JOB = "event_release_holds";

export const sectionServer: SectionServer = {
  key: "event",
  onTransition: onBookingTransition,
  jobs: {
    [RELEASE_HOLDS_JOB]: async (db) => void (await releaseAllExpiredHolds(db)),
    [DEMO_EVENTS_JOB]: (db, payload: { merchantId: number; userId: number }) => seedDemoEvents(db, payload),
  },
  schedules: { release_holds: { type: RELEASE_HOLDS_JOB, everyMs: 30_000 } },
  mailTemplates: { [BOOKING_MAIL]: { audience: "customer", named: "name", action: "link" } },
};
