import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * Food ordering: a restaurant's menu, branches and delivery areas; customers order for pickup,
 * delivery or catering on public pages and pay through the pay flow (or on delivery); staff follow
 * the orders through the kitchen (decision 0024).
 */
export const foodOrdering = {
  key: "food_ordering",
  path: "food-ordering",
  built: true,
  features: [
    ...TRANSACTION_FEATURES,
    { key: "orders", path: "orders", permission: "view_order" },
    { key: "product_bulk_create", path: "bulk-create", permission: "change_order" },
    { key: "branches", path: "branches", permission: "view_order" },
    { key: "fulfillment", path: "fulfillment", permission: "scan_order" },
  ],
  permissions: ["view_order", "change_order", "scan_order"],
  transactions: { payable: true },
  routes: {
    dashboard: [],
    public: [
      { path: "new-menu", file: "sections/food-ordering/routes/public/menu.tsx", id: "food-public-menu" },
      { path: "new-menu/category/:categoryId/food-details/:id", file: "sections/food-ordering/routes/public/food-details.tsx", id: "food-public-details" },
      { path: "new-menu/branches", file: "sections/food-ordering/routes/public/branches.tsx", id: "food-public-branches" },
      { path: "new-menu/checkout", file: "sections/food-ordering/routes/public/checkout.tsx", id: "food-public-checkout" },
      { path: "new-menu/order-confirmation/:number", file: "sections/food-ordering/routes/public/order-confirmation.tsx", id: "food-public-order" },
    ],
    api: [
      { path: "plugins/food_ordering/product_categories", file: "sections/food-ordering/routes/api/public-catalog.ts", id: "api-food-public-categories" },
      { path: "plugins/food_ordering/product_categories/:id", file: "sections/food-ordering/routes/api/public-catalog.ts", id: "api-food-public-category" },
      { path: "plugins/food_ordering/menu-items", file: "sections/food-ordering/routes/api/public-catalog.ts", id: "api-food-public-menu-items" },
      { path: "plugins/food_ordering/products", file: "sections/food-ordering/routes/api/public-catalog.ts", id: "api-food-public-products" },
      { path: "plugins/food_ordering/products/:id", file: "sections/food-ordering/routes/api/public-catalog.ts", id: "api-food-public-product" },
      { path: "plugins/food_ordering/branches", file: "sections/food-ordering/routes/api/public-branches.ts", id: "api-food-public-branches" },
      { path: "plugins/food_ordering/branches/:id", file: "sections/food-ordering/routes/api/public-branches.ts", id: "api-food-public-branch" },
      { path: "plugins/food_ordering/delivery_areas/:branchId", file: "sections/food-ordering/routes/api/public-branches.ts", id: "api-food-public-delivery-areas" },
      { path: "plugins/food_ordering/delivery_zones/:branchId", file: "sections/food-ordering/routes/api/public-branches.ts", id: "api-food-public-delivery-zones" },
      { path: "plugins/food_ordering/min-order", file: "sections/food-ordering/routes/api/public-branches.ts", id: "api-food-public-min-order" },
      { path: "plugins/food_ordering/is-branch-or-delivery-area-work", file: "sections/food-ordering/routes/api/public-branches.ts", id: "api-food-public-is-working" },
      { path: "plugins/food_ordering/header-config", file: "sections/food-ordering/routes/api/public-config.ts", id: "api-food-public-header-config" },
      { path: "plugins/food_ordering/menu-page-config", file: "sections/food-ordering/routes/api/public-config.ts", id: "api-food-public-menu-page-config" },
      { path: "plugins/food_ordering/banners", file: "sections/food-ordering/routes/api/public-config.ts", id: "api-food-public-banners" },
      { path: "plugins/food_ordering/promoted-items", file: "sections/food-ordering/routes/api/public-config.ts", id: "api-food-public-promoted-items" },
      { path: "plugins/food_ordering/test-if-food-ordering-installed", file: "sections/food-ordering/routes/api/public-config.ts", id: "api-food-public-installed" },
      { path: "plugins/food_ordering/accepted-pay-choices", file: "sections/food-ordering/routes/api/public-pay-choices.ts", id: "api-food-public-accepted-pay-choices" },
      { path: "plugins/food_ordering/pay-choices", file: "sections/food-ordering/routes/api/public-pay-choices.ts", id: "api-food-public-pay-choices" },
      { path: "plugins/food_ordering/checkout", file: "sections/food-ordering/routes/api/public-checkout.ts", id: "api-food-public-checkout" },
      { path: "plugins/food_ordering/catering-checkout", file: "sections/food-ordering/routes/api/public-checkout.ts", id: "api-food-public-catering-checkout" },
      { path: "plugins/food_ordering/voucher/activate", file: "sections/food-ordering/routes/api/public-voucher.ts", id: "api-food-public-voucher-activate" },
      { path: "plugins/food_ordering/order/details/:number", file: "sections/food-ordering/routes/api/public-order.ts", id: "api-food-public-order-details" },
      { path: "plugins/food_ordering/order/state/:number", file: "sections/food-ordering/routes/api/public-order.ts", id: "api-food-public-order-state" },
      { path: "plugins/food_ordering/order/validate/:number", file: "sections/food-ordering/routes/api/public-order.ts", id: "api-food-public-order-validate" },
      { path: "plugins/food_ordering/order-feedback/:number", file: "sections/food-ordering/routes/api/public-order.ts", id: "api-food-public-order-feedback" },
    ],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
