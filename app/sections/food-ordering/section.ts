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
    dashboard: [{ path: "bulk-create", file: "sections/food-ordering/routes/bulk-create.tsx", id: "food-bulk-create" }],
    public: [],
    api: [
      { path: "plugins/food_ordering/upload/product", file: "sections/food-ordering/routes/api/upload-product.ts", id: "api-food-upload-product" },
      { path: "plugins/food_ordering/upload/product/example", file: "sections/food-ordering/routes/api/upload-product-example.ts", id: "api-food-upload-product-example" },
    ],
  },
  demoJob: "food_demo_menu",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
