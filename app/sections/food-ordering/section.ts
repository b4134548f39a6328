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
    dashboardLayout: { file: "sections/food-ordering/routes/layout.tsx", id: "food-layout" },
    dashboard: [
      { path: "branches", file: "sections/food-ordering/routes/setup/branches.tsx", id: "food-branches" },
      { path: "branches/new", file: "sections/food-ordering/routes/setup/branch.tsx", id: "food-branch-new" },
      { path: "branches/:id", file: "sections/food-ordering/routes/setup/branch.tsx", id: "food-branch" },
      { path: "menu", file: "sections/food-ordering/routes/setup/menu.tsx", id: "food-menu" },
      { path: "menu/categories/new", file: "sections/food-ordering/routes/setup/category.tsx", id: "food-category-new" },
      { path: "menu/categories/:id", file: "sections/food-ordering/routes/setup/category.tsx", id: "food-category" },
      { path: "menu/items/new", file: "sections/food-ordering/routes/setup/item.tsx", id: "food-item-new" },
      { path: "menu/items/:id", file: "sections/food-ordering/routes/setup/item.tsx", id: "food-item" },
      { path: "vouchers", file: "sections/food-ordering/routes/setup/vouchers.tsx", id: "food-vouchers" },
      { path: "vouchers/new", file: "sections/food-ordering/routes/setup/voucher.tsx", id: "food-voucher-new" },
      { path: "vouchers/:id", file: "sections/food-ordering/routes/setup/voucher.tsx", id: "food-voucher" },
      { path: "settings", file: "sections/food-ordering/routes/setup/settings.tsx", id: "food-settings" },
    ],
    public: [],
    api: [
      { path: "plugins/food_ordering/dashboard/categories", file: "sections/food-ordering/routes/api/setup-collection.ts", id: "api-food-dashboard-categories" },
      { path: "plugins/food_ordering/dashboard/categories/:id", file: "sections/food-ordering/routes/api/setup-item.ts", id: "api-food-dashboard-category" },
      { path: "plugins/food_ordering/dashboard/menu-items", file: "sections/food-ordering/routes/api/setup-collection.ts", id: "api-food-dashboard-menu-items" },
      { path: "plugins/food_ordering/dashboard/menu-items/:id", file: "sections/food-ordering/routes/api/setup-item.ts", id: "api-food-dashboard-menu-item" },
      { path: "plugins/food_ordering/dashboard/branches", file: "sections/food-ordering/routes/api/setup-collection.ts", id: "api-food-dashboard-branches" },
      { path: "plugins/food_ordering/dashboard/branches/:id", file: "sections/food-ordering/routes/api/setup-item.ts", id: "api-food-dashboard-branch" },
      { path: "plugins/food_ordering/dashboard/delivery-areas", file: "sections/food-ordering/routes/api/setup-collection.ts", id: "api-food-dashboard-delivery-areas" },
      { path: "plugins/food_ordering/dashboard/delivery-areas/:id", file: "sections/food-ordering/routes/api/setup-item.ts", id: "api-food-dashboard-delivery-area" },
      { path: "plugins/food_ordering/dashboard/vouchers", file: "sections/food-ordering/routes/api/setup-collection.ts", id: "api-food-dashboard-vouchers" },
      { path: "plugins/food_ordering/dashboard/vouchers/:id", file: "sections/food-ordering/routes/api/setup-item.ts", id: "api-food-dashboard-voucher" },
    ],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
