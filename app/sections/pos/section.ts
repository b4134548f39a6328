import type { SectionDeclaration } from "../contract";

/**
 * Point of sale: staff at a counter make a payment for the customer in front of them — an amount,
 * or through one of the merchant's collector pages — and the customer pays it on their own phone
 * from a QR code; the counter sees it paid and prints the receipt (decision 0032). It has no
 * transactions of its own: the payments are payment requests and collector payments.
 */
export const pos = {
  key: "pos",
  path: "pos",
  built: true,
  features: [{ key: "pay", path: "pay", permission: "add_paymenttransaction" }],
  permissions: [],
  namespaces: { page: ["pos"] },
  routes: {
    dashboardLayout: { file: "sections/pos/routes/layout.tsx", id: "pos-layout" },
    dashboard: [
      { path: "pay", file: "sections/pos/routes/pay.tsx", id: "pos-pay" },
      { path: "pay/collect/:collectorId", file: "sections/pos/routes/collect.tsx", id: "pos-collect" },
      { path: "pay/:transactionId", file: "sections/pos/routes/payment.tsx", id: "pos-payment" },
      { path: "pay/:transactionId/state", file: "sections/pos/routes/api-state.ts", id: "pos-payment-state" },
      { path: "attempt-detail/:attemptId", file: "sections/pos/routes/attempt-detail.tsx", id: "pos-attempt-detail" },
    ],
  },
} as const satisfies SectionDeclaration;
