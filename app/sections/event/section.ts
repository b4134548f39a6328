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
      { path: "events", file: "sections/event/routes/events.tsx", id: "event-events" },
      { path: "events/new", file: "sections/event/routes/event-edit.tsx", id: "event-event-new" },
      { path: "events/:id", file: "sections/event/routes/event-edit.tsx", id: "event-event-edit" },
    ],
    public: [],
    api: [
      { path: "plugins/event/dashboard/events", file: "sections/event/routes/api/events.ts", id: "api-event-dashboard-events" },
      { path: "plugins/event/dashboard/events/:id", file: "sections/event/routes/api/event.ts", id: "api-event-dashboard-event" },
      { path: "plugins/event/dashboard/events/:id/image", file: "sections/event/routes/api/event-image.ts", id: "api-event-dashboard-event-image" },
    ],
    root: [{ path: "media/event/:merchantId/:file", file: "sections/event/routes/event-image.ts", id: "event-image" }],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
