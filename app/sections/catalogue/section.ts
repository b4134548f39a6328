import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * Catalogue: a merchant's shop of products with inventory, stores, a banner and discount codes;
 * customers buy on public pages with a cart held on the server and pay through the pay flow
 * (decision 0025).
 */
export const catalogue = {
  key: "catalogue",
  path: "catalogue",
  built: true,
  features: [
    ...TRANSACTION_FEATURES,
    // The merchant's management of the shop (decision 0025).
    { key: "products", path: "products", permission: "view_product" },
    { key: "product_upload", path: "products/upload", permission: "change_product" },
    { key: "stores", path: "stores", permission: "view_product" },
    { key: "discounts", path: "discounts", permission: "view_product" },
    { key: "settings", path: "settings", permission: "change_product" },
  ],
  permissions: ["view_product", "change_product"],
  namespaces: { page: ["catalogue_admin"], serverOnly: ["catalogue_public"] },
  apiSetupScope: { area: "catalogue", read: ["view_product"], write: ["change_product"] },
  transactions: { payable: true },
  routes: {
    // The merchant's management of the shop.
    dashboardLayout: { file: "sections/catalogue/routes/layout.tsx", id: "catalogue-layout" },
    dashboard: [
      { path: "products", file: "sections/catalogue/routes/admin/products.tsx", id: "catalogue-products" },
      { path: "products/new", file: "sections/catalogue/routes/admin/product.tsx", id: "catalogue-product-new" },
      {
        path: "products/upload",
        file: "sections/catalogue/routes/admin/products-upload.tsx",
        id: "catalogue-products-upload",
      },
      { path: "products/:id", file: "sections/catalogue/routes/admin/product.tsx", id: "catalogue-product" },
      {
        path: "products/:id/images/:imageId",
        file: "sections/catalogue/routes/admin/product-image.ts",
        id: "catalogue-product-image",
      },
      { path: "stores", file: "sections/catalogue/routes/admin/stores.tsx", id: "catalogue-stores" },
      { path: "stores/new", file: "sections/catalogue/routes/admin/store.tsx", id: "catalogue-store-new" },
      { path: "stores/:id", file: "sections/catalogue/routes/admin/store.tsx", id: "catalogue-store" },
      { path: "discounts", file: "sections/catalogue/routes/admin/discounts.tsx", id: "catalogue-discounts" },
      { path: "discounts/new", file: "sections/catalogue/routes/admin/discount.tsx", id: "catalogue-discount-new" },
      { path: "discounts/:id", file: "sections/catalogue/routes/admin/discount.tsx", id: "catalogue-discount" },
      { path: "settings", file: "sections/catalogue/routes/admin/settings.tsx", id: "catalogue-settings" },
    ],
    public: [
      {
        path: "catalogue/product-list",
        file: "sections/catalogue/routes/public/product-list.tsx",
        id: "catalogue-public-list",
      },
      {
        path: "catalogue/product-detail/:slug",
        file: "sections/catalogue/routes/public/product-detail.tsx",
        id: "catalogue-public-detail",
      },
      { path: "catalogue/cart", file: "sections/catalogue/routes/public/cart.tsx", id: "catalogue-public-cart" },
      {
        path: "catalogue/checkout",
        file: "sections/catalogue/routes/public/checkout.tsx",
        id: "catalogue-public-checkout",
      },
    ],
    api: [
      {
        path: "plugins/catalogue/config",
        file: "sections/catalogue/routes/api/public-config.ts",
        id: "api-catalogue-config",
      },
      {
        path: "plugins/catalogue/banner",
        file: "sections/catalogue/routes/api/public-config.ts",
        id: "api-catalogue-banner",
      },
      {
        path: "plugins/catalogue/stores",
        file: "sections/catalogue/routes/api/public-config.ts",
        id: "api-catalogue-stores",
      },
      {
        path: "plugins/catalogue/product/unit_config/:slug",
        file: "sections/catalogue/routes/api/public-config.ts",
        id: "api-catalogue-unit-config",
      },
      {
        path: "plugins/catalogue/product",
        file: "sections/catalogue/routes/api/public-products.ts",
        id: "api-catalogue-products",
      },
      {
        path: "plugins/catalogue/product/:slug",
        file: "sections/catalogue/routes/api/public-products.ts",
        id: "api-catalogue-product",
      },
      {
        path: "plugins/catalogue/pay-choices",
        file: "sections/catalogue/routes/api/public-pay-choices.ts",
        id: "api-catalogue-pay-choices",
      },
      {
        path: "plugins/catalogue/invoice/checkout",
        file: "sections/catalogue/routes/api/public-checkout.ts",
        id: "api-catalogue-checkout",
      },
      {
        path: "plugins/catalogue/invoice/preqs",
        file: "sections/catalogue/routes/api/public-invoice.ts",
        id: "api-catalogue-preqs",
      },
      {
        path: "plugins/catalogue/invoice/discount",
        file: "sections/catalogue/routes/api/public-invoice.ts",
        id: "api-catalogue-discount",
      },
      // The merchant's management API and the pictures it uploads.
      {
        path: "plugins/catalogue/dashboard/products",
        file: "sections/catalogue/routes/api/dashboard-collection.ts",
        id: "api-catalogue-dashboard-products",
      },
      {
        path: "plugins/catalogue/dashboard/products/:key",
        file: "sections/catalogue/routes/api/dashboard-item.ts",
        id: "api-catalogue-dashboard-product",
      },
      {
        path: "plugins/catalogue/dashboard/stores",
        file: "sections/catalogue/routes/api/dashboard-collection.ts",
        id: "api-catalogue-dashboard-stores",
      },
      {
        path: "plugins/catalogue/dashboard/stores/:key",
        file: "sections/catalogue/routes/api/dashboard-item.ts",
        id: "api-catalogue-dashboard-store",
      },
      {
        path: "plugins/catalogue/dashboard/discounts",
        file: "sections/catalogue/routes/api/dashboard-collection.ts",
        id: "api-catalogue-dashboard-discounts",
      },
      {
        path: "plugins/catalogue/dashboard/discounts/:key",
        file: "sections/catalogue/routes/api/dashboard-item.ts",
        id: "api-catalogue-dashboard-discount",
      },
      {
        path: "plugins/catalogue/dashboard/upload/product",
        file: "sections/catalogue/routes/api/upload-products.ts",
        id: "api-catalogue-upload-product",
      },
      {
        path: "plugins/catalogue/dashboard/upload/product/example",
        file: "sections/catalogue/routes/api/upload-products-example.ts",
        id: "api-catalogue-upload-product-example",
      },
      {
        path: "plugins/catalogue/product-image/:imageId",
        file: "sections/catalogue/routes/api/product-image.ts",
        id: "api-catalogue-product-image",
      },
      {
        path: "plugins/catalogue/banner-image/:merchantId/:file",
        file: "sections/catalogue/routes/api/banner-image.ts",
        id: "api-catalogue-banner-image",
      },
    ],
  },
  demoJob: "catalogue_demo_shop",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
