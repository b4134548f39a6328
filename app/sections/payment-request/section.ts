import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/** Payment requests: a merchant asks a customer for an amount by link, e-mail or SMS. */
export const paymentRequest = {
  key: "payment_request",
  path: "payment-request",
  built: true,
  features: [{ key: "create", path: "create", permission: "add_paymenttransaction" }, ...TRANSACTION_FEATURES],
  permissions: [],
  transactions: { editableAmount: true, payable: true },
  routes: {
    dashboard: [{ path: "create", file: "sections/payment-request/routes/create.tsx", id: "payment-request-create" }],
    api: [
      { path: "plugins/payment_request/transaction", file: "sections/payment-request/routes/api-transactions.ts", id: "api-pr-create" },
      { path: "plugins/payment_request/attachment/upload", file: "sections/payment-request/routes/api-attachment-upload.ts", id: "api-attachment" },
    ],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
