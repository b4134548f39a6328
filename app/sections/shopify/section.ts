import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * The Shopify flow: the merchant's shop platform hands over a payment session, the customer
 * chooses a method and pays on the platform's pages, the shop is told by a signed callback and the
 * customer goes back to the shop (decision 0030).
 */
export const shopify = {
  key: "shopify",
  path: "shopify",
  built: true,
  features: [...TRANSACTION_FEATURES, { key: "settings", path: "settings", permission: "manage_merchant" }],
  permissions: [],
  namespaces: { page: ["shopify"], serverOnly: ["shopify_public"] },
  transactions: { payable: true },
  routes: {
    dashboardLayout: { file: "sections/shopify/routes/layout.tsx", id: "shopify-layout" },
    dashboard: [{ path: "settings", file: "sections/shopify/routes/settings.tsx", id: "shopify-settings" }],
    public: [
      {
        path: "spf/payment-options/:transactionId",
        file: "sections/shopify/routes/public/payment-options.tsx",
        id: "shopify-payment-options",
      },
      {
        path: "spf/payment-details/:attemptId",
        file: "sections/shopify/routes/public/payment-details.tsx",
        id: "shopify-payment-details",
      },
    ],
    api: [
      {
        path: "plugins/shopify/payment-session",
        file: "sections/shopify/routes/api/payment-session.ts",
        id: "api-shopify-payment-session",
      },
      { path: "shopify/transaction/pay/:id", file: "sections/shopify/routes/api/pay.ts", id: "api-shopify-pay" },
    ],
  },
  demoJob: "shopify_demo",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
