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
      { path: "events", file: "sections/event/routes/public/events.tsx", id: "event-public-list" },
      { path: "events/register/:slug", file: "sections/event/routes/public/register.tsx", id: "event-public-register" },
      { path: "events/thanks-for-register", file: "sections/event/routes/public/thanks-for-register.tsx", id: "event-public-thanks-for-register" },
      { path: "events/leave-feedback/:slug", file: "sections/event/routes/public/feedback.tsx", id: "event-public-feedback" },
      { path: "events/leave-feedback/:slug/thanks", file: "sections/event/routes/public/feedback-thanks.tsx", id: "event-public-feedback-thanks" },
      { path: "events/thankyou", file: "sections/event/routes/public/thankyou.tsx", id: "event-public-thankyou" },
      { path: "events/ticketwaitingzone", file: "sections/event/routes/public/waiting-zone.tsx", id: "event-public-waiting-zone" },
      { path: "events/terms-and-conditions", file: "sections/event/routes/public/terms.tsx", id: "event-public-terms" },
      { path: "events/:slug", file: "sections/event/routes/public/event.tsx", id: "event-public-details" },
    ],
    api: [
      { path: "plugins/event/events", file: "sections/event/routes/api/public-events.ts", id: "api-event-public-events" },
      { path: "plugins/event/events/:slug", file: "sections/event/routes/api/public-event.ts", id: "api-event-public-event" },
      { path: "plugins/event/events/:slug/image", file: "sections/event/routes/api/public-event-image.ts", id: "api-event-public-event-image" },
      { path: "plugins/event/terms-and-conditions", file: "sections/event/routes/api/public-terms.ts", id: "api-event-public-terms" },
      { path: "plugins/event/header-config", file: "sections/event/routes/api/public-header-config.ts", id: "api-event-public-header-config" },
      { path: "plugins/event/pay-choices", file: "sections/event/routes/api/public-pay-choices.ts", id: "api-event-public-pay-choices" },
      { path: "plugins/event/booking", file: "sections/event/routes/api/public-booking.ts", id: "api-event-public-booking" },
      { path: "plugins/event/registration/:slug", file: "sections/event/routes/api/public-booking.ts", id: "api-event-public-registration" },
      { path: "plugins/event/feedback/:slug", file: "sections/event/routes/api/public-feedback.ts", id: "api-event-public-feedback" },
      { path: "plugins/event/ticket/qty-list", file: "sections/event/routes/api/public-qty-list.ts", id: "api-event-public-qty-list" },
      { path: "plugins/event/tickets_for_booking/:id/uuid/:uuid", file: "sections/event/routes/api/public-tickets-for-booking.ts", id: "api-event-public-tickets-for-booking" },
    ],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
