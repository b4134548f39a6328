import { prefix, route, type RouteConfigEntry } from "@react-router/dev/routes";

/** The sandbox gateways' own pages and endpoints: stand-ins for external services. */
export const sandboxRoutes: RouteConfigEntry[] = [
  ...prefix("sandbox/knet", [
    route("kpg/PaymentHTTP.htm", "routes/sandbox/knet-payment-init.tsx", { id: "sandbox-knet-payment-init" }),
    route("paymentpage.htm", "routes/sandbox/knet-payment-page.tsx", { id: "sandbox-knet-payment-page" }),
    route("kpg/tranPipe.htm", "routes/sandbox/knet-tran-pipe.ts", { id: "sandbox-knet-tran-pipe" }),
  ]),
  ...prefix("sandbox/mpgs", [
    route("checkout/pay/:sessionId", "routes/sandbox/mpgs-checkout-pay.tsx", { id: "sandbox-mpgs-checkout-pay" }),
    route("checkout/pay/:sessionId/authenticate", "routes/sandbox/mpgs-checkout-authenticate.tsx", {
      id: "sandbox-mpgs-checkout-authenticate",
    }),
    ...prefix("api/rest/version/100/merchant/:merchantId", [
      route("session", "routes/sandbox/mpgs-api-session.ts", { id: "sandbox-mpgs-api-session" }),
      route("order/:orderId", "routes/sandbox/mpgs-api-order.ts", { id: "sandbox-mpgs-api-order" }),
      route("order/:orderId/transaction/:transactionId", "routes/sandbox/mpgs-api-transaction.ts", {
        id: "sandbox-mpgs-api-transaction",
      }),
    ]),
  ]),
  route("sandbox/apple-pay/paymentservices/paymentSession", "routes/sandbox/apple-pay-session.ts", {
    id: "sandbox-apple-pay-session",
  }),
];
