import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";
import type { SectionDeclaration, SectionRoute } from "./sections/contract";
import { SECTIONS } from "./sections/registry";
import { TRANSACTION_PAGES } from "./routes/dashboard/transactions/pages";
import { sandboxRoutes } from "./routes/sandbox/routes";

const sections = SECTIONS;
const routesOf = (kind: keyof NonNullable<SectionDeclaration["routes"]>, base?: (section: SectionDeclaration) => string) =>
  sections.flatMap((section) =>
    (section.routes?.[kind] ?? []).map((entry: SectionRoute) =>
      route([base?.(section), entry.path].filter(Boolean).join("/"), entry.file, { id: entry.id }),
    ),
  );

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
  ...routesOf("root"),

  // A route's path also matches with a trailing slash (`user/token/`, as DRF clients send it).
  ...prefix("api/v1", [
    route("user/token", "routes/api/v1/user.token.ts", { id: "api-token" }),
    route("user/verify_otp", "routes/api/v1/user.verify-otp.ts", { id: "api-verify-otp" }),
    route("user/token/refresh", "routes/api/v1/user.token-refresh.ts", { id: "api-refresh" }),
    route("user/logout", "routes/api/v1/user.logout.ts", { id: "api-logout" }),
    route("user/forgot_password", "routes/api/v1/user.forgot-password.ts", { id: "api-forgot" }),
    route("user/reset_password", "routes/api/v1/user.reset-password.ts", { id: "api-reset" }),
    route("user/details", "routes/api/v1/user.details.ts", { id: "api-details" }),
    route("user/update-user/:id", "routes/api/v1/user.update-user.ts", { id: "api-update-user" }),
    route("user/change_password", "routes/api/v1/user.change-password.ts", { id: "api-change-password" }),
    route("dashboard/help", "routes/api/v1/dashboard.help.ts", { id: "api-help" }),
    route("dashboard/statistics", "routes/api/v1/dashboard.statistics.ts", { id: "api-statistics" }),
    route("dashboard/recent_orders", "routes/api/v1/dashboard.recent-orders.ts", { id: "api-recent-orders" }),
    route("dashboard/avg_txn_size", "routes/api/v1/dashboard.avg-txn-size.ts", { id: "api-avg-txn-size" }),
    route("user/actions", "routes/api/v1/user.actions.ts", { id: "api-user-actions" }),
    route("config", "routes/api/v1/config.ts", { id: "api-config" }),
    route("unit/default", "routes/api/v1/unit.default.ts", { id: "api-unit-default" }),
    route("admin/merchant", "routes/api/v1/admin/merchant.ts", { id: "api-admin-merchant" }),
    route("admin/users", "routes/api/v1/admin/users.ts", { id: "api-admin-users" }),
    route("admin/users/:id", "routes/api/v1/admin/user.ts", { id: "api-admin-user" }),
    route("admin/api-keys", "routes/api/v1/admin/api-keys.ts", { id: "api-admin-api-keys" }),
    route("admin/api-keys/:id", "routes/api/v1/admin/api-key.ts", { id: "api-admin-api-key" }),
    route("admin/api-keys/:id/rotate", "routes/api/v1/admin/api-key-rotate.ts", { id: "api-admin-api-key-rotate" }),
    route("plugins/:plugin/transaction/details/:id", "routes/api/v1/plugins/transaction-details.ts", { id: "api-tx-details" }),
    route("plugins/:plugin/transaction/actions/bulk/:action", "routes/api/v1/plugins/transaction-bulk-action.ts", { id: "api-tx-bulk" }),
    route("plugins/:plugin/transaction/actions/:id", "routes/api/v1/plugins/transaction-actions.ts", { id: "api-actions" }),
    route("plugins/:plugin/transaction/actions/:id/:action", "routes/api/v1/plugins/transaction-actions.ts", { id: "api-action-run" }),
    route("plugins/:plugin/transaction/pay/:id", "routes/api/v1/plugins/transaction-pay.ts", { id: "api-pay" }),
    route("plugins/:plugin/transaction/pay-choices/:id", "routes/api/v1/plugins/transaction-pay-choices.ts", { id: "api-pay-choices" }),
    route("plugins/:plugin/transaction/export", "routes/api/v1/plugins/transaction-export.ts", { id: "api-export" }),
    route("plugins/transaction-fields", "routes/api/v1/plugins/transaction-fields-overview.ts", { id: "api-tx-fields-all" }),
    route("plugins/transaction-fields/check/:section", "routes/api/v1/plugins/transaction-fields-overview.ts", { id: "api-tx-fields-check" }),
    route("plugins/:plugin/transaction", "routes/api/v1/plugins/transactions.ts", { id: "api-tx-list" }),
    route("plugins/:plugin/transaction/fields", "routes/api/v1/plugins/transaction-fields.ts", { id: "api-tx-fields" }),
    route("plugins/:plugin/transaction/partial-update/:id", "routes/api/v1/plugins/transaction-partial-update.ts", { id: "api-tx-partial-update" }),
    route("plugins/:plugin/deleted_transaction", "routes/api/v1/plugins/transactions.ts", { id: "api-tx-deleted-list" }),
    route("plugins/:plugin/deleted_transaction/:id", "routes/api/v1/plugins/transaction-details.ts", { id: "api-tx-deleted-details" }),
    route("plugins/:plugin/deleted_transaction/details/:id", "routes/api/v1/plugins/transaction-details.ts", { id: "api-tx-deleted-details-long" }),
    route("plugins/:plugin/currency_statistics", "routes/api/v1/plugins/currency-statistics.ts", { id: "api-tx-statistics" }),
    route("plugins/:plugin/transaction/:id", "routes/api/v1/plugins/transaction-pay.ts", { id: "api-transaction" }),
    ...routesOf("api"),
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
    ...routesOf("public"),
    layout("routes/dashboard/layout.tsx", [
      index("routes/dashboard/general-info.tsx"),
      route("user", "routes/dashboard/user.tsx"),
      route("user/password", "routes/dashboard/user.password.tsx"),
      route("help", "routes/dashboard/help.tsx"),
      route("reconciliation", "routes/dashboard/reconciliation.tsx"),
      route("mailbox", "routes/dashboard/mailbox.tsx"),
      route("mailbox/:mailId", "routes/dashboard/mailbox.message.tsx"),
      ...TRANSACTION_PAGES.map((page) => route(page.path, page.file, { id: page.id })),
      route("transactions/export", "routes/dashboard/transactions-export.ts"),
      route("generated-reports", "routes/dashboard/generated-reports.tsx"),
      route("generated-reports/:reportId/download", "routes/dashboard/generated-reports.download.ts"),
      route("notifications", "routes/dashboard/notifications.ts"),
      route("admin", "routes/admin/index.ts"),
      route("admin/profile", "routes/admin/profile.tsx"),
      route("admin/users", "routes/admin/users.tsx"),
      route("admin/api-keys", "routes/admin/api-keys.tsx"),
      ...routesOf("dashboard", (section) => section.path),
      // A section's pages not built yet say so; its unknown pages answer 404.
      ...sections.map((section) => route(`${section.path}/*`, "routes/dashboard/not-built.tsx", { id: `section-${section.key}` })),
    ]),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
