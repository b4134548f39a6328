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
  namespaces: { page: ["food", "food_setup", "food_orders", "food_bulk"], serverOnly: ["food_public"] },
  apiSetupScope: { area: "menu", read: ["view_order"], write: ["change_order"] },
  transactions: { payable: true },
  routes: {
    dashboardLayout: { file: "sections/food-ordering/routes/layout.tsx", id: "food-layout" },
    dashboard: [
      { path: "bulk-create", file: "sections/food-ordering/routes/bulk-create.tsx", id: "food-bulk-create" },
      { path: "orders", file: "sections/food-ordering/routes/orders.tsx", id: "food-orders" },
      { path: "orders/:id", file: "sections/food-ordering/routes/order.tsx", id: "food-order" },
      {
        path: "orders/:id/duplicate",
        file: "sections/food-ordering/routes/order-duplicate.tsx",
        id: "food-order-duplicate",
      },
      { path: "fulfillment", file: "sections/food-ordering/routes/fulfillment.tsx", id: "food-fulfillment" },
      { path: "branches", file: "sections/food-ordering/routes/setup/branches.tsx", id: "food-branches" },
      { path: "branches/new", file: "sections/food-ordering/routes/setup/branch.tsx", id: "food-branch-new" },
      { path: "branches/:id", file: "sections/food-ordering/routes/setup/branch.tsx", id: "food-branch" },
      { path: "menu", file: "sections/food-ordering/routes/setup/menu.tsx", id: "food-menu" },
      {
        path: "menu/categories/new",
        file: "sections/food-ordering/routes/setup/category.tsx",
        id: "food-category-new",
      },
      { path: "menu/categories/:id", file: "sections/food-ordering/routes/setup/category.tsx", id: "food-category" },
      { path: "menu/items/new", file: "sections/food-ordering/routes/setup/item.tsx", id: "food-item-new" },
      { path: "menu/items/:id", file: "sections/food-ordering/routes/setup/item.tsx", id: "food-item" },
      { path: "vouchers", file: "sections/food-ordering/routes/setup/vouchers.tsx", id: "food-vouchers" },
      { path: "vouchers/new", file: "sections/food-ordering/routes/setup/voucher.tsx", id: "food-voucher-new" },
      { path: "vouchers/:id", file: "sections/food-ordering/routes/setup/voucher.tsx", id: "food-voucher" },
      { path: "settings", file: "sections/food-ordering/routes/setup/settings.tsx", id: "food-settings" },
    ],
    public: [
      { path: "new-menu", file: "sections/food-ordering/routes/public/menu.tsx", id: "food-public-menu" },
      {
        path: "new-menu/category/:categoryId/food-details/:id",
        file: "sections/food-ordering/routes/public/food-details.tsx",
        id: "food-public-details",
      },
      {
        path: "new-menu/branches",
        file: "sections/food-ordering/routes/public/branches.tsx",
        id: "food-public-branches",
      },
      {
        path: "new-menu/checkout",
        file: "sections/food-ordering/routes/public/checkout.tsx",
        id: "food-public-checkout",
      },
      {
        path: "new-menu/order-confirmation/:number",
        file: "sections/food-ordering/routes/public/order-confirmation.tsx",
        id: "food-public-order",
      },
    ],
    api: [
      {
        path: "plugins/food_ordering/upload/product",
        file: "sections/food-ordering/routes/api/upload-product.ts",
        id: "api-food-upload-product",
      },
      {
        path: "plugins/food_ordering/upload/product/example",
        file: "sections/food-ordering/routes/api/upload-product-example.ts",
        id: "api-food-upload-product-example",
      },
      {
        path: "plugins/food_ordering/order",
        file: "sections/food-ordering/routes/api/orders-list.ts",
        id: "api-food-orders-list",
      },
      {
        path: "plugins/food_ordering/order/:id",
        file: "sections/food-ordering/routes/api/orders-detail.ts",
        id: "api-food-orders-detail",
      },
      {
        path: "plugins/food_ordering/order/update/:id",
        file: "sections/food-ordering/routes/api/orders-update.ts",
        id: "api-food-orders-update",
      },
      {
        path: "plugins/food_ordering/order/scan-permission/:code",
        file: "sections/food-ordering/routes/api/orders-scan-permission.ts",
        id: "api-food-orders-scan-permission",
      },
      {
        path: "plugins/food_ordering/product_categories",
        file: "sections/food-ordering/routes/api/public-catalog.ts",
        id: "api-food-public-categories",
      },
      {
        path: "plugins/food_ordering/product_categories/:id",
        file: "sections/food-ordering/routes/api/public-catalog.ts",
        id: "api-food-public-category",
      },
      {
        path: "plugins/food_ordering/menu-items",
        file: "sections/food-ordering/routes/api/public-catalog.ts",
        id: "api-food-public-menu-items",
      },
      {
        path: "plugins/food_ordering/products",
        file: "sections/food-ordering/routes/api/public-catalog.ts",
        id: "api-food-public-products",
      },
      {
        path: "plugins/food_ordering/products/:id",
        file: "sections/food-ordering/routes/api/public-catalog.ts",
        id: "api-food-public-product",
      },
      {
        path: "plugins/food_ordering/branches",
        file: "sections/food-ordering/routes/api/public-branches.ts",
        id: "api-food-public-branches",
      },
      {
        path: "plugins/food_ordering/branches/:id",
        file: "sections/food-ordering/routes/api/public-branches.ts",
        id: "api-food-public-branch",
      },
      {
        path: "plugins/food_ordering/delivery_areas/:branchId",
        file: "sections/food-ordering/routes/api/public-branches.ts",
        id: "api-food-public-delivery-areas",
      },
      {
        path: "plugins/food_ordering/delivery_zones/:branchId",
        file: "sections/food-ordering/routes/api/public-branches.ts",
        id: "api-food-public-delivery-zones",
      },
      {
        path: "plugins/food_ordering/min-order",
        file: "sections/food-ordering/routes/api/public-branches.ts",
        id: "api-food-public-min-order",
      },
      {
        path: "plugins/food_ordering/is-branch-or-delivery-area-work",
        file: "sections/food-ordering/routes/api/public-branches.ts",
        id: "api-food-public-is-working",
      },
      {
        path: "plugins/food_ordering/header-config",
        file: "sections/food-ordering/routes/api/public-config.ts",
        id: "api-food-public-header-config",
      },
      {
        path: "plugins/food_ordering/menu-page-config",
        file: "sections/food-ordering/routes/api/public-config.ts",
        id: "api-food-public-menu-page-config",
      },
      {
        path: "plugins/food_ordering/banners",
        file: "sections/food-ordering/routes/api/public-config.ts",
        id: "api-food-public-banners",
      },
      {
        path: "plugins/food_ordering/promoted-items",
        file: "sections/food-ordering/routes/api/public-config.ts",
        id: "api-food-public-promoted-items",
      },
      {
        path: "plugins/food_ordering/test-if-food-ordering-installed",
        file: "sections/food-ordering/routes/api/public-config.ts",
        id: "api-food-public-installed",
      },
      {
        path: "plugins/food_ordering/accepted-pay-choices",
        file: "sections/food-ordering/routes/api/public-pay-choices.ts",
        id: "api-food-public-accepted-pay-choices",
      },
      {
        path: "plugins/food_ordering/pay-choices",
        file: "sections/food-ordering/routes/api/public-pay-choices.ts",
        id: "api-food-public-pay-choices",
      },
      {
        path: "plugins/food_ordering/checkout",
        file: "sections/food-ordering/routes/api/public-checkout.ts",
        id: "api-food-public-checkout",
      },
      {
        path: "plugins/food_ordering/catering-checkout",
        file: "sections/food-ordering/routes/api/public-checkout.ts",
        id: "api-food-public-catering-checkout",
      },
      {
        path: "plugins/food_ordering/voucher/activate",
        file: "sections/food-ordering/routes/api/public-voucher.ts",
        id: "api-food-public-voucher-activate",
      },
      {
        path: "plugins/food_ordering/order/details/:number",
        file: "sections/food-ordering/routes/api/public-order.ts",
        id: "api-food-public-order-details",
      },
      {
        path: "plugins/food_ordering/order/state/:number",
        file: "sections/food-ordering/routes/api/public-order.ts",
        id: "api-food-public-order-state",
      },
      {
        path: "plugins/food_ordering/order/validate/:number",
        file: "sections/food-ordering/routes/api/public-order.ts",
        id: "api-food-public-order-validate",
      },
      {
        path: "plugins/food_ordering/order-feedback/:number",
        file: "sections/food-ordering/routes/api/public-order.ts",
        id: "api-food-public-order-feedback",
      },
      {
        path: "plugins/food_ordering/dashboard/categories",
        file: "sections/food-ordering/routes/api/setup-collection.ts",
        id: "api-food-dashboard-categories",
      },
      {
        path: "plugins/food_ordering/dashboard/categories/:id",
        file: "sections/food-ordering/routes/api/setup-item.ts",
        id: "api-food-dashboard-category",
      },
      {
        path: "plugins/food_ordering/dashboard/menu-items",
        file: "sections/food-ordering/routes/api/setup-collection.ts",
        id: "api-food-dashboard-menu-items",
      },
      {
        path: "plugins/food_ordering/dashboard/menu-items/:id",
        file: "sections/food-ordering/routes/api/setup-item.ts",
        id: "api-food-dashboard-menu-item",
      },
      {
        path: "plugins/food_ordering/dashboard/branches",
        file: "sections/food-ordering/routes/api/setup-collection.ts",
        id: "api-food-dashboard-branches",
      },
      {
        path: "plugins/food_ordering/dashboard/branches/:id",
        file: "sections/food-ordering/routes/api/setup-item.ts",
        id: "api-food-dashboard-branch",
      },
      {
        path: "plugins/food_ordering/dashboard/delivery-areas",
        file: "sections/food-ordering/routes/api/setup-collection.ts",
        id: "api-food-dashboard-delivery-areas",
      },
      {
        path: "plugins/food_ordering/dashboard/delivery-areas/:id",
        file: "sections/food-ordering/routes/api/setup-item.ts",
        id: "api-food-dashboard-delivery-area",
      },
      {
        path: "plugins/food_ordering/dashboard/vouchers",
        file: "sections/food-ordering/routes/api/setup-collection.ts",
        id: "api-food-dashboard-vouchers",
      },
      {
        path: "plugins/food_ordering/dashboard/vouchers/:id",
        file: "sections/food-ordering/routes/api/setup-item.ts",
        id: "api-food-dashboard-voucher",
      },
    ],
  },
  demoJob: "food_demo_menu",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
