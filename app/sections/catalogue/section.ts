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
  features: [...TRANSACTION_FEATURES],
  permissions: [],
  transactions: { payable: true },
  routes: {
    public: [
      { path: "catalogue/product-list", file: "sections/catalogue/routes/public/product-list.tsx", id: "catalogue-public-list" },
      { path: "catalogue/product-detail/:slug", file: "sections/catalogue/routes/public/product-detail.tsx", id: "catalogue-public-detail" },
      { path: "catalogue/cart", file: "sections/catalogue/routes/public/cart.tsx", id: "catalogue-public-cart" },
      { path: "catalogue/checkout", file: "sections/catalogue/routes/public/checkout.tsx", id: "catalogue-public-checkout" },
    ],
    api: [
      { path: "plugins/catalogue/config", file: "sections/catalogue/routes/api/public-config.ts", id: "api-catalogue-config" },
      { path: "plugins/catalogue/banner", file: "sections/catalogue/routes/api/public-config.ts", id: "api-catalogue-banner" },
      { path: "plugins/catalogue/stores", file: "sections/catalogue/routes/api/public-config.ts", id: "api-catalogue-stores" },
      { path: "plugins/catalogue/product/unit_config/:slug", file: "sections/catalogue/routes/api/public-config.ts", id: "api-catalogue-unit-config" },
      { path: "plugins/catalogue/product", file: "sections/catalogue/routes/api/public-products.ts", id: "api-catalogue-products" },
      { path: "plugins/catalogue/product/:slug", file: "sections/catalogue/routes/api/public-products.ts", id: "api-catalogue-product" },
      { path: "plugins/catalogue/pay-choices", file: "sections/catalogue/routes/api/public-pay-choices.ts", id: "api-catalogue-pay-choices" },
      { path: "plugins/catalogue/invoice/checkout", file: "sections/catalogue/routes/api/public-checkout.ts", id: "api-catalogue-checkout" },
      { path: "plugins/catalogue/invoice/preqs", file: "sections/catalogue/routes/api/public-invoice.ts", id: "api-catalogue-preqs" },
      { path: "plugins/catalogue/invoice/discount", file: "sections/catalogue/routes/api/public-invoice.ts", id: "api-catalogue-discount" },
    ],
  },
  demoJob: "catalogue_demo_shop",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
