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
  permissions: ["view_booking", "add_booking", "change_booking", "scan_booking", "admit_other_date_booking"],
  namespaces: { page: ["event", "bookings", "checkin", "event_setup"], serverOnly: ["events_public", "event_tickets"] },
  apiSetupScope: { area: "events", read: ["view_booking"], write: ["change_booking"] },
  transactions: { payable: true },
  routes: {
    dashboardLayout: { file: "sections/event/routes/layout.tsx", id: "event-layout" },
    dashboard: [
      { path: "bookings", file: "sections/event/routes/bookings.tsx", id: "event-bookings" },
      { path: "bookings/:id", file: "sections/event/routes/booking.tsx", id: "event-booking" },
      {
        path: "bookings/:id/attachment",
        file: "sections/event/routes/booking-attachment.ts",
        id: "event-booking-attachment",
      },
      { path: "create", file: "sections/event/routes/create.tsx", id: "event-booking-create" },
      { path: "fullfilment", file: "sections/event/routes/fulfillment.tsx", id: "event-fulfillment" },
      { path: "events", file: "sections/event/routes/events.tsx", id: "event-events" },
      { path: "events/new", file: "sections/event/routes/event-edit.tsx", id: "event-event-new" },
      { path: "events/:id", file: "sections/event/routes/event-edit.tsx", id: "event-event-edit" },
    ],
    public: [
      { path: "events", file: "sections/event/routes/public/events.tsx", id: "event-public-list" },
      { path: "events/register/:slug", file: "sections/event/routes/public/register.tsx", id: "event-public-register" },
      {
        path: "events/thanks-for-register",
        file: "sections/event/routes/public/thanks-for-register.tsx",
        id: "event-public-thanks-for-register",
      },
      {
        path: "events/leave-feedback/:slug",
        file: "sections/event/routes/public/feedback.tsx",
        id: "event-public-feedback",
      },
      {
        path: "events/leave-feedback/:slug/thanks",
        file: "sections/event/routes/public/feedback-thanks.tsx",
        id: "event-public-feedback-thanks",
      },
      { path: "events/thankyou", file: "sections/event/routes/public/thankyou.tsx", id: "event-public-thankyou" },
      {
        path: "events/ticketwaitingzone",
        file: "sections/event/routes/public/waiting-zone.tsx",
        id: "event-public-waiting-zone",
      },
      { path: "events/terms-and-conditions", file: "sections/event/routes/public/terms.tsx", id: "event-public-terms" },
      { path: "events/:slug", file: "sections/event/routes/public/event.tsx", id: "event-public-details" },
      {
        path: "events/tickets/:bookingId/:uuid",
        file: "sections/event/routes/public/tickets.tsx",
        id: "event-public-tickets",
      },
      {
        path: "events/tickets/:bookingId/:uuid/tickets.pdf",
        file: "sections/event/routes/public/tickets-pdf.ts",
        id: "event-public-tickets-pdf",
      },
    ],
    api: [
      {
        path: "plugins/event/events",
        file: "sections/event/routes/api/public-events.ts",
        id: "api-event-public-events",
      },
      {
        path: "plugins/event/events/:slug",
        file: "sections/event/routes/api/public-event.ts",
        id: "api-event-public-event",
      },
      {
        path: "plugins/event/events/:slug/image",
        file: "sections/event/routes/api/public-event-image.ts",
        id: "api-event-public-event-image",
      },
      {
        path: "plugins/event/terms-and-conditions",
        file: "sections/event/routes/api/public-terms.ts",
        id: "api-event-public-terms",
      },
      {
        path: "plugins/event/header-config",
        file: "sections/event/routes/api/public-header-config.ts",
        id: "api-event-public-header-config",
      },
      {
        path: "plugins/event/pay-choices",
        file: "sections/event/routes/api/public-pay-choices.ts",
        id: "api-event-public-pay-choices",
      },
      {
        path: "plugins/event/booking",
        file: "sections/event/routes/api/public-booking.ts",
        id: "api-event-public-booking",
      },
      {
        path: "plugins/event/registration/:slug",
        file: "sections/event/routes/api/public-booking.ts",
        id: "api-event-public-registration",
      },
      {
        path: "plugins/event/feedback/:slug",
        file: "sections/event/routes/api/public-feedback.ts",
        id: "api-event-public-feedback",
      },
      {
        path: "plugins/event/ticket/qty-list",
        file: "sections/event/routes/api/public-qty-list.ts",
        id: "api-event-public-qty-list",
      },
      {
        path: "plugins/event/tickets_for_booking/:id/uuid/:uuid",
        file: "sections/event/routes/api/public-tickets-for-booking.ts",
        id: "api-event-public-tickets-for-booking",
      },
      {
        path: "plugins/event/booking/list",
        file: "sections/event/routes/api/booking-list.ts",
        id: "api-event-booking-list",
      },
      {
        path: "plugins/event/booking/list/:id",
        file: "sections/event/routes/api/booking-detail.ts",
        id: "api-event-booking-detail",
      },
      {
        path: "plugins/event/booking/update/:id",
        file: "sections/event/routes/api/booking-update.ts",
        id: "api-event-booking-update",
      },
      {
        path: "plugins/event/dashboard/booking",
        file: "sections/event/routes/api/dashboard-booking.ts",
        id: "api-event-dashboard-booking",
      },
      {
        path: "plugins/event/booking_statistics",
        file: "sections/event/routes/api/booking-statistics.ts",
        id: "api-event-booking-statistics",
      },
      {
        path: "plugins/event/get-filter-choices",
        file: "sections/event/routes/api/filter-choices.ts",
        id: "api-event-filter-choices",
      },
      {
        path: "plugins/event/booking/export",
        file: "sections/event/routes/api/booking-export.ts",
        id: "api-event-booking-export",
      },
      {
        path: "plugins/event/notifications/booking/email",
        file: "sections/event/routes/api/booking-email.ts",
        id: "api-event-booking-email",
      },
      {
        path: "plugins/event/booking/upload",
        file: "sections/event/routes/api/booking-upload.ts",
        id: "api-event-booking-upload",
      },
      {
        path: "plugins/event/booking/attachment/:id",
        file: "sections/event/routes/api/booking-attachment.ts",
        id: "api-event-booking-attachment",
      },
      {
        path: "plugins/event/validate_qr_code",
        file: "sections/event/routes/api/checkin-validate.ts",
        id: "api-event-validate-qr",
      },
      {
        path: "plugins/event/checkin/statistics",
        file: "sections/event/routes/api/checkin-statistics.ts",
        id: "api-event-checkin-statistics",
      },
      {
        path: "plugins/event/checkin/list",
        file: "sections/event/routes/api/checkin-list.ts",
        id: "api-event-checkin-list",
      },
      {
        path: "plugins/event/checkin/sync",
        file: "sections/event/routes/api/checkin-sync.ts",
        id: "api-event-checkin-sync",
      },
      {
        path: "plugins/event/dashboard/events",
        file: "sections/event/routes/api/events.ts",
        id: "api-event-dashboard-events",
      },
      {
        path: "plugins/event/dashboard/events/:id",
        file: "sections/event/routes/api/event.ts",
        id: "api-event-dashboard-event",
      },
      {
        path: "plugins/event/dashboard/events/:id/image",
        file: "sections/event/routes/api/event-image.ts",
        id: "api-event-dashboard-event-image",
      },
    ],
    root: [{ path: "media/event/:merchantId/:file", file: "sections/event/routes/event-image.ts", id: "event-image" }],
  },
  demoJob: "event_demo_events",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
