/**
 * The sections a merchant can have, with their sub-features and dashboard paths.
 * The side menu, the section guard and the per-section permissions are built from this list.
 */
/** `permission`: what a user needs to open the feature's pages (checked on the server). */
export type SectionFeature = { key: string; path: string; permission?: string };
export type Section = {
  key: string;
  path: string;
  plugin: string;
  features: SectionFeature[];
};

const transactionFeatures: SectionFeature[] = [
  { key: "transactions", path: "transactions", permission: "view_paymenttransaction" },
  { key: "deleted_transactions", path: "deleted-transactions", permission: "view_paymenttransaction" },
];

export const SECTIONS: Section[] = [
  { key: "express_search", path: "search/express", plugin: "", features: [] },
  {
    key: "payment_request",
    path: "payment-request",
    plugin: "payment_request",
    features: [{ key: "create", path: "create", permission: "add_paymenttransaction" }, ...transactionFeatures],
  },
  {
    key: "bulk",
    path: "bulk",
    plugin: "bulk",
    features: [{ key: "upload", path: "uploads", permission: "add_paymenttransaction" }, ...transactionFeatures],
  },
  {
    key: "customer_payment",
    path: "customer-payment",
    plugin: "customer_payment",
    features: [...transactionFeatures, { key: "payment_restriction", path: "payment-restriction" }],
  },
  { key: "catalogue", path: "catalogue", plugin: "catalogue", features: transactionFeatures },
  { key: "e_commerce", path: "e-commerce", plugin: "e_commerce", features: transactionFeatures },
  { key: "session", path: "session", plugin: "session", features: [] },
  { key: "shopify", path: "shopify", plugin: "shopify", features: transactionFeatures },
  {
    key: "event",
    path: "event",
    plugin: "event",
    features: [
      ...transactionFeatures,
      { key: "bookings", path: "bookings", permission: "view_booking" },
      { key: "create", path: "create", permission: "add_booking" },
      { key: "fulfillment", path: "fullfilment", permission: "scan_booking" },
    ],
  },
  {
    key: "food_ordering",
    path: "food-ordering",
    plugin: "food_ordering",
    features: [
      ...transactionFeatures,
      { key: "orders", path: "orders", permission: "view_order" },
      { key: "product_bulk_create", path: "bulk-create", permission: "change_order" },
      { key: "branches", path: "branches", permission: "view_order" },
      { key: "fulfillment", path: "fulfillment", permission: "scan_order" },
    ],
  },
  {
    key: "ticket",
    path: "ticket",
    plugin: "ticket",
    features: [
      { key: "user_permission_changes", path: "approve-permissions", permission: "approve_permission_requests" },
      { key: "operations_approval", path: "approve-refund-void", permission: "approve_operations" },
    ],
  },
];

/** The sections whose transactions appear in lists; their keys name the table-header permission. */
export const TRANSACTION_SECTIONS = SECTIONS.filter((section) =>
  section.features.some((feature) => feature.key === "transactions"),
).map((section) => section.key);

export function findSectionByPath(path: string): Section | undefined {
  return SECTIONS.find((section) => section.path === path);
}

/** What a merchant has: section key → enabled feature keys. */
export type AvailableSections = Record<string, string[]>;

export function hasFeature(available: AvailableSections, section: string, feature?: string) {
  const features = available[section];
  if (!features) return false;
  return feature === undefined || features.includes(feature);
}
