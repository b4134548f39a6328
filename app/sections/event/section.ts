import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * Events: a merchant sells tickets to events (free or paid), customers register on public pages,
 * staff manage bookings and check places in at the door (decision 0023).
 */
export const event = {
  key: "event",
  path: "event",
  built: true,
  features: [
    ...TRANSACTION_FEATURES,
    { key: "bookings", path: "bookings", permission: "view_booking" },
    { key: "create", path: "create", permission: "add_booking" },
    { key: "fulfillment", path: "fullfilment", permission: "scan_booking" },
  ],
  permissions: ["view_booking", "add_booking", "change_booking", "scan_booking"],
  transactions: { payable: true },
  routes: {
    dashboard: [
      { path: "bookings", file: "sections/event/routes/bookings.tsx", id: "event-bookings" },
      { path: "bookings/:id", file: "sections/event/routes/booking.tsx", id: "event-booking" },
      { path: "bookings/:id/attachment", file: "sections/event/routes/booking-attachment.ts", id: "event-booking-attachment" },
      { path: "create", file: "sections/event/routes/create.tsx", id: "event-booking-create" },
    ],
    public: [],
    api: [
      { path: "plugins/event/booking/list", file: "sections/event/routes/api/booking-list.ts", id: "api-event-booking-list" },
      { path: "plugins/event/booking/list/:id", file: "sections/event/routes/api/booking-detail.ts", id: "api-event-booking-detail" },
      { path: "plugins/event/booking/update/:id", file: "sections/event/routes/api/booking-update.ts", id: "api-event-booking-update" },
      { path: "plugins/event/dashboard/booking", file: "sections/event/routes/api/dashboard-booking.ts", id: "api-event-dashboard-booking" },
      { path: "plugins/event/booking_statistics", file: "sections/event/routes/api/booking-statistics.ts", id: "api-event-booking-statistics" },
      { path: "plugins/event/get-filter-choices", file: "sections/event/routes/api/filter-choices.ts", id: "api-event-filter-choices" },
      { path: "plugins/event/booking/export", file: "sections/event/routes/api/booking-export.ts", id: "api-event-booking-export" },
      { path: "plugins/event/notifications/booking/email", file: "sections/event/routes/api/booking-email.ts", id: "api-event-booking-email" },
      { path: "plugins/event/booking/upload", file: "sections/event/routes/api/booking-upload.ts", id: "api-event-booking-upload" },
      { path: "plugins/event/booking/attachment/:id", file: "sections/event/routes/api/booking-attachment.ts", id: "api-event-booking-attachment" },
    ],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
