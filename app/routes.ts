import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";
import { SECTIONS, TRANSACTION_SECTIONS } from "./domain/merchant/sections";
import { sandboxRoutes } from "./routes/sandbox/routes";

export default [
  index("routes/root-index.ts"),
  route("healthz", "routes/healthz.ts"),
  route("__test/clock", "routes/test-clock.ts"),
  route("__test/map-style.json", "routes/test-map-style.ts"),
  route("vendor/:file", "routes/vendor.ts"),
  ...sandboxRoutes,
  route("gateway/knet/response/:attemptId", "routes/gateway/knet-return.ts", { id: "knet-response" }),
  route("gateway/knet/error/:attemptId", "routes/gateway/knet-return.ts", { id: "knet-error" }),
  route("gateway/card/response/:attemptId", "routes/gateway/card-return.ts"),
  route("gateway/card/notify/:attemptId", "routes/gateway/card-notify.ts"),

  ...prefix("api/v1", [
    route("user/token", "routes/api/v1/user.token.ts", { id: "api-token" }),
    route("user/token/", "routes/api/v1/user.token.ts", { id: "api-token-slash" }),
    route("user/verify_otp", "routes/api/v1/user.verify-otp.ts", { id: "api-verify-otp" }),
    route("user/verify_otp/", "routes/api/v1/user.verify-otp.ts", { id: "api-verify-otp-slash" }),
    route("user/token/refresh", "routes/api/v1/user.token-refresh.ts", { id: "api-refresh" }),
    route("user/token/refresh/", "routes/api/v1/user.token-refresh.ts", { id: "api-refresh-slash" }),
    route("user/logout", "routes/api/v1/user.logout.ts", { id: "api-logout" }),
    route("user/logout/", "routes/api/v1/user.logout.ts", { id: "api-logout-slash" }),
    route("user/forgot_password", "routes/api/v1/user.forgot-password.ts", { id: "api-forgot" }),
    route("user/forgot_password/", "routes/api/v1/user.forgot-password.ts", { id: "api-forgot-slash" }),
    route("user/reset_password", "routes/api/v1/user.reset-password.ts", { id: "api-reset" }),
    route("user/reset_password/", "routes/api/v1/user.reset-password.ts", { id: "api-reset-slash" }),
    route("user/details", "routes/api/v1/user.details.ts", { id: "api-details" }),
    route("user/details/", "routes/api/v1/user.details.ts", { id: "api-details-slash" }),
    route("user/update-user/:id", "routes/api/v1/user.update-user.ts", { id: "api-update-user" }),
    route("user/update-user/:id/", "routes/api/v1/user.update-user.ts", { id: "api-update-user-slash" }),
    route("user/change_password", "routes/api/v1/user.change-password.ts", { id: "api-change-password" }),
    route("user/change_password/", "routes/api/v1/user.change-password.ts", { id: "api-change-password-slash" }),
    route("dashboard/help", "routes/api/v1/dashboard.help.ts", { id: "api-help" }),
    route("dashboard/help/", "routes/api/v1/dashboard.help.ts", { id: "api-help-slash" }),
    route("plugins/payment_request/transaction", "routes/api/v1/plugins/payment-request-transaction.ts", { id: "api-pr-create" }),
    route("plugins/payment_request/transaction/", "routes/api/v1/plugins/payment-request-transaction.ts", { id: "api-pr-create-slash" }),
    route("plugins/payment_request/transaction/details/:id", "routes/api/v1/plugins/payment-request-details.ts", { id: "api-pr-details" }),
    route("plugins/payment_request/transaction/details/:id/", "routes/api/v1/plugins/payment-request-details.ts", { id: "api-pr-details-slash" }),
    route("plugins/payment_request/attachment/upload", "routes/api/v1/plugins/attachment-upload.ts", { id: "api-attachment" }),
    route("plugins/payment_request/attachment/upload/", "routes/api/v1/plugins/attachment-upload.ts", { id: "api-attachment-slash" }),
    route("plugins/:plugin/transaction/actions/:id", "routes/api/v1/plugins/transaction-actions.ts", { id: "api-actions" }),
    route("plugins/:plugin/transaction/actions/:id/", "routes/api/v1/plugins/transaction-actions.ts", { id: "api-actions-slash" }),
    route("plugins/:plugin/transaction/actions/:id/:action", "routes/api/v1/plugins/transaction-actions.ts", { id: "api-action-run" }),
    route("plugins/:plugin/transaction/actions/:id/:action/", "routes/api/v1/plugins/transaction-actions.ts", { id: "api-action-run-slash" }),
    route("plugins/:plugin/transaction/pay/:id", "routes/api/v1/plugins/transaction-pay.ts", { id: "api-pay" }),
    route("plugins/:plugin/transaction/pay/:id/", "routes/api/v1/plugins/transaction-pay.ts", { id: "api-pay-slash" }),
    route("plugins/:plugin/transaction/pay-choices/:id", "routes/api/v1/plugins/transaction-pay-choices.ts", { id: "api-pay-choices" }),
    route("plugins/:plugin/transaction/pay-choices/:id/", "routes/api/v1/plugins/transaction-pay-choices.ts", { id: "api-pay-choices-slash" }),
    route("plugins/:plugin/transaction/:id", "routes/api/v1/plugins/transaction-pay.ts", { id: "api-transaction" }),
    route("plugins/:plugin/transaction/:id/", "routes/api/v1/plugins/transaction-pay.ts", { id: "api-transaction-slash" }),
    route("*", "routes/api/v1/not-found.ts"),
  ]),

  route(":lang", "routes/lang.tsx", [
    route("login", "routes/auth/login.tsx"),
    route("forget-password", "routes/auth/forget-password.tsx"),
    route("reset-password", "routes/auth/reset-password.tsx"),
    route("logout", "routes/auth/logout.ts"),
    route("pay/attempt-detail/:attemptId", "routes/pay/attempt-detail.tsx"),
    route("pay/attempt-detail/:attemptId/receipt.pdf", "routes/pay/receipt.ts"),
    route("pay/:transactionId", "routes/pay/pay.tsx"),
    route("pay/:transactionId/attachment", "routes/pay/attachment.ts"),
    layout("routes/dashboard/layout.tsx", [
      index("routes/dashboard/general-info.tsx"),
      route("user", "routes/dashboard/user.tsx"),
      route("user/password", "routes/dashboard/user.password.tsx"),
      route("help", "routes/dashboard/help.tsx"),
      route("mailbox", "routes/dashboard/mailbox.tsx"),
      route("mailbox/:mailId", "routes/dashboard/mailbox.message.tsx"),
      route("payment-request/create", "routes/dashboard/payment-request.create.tsx"),
      route("payment-request/transactions/:transactionId", "routes/dashboard/payment-request.details.tsx"),
      route("transactions", "routes/dashboard/transactions/list.tsx", { id: "list-all" }),
      ...TRANSACTION_SECTIONS.map((key) => {
        const path = SECTIONS.find((section) => section.key === key)!.path;
        return route(`${path}/transactions`, "routes/dashboard/transactions/list.tsx", { id: `list-${key}` });
      }),
      ...TRANSACTION_SECTIONS.map((key) => {
        const path = SECTIONS.find((section) => section.key === key)!.path;
        return route(`${path}/deleted-transactions`, "routes/dashboard/transactions/list.tsx", { id: `deleted-${key}` });
      }),
      route("transactions/*", "routes/dashboard/not-built.tsx", { id: "all-transactions" }),
      route("generated-reports", "routes/dashboard/not-built.tsx", { id: "generated-reports" }),
      // Sections whose pages are not built yet say so; each real page, once built, is listed above.
      ...SECTIONS.map((section) =>
        route(`${section.path}/*`, "routes/dashboard/not-built.tsx", { id: `section-${section.key}` }),
      ),
    ]),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
