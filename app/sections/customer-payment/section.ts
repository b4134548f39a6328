import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * Customer payments: the merchant publishes collector pages where customers type the amount and the
 * details asked for, within the merchant's payment restrictions, and pay (decision 0026).
 */
export const customerPayment = {
  key: "customer_payment",
  path: "customer-payment",
  built: true,
  features: [
    ...TRANSACTION_FEATURES,
    { key: "payment_restriction", path: "payment-restriction", permission: "view_collector" },
    { key: "collectors", path: "collectors", permission: "view_collector" },
  ],
  permissions: ["view_collector", "change_collector"],
  namespaces: { page: ["collectors"], serverOnly: ["collect_public"] },
  transactions: { payable: true },
  routes: {
    dashboardLayout: { file: "sections/customer-payment/routes/layout.tsx", id: "collect-layout" },
    dashboard: [
      { path: "collectors", file: "sections/customer-payment/routes/collectors.tsx", id: "collect-collectors" },
      { path: "collectors/new", file: "sections/customer-payment/routes/collector.tsx", id: "collect-collector-new" },
      { path: "collectors/:id", file: "sections/customer-payment/routes/collector.tsx", id: "collect-collector" },
      { path: "collectors/:id/poster.pdf", file: "sections/customer-payment/routes/poster.ts", id: "collect-poster" },
      {
        path: "payment-restriction",
        file: "sections/customer-payment/routes/payment-restriction.tsx",
        id: "collect-payment-restriction",
      },
    ],
    public: [
      {
        path: "pay/collect/:collectorId",
        file: "sections/customer-payment/routes/public/collect.tsx",
        id: "collect-public",
      },
    ],
    api: [
      {
        path: "plugins/customer_payment/create/:collectorId",
        file: "sections/customer-payment/routes/api/create.ts",
        id: "api-collect-create",
      },
      {
        path: "plugins/customer_payment/pay-choices",
        file: "sections/customer-payment/routes/api/pay-choices.ts",
        id: "api-collect-pay-choices",
      },
    ],
  },
  demoJob: "collect_demo",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
