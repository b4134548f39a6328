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
    dashboard: [],
    public: [
      { path: "events/tickets/:bookingId/:uuid", file: "sections/event/routes/public/tickets.tsx", id: "event-public-tickets" },
      { path: "events/tickets/:bookingId/:uuid/tickets.pdf", file: "sections/event/routes/public/tickets-pdf.ts", id: "event-public-tickets-pdf" },
    ],
    api: [],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
