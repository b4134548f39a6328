import type { SectionDeclaration } from "../contract";

/**
 * Checkout sessions: a merchant's server asks for a payment of one of its orders through the API,
 * the customer pays on the hosted checkout page and goes back to the merchant's site, and the
 * merchant's server is told the result, signed (decision 0028).
 */
export const session = {
  key: "session",
  path: "session",
  built: true,
  features: [{ key: "sessions", path: "sessions", permission: "view_paymenttransaction" }],
  permissions: [],
  namespaces: { page: ["sessions"], serverOnly: ["checkout_public", "checkout_operations"] },
  routes: {
    dashboardLayout: { file: "sections/session/routes/layout.tsx", id: "session-layout" },
    dashboard: [{ path: "sessions", file: "sections/session/routes/sessions.tsx", id: "session-sessions" }],
    public: [{ path: "checkout/:sessionId", file: "sections/session/routes/checkout.tsx", id: "checkout-page" }],
    api: [
      { path: "checkout/v1/pymt-txn", file: "sections/session/routes/api-sessions.ts", id: "api-checkout-sessions" },
      {
        path: "checkout/v1/pymt-txn/:sessionId",
        file: "sections/session/routes/api-session.ts",
        id: "api-checkout-session",
      },
      {
        path: "checkout/v1/signing-secret",
        file: "sections/session/routes/api-signing-secret.ts",
        id: "api-checkout-signing-secret",
      },
      {
        path: "checkout/api/intl/v1/checkout-page/:sessionId",
        file: "sections/session/routes/api-checkout-page.ts",
        id: "api-checkout-page",
      },
      { path: "checkout/v1/operation", file: "sections/session/routes/api-operation.ts", id: "api-checkout-operation" },
    ],
  },
  demoJob: "checkout_session_demo",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
