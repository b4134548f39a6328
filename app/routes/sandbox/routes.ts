import { prefix, route, type RouteConfigEntry } from "@react-router/dev/routes";

/** The sandbox gateways' own pages and endpoints: stand-ins for external services. */
export const sandboxRoutes: RouteConfigEntry[] = [
  ...prefix("sandbox/knet", [
    route("kpg/PaymentHTTP.htm", "routes/sandbox/knet-payment-init.tsx", { id: "sandbox-knet-payment-init" }),
    route("paymentpage.htm", "routes/sandbox/knet-payment-page.tsx", { id: "sandbox-knet-payment-page" }),
    route("kpg/tranPipe.htm", "routes/sandbox/knet-tran-pipe.ts", { id: "sandbox-knet-tran-pipe" }),
  ]),
  ...prefix("sandbox/card", [
    route("pay/:id", "routes/sandbox/card-pay.tsx", { id: "sandbox-card-pay" }),
    route("api/payments", "routes/sandbox/card-api-payments.ts", { id: "sandbox-card-api-payments" }),
    route("api/payments/:id", "routes/sandbox/card-api-payment.ts", { id: "sandbox-card-api-payment" }),
    route("api/payments/:id/:operation", "routes/sandbox/card-api-operation.ts", { id: "sandbox-card-api-operation" }),
    route("api/payments/:id/operations/:reference", "routes/sandbox/card-api-operation-inquiry.ts", { id: "sandbox-card-api-operation-inquiry" }),
  ]),
  route("sandbox/apple-pay/paymentservices/paymentSession", "routes/sandbox/apple-pay-session.ts", { id: "sandbox-apple-pay-session" }),
];
