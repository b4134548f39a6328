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
    dashboard: [{ path: "fullfilment", file: "sections/event/routes/fulfillment.tsx", id: "event-fulfillment" }],
    public: [],
    api: [
      { path: "plugins/event/validate_qr_code", file: "sections/event/routes/api/checkin-validate.ts", id: "api-event-validate-qr" },
      { path: "plugins/event/checkin/statistics", file: "sections/event/routes/api/checkin-statistics.ts", id: "api-event-checkin-statistics" },
      { path: "plugins/event/checkin/list", file: "sections/event/routes/api/checkin-list.ts", id: "api-event-checkin-list" },
      { path: "plugins/event/checkin/sync", file: "sections/event/routes/api/checkin-sync.ts", id: "api-event-checkin-sync" },
    ],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
