import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";
import type { SectionDeclaration, SectionRoute } from "./sections/contract";
import { SECTIONS } from "./sections/registry";
import { TRANSACTION_PAGES } from "./routes/dashboard/transactions/pages";
import { sandboxRoutes } from "./routes/sandbox/routes";

const sections = SECTIONS;
const routesOf = (kind: "public" | "api" | "root") =>
  sections.flatMap((section) =>
    (section.routes?.[kind] ?? []).map((entry: SectionRoute) => route(entry.path, entry.file, { id: entry.id })),
  );

/** A section's dashboard pages under its path, inside its own layout when it declares one. */
const dashboardRoutesOf = (section: SectionDeclaration) => {
  const pages = (section.routes?.dashboard ?? []).map((entry: SectionRoute) =>
    route([section.path, entry.path].filter(Boolean).join("/"), entry.file, { id: entry.id }),
  );
  const wrapper = section.routes?.dashboardLayout;
  return wrapper && pages.length ? [layout(wrapper.file, { id: wrapper.id }, pages)] : pages;
};

export default [
  index("routes/root-index.ts"),
  route("healthz", "routes/healthz.ts"),
  route("readyz", "routes/readyz.ts"),
  route("__test/clock", "routes/test-clock.ts"),
  route("__test/map-style.json", "routes/test-map-style.ts"),
  route("vendor/:file", "routes/vendor.ts"),
  route("media/brand/:merchantId/:file", "routes/media/brand-image.ts"),
  route(".well-known/apple-developer-merchantid-domain-association", "routes/well-known/apple-pay-domain.ts"),
  ...sandboxRoutes,
  route("gateway/:kind/:leg/:attemptId", "routes/gateway/message.ts"),
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
    route("notifications/live", "routes/api/v1/notifications.live.ts", { id: "api-notifications-live" }),
    route("register-notif-token", "routes/api/v1/register-notif-token.ts", { id: "api-register-notif-token" }),
    route("unit/default", "routes/api/v1/unit.default.ts", { id: "api-unit-default" }),
    route("admin/merchant", "routes/api/v1/admin/merchant.ts", { id: "api-admin-merchant" }),
    route("admin/merchant/logo", "routes/api/v1/admin/merchant-image.ts", { id: "api-admin-merchant-logo" }),
    route("admin/merchant/favicon", "routes/api/v1/admin/merchant-image.ts", { id: "api-admin-merchant-favicon" }),
    route("admin/units", "routes/api/v1/admin/units.ts", { id: "api-admin-units" }),
    route("admin/units/:id", "routes/api/v1/admin/unit.ts", { id: "api-admin-unit" }),
    route("admin/units/:id/default", "routes/api/v1/admin/unit.ts", { id: "api-admin-unit-default" }),
    route("admin/units/:id/logo", "routes/api/v1/admin/unit-logo.ts", { id: "api-admin-unit-logo" }),
    route("admin/users", "routes/api/v1/admin/users.ts", { id: "api-admin-users" }),
    route("admin/users/:id", "routes/api/v1/admin/user.ts", { id: "api-admin-user" }),
    route("admin/audit-log", "routes/api/v1/admin/audit-log.ts", { id: "api-admin-audit-log" }),
    route("admin/roles", "routes/api/v1/admin/roles.ts", { id: "api-admin-roles" }),
    route("admin/roles/:id", "routes/api/v1/admin/roles.ts", { id: "api-admin-role" }),
    route("admin/api-keys", "routes/api/v1/admin/api-keys.ts", { id: "api-admin-api-keys" }),
    route("admin/api-keys/:id", "routes/api/v1/admin/api-key.ts", { id: "api-admin-api-key" }),
    route("admin/api-keys/:id/rotate", "routes/api/v1/admin/api-key-rotate.ts", { id: "api-admin-api-key-rotate" }),
    route("admin/gateways", "routes/api/v1/admin/gateways.ts", { id: "api-admin-gateways" }),
    route("admin/gateways/:id", "routes/api/v1/admin/gateway.ts", { id: "api-admin-gateway" }),
    route("admin/gateways/:id/test", "routes/api/v1/admin/gateway.ts", { id: "api-admin-gateway-test" }),
    route("admin/webhooks", "routes/api/v1/admin/webhooks.ts", { id: "api-admin-webhooks" }),
    route("admin/webhooks/:id", "routes/api/v1/admin/webhook.ts", { id: "api-admin-webhook" }),
    route("admin/webhooks/:id/test", "routes/api/v1/admin/webhook.ts", { id: "api-admin-webhook-test" }),
    route("admin/webhooks/:id/deliveries", "routes/api/v1/admin/webhook-deliveries.ts", {
      id: "api-admin-webhook-deliveries",
    }),
    route("admin/webhooks/:id/deliveries/:deliveryId/redeliver", "routes/api/v1/admin/webhook-deliveries.ts", {
      id: "api-admin-webhook-redeliver",
    }),
    route("admin/sections", "routes/api/v1/admin/sections.ts", { id: "api-admin-sections" }),
    route("admin/sections/:key/install", "routes/api/v1/admin/section-change.ts", { id: "api-admin-section-install" }),
    route("admin/sections/:key/uninstall", "routes/api/v1/admin/section-change.ts", {
      id: "api-admin-section-uninstall",
    }),
    route("admin/sections/:key/settings", "routes/api/v1/admin/section-settings.ts", {
      id: "api-admin-section-settings",
    }),
    route("admin/sections/:key/checkout-fields", "routes/api/v1/admin/checkout-fields.ts", {
      id: "api-admin-checkout-fields",
    }),
    route("admin/sections/:key/checkout-fields/:id", "routes/api/v1/admin/checkout-field.ts", {
      id: "api-admin-checkout-field",
    }),
    route("plugins/installed", "routes/api/v1/plugins/installed.ts", { id: "api-plugins-installed" }),
    route("admin/notification-templates", "routes/api/v1/admin/notification-templates.ts", {
      id: "api-admin-notification-templates",
    }),
    route("admin/notification-templates/:template/:channel/:lang", "routes/api/v1/admin/notification-template.ts", {
      id: "api-admin-notification-template",
    }),
    route(
      "admin/notification-templates/:template/:channel/:lang/preview",
      "routes/api/v1/admin/notification-template.ts",
      { id: "api-admin-notification-template-preview" },
    ),
    route("plugins/:plugin/transaction/details/:id", "routes/api/v1/plugins/transaction-details.ts", {
      id: "api-tx-details",
    }),
    route("plugins/:plugin/transaction/actions/bulk/:action", "routes/api/v1/plugins/transaction-bulk-action.ts", {
      id: "api-tx-bulk",
    }),
    route("plugins/:plugin/transaction/actions/:id", "routes/api/v1/plugins/transaction-actions.ts", {
      id: "api-actions",
    }),
    route("plugins/:plugin/transaction/actions/:id/:action", "routes/api/v1/plugins/transaction-actions.ts", {
      id: "api-action-run",
    }),
    route("plugins/:plugin/transaction/pay/:id", "routes/api/v1/plugins/transaction-pay.ts", { id: "api-pay" }),
    route("plugins/:plugin/transaction/pay-choices/:id", "routes/api/v1/plugins/transaction-pay-choices.ts", {
      id: "api-pay-choices",
    }),
    route("plugins/:plugin/transaction/export", "routes/api/v1/plugins/transaction-export.ts", { id: "api-export" }),
    route("plugins/transaction-fields", "routes/api/v1/plugins/transaction-fields-overview.ts", {
      id: "api-tx-fields-all",
    }),
    route("plugins/transaction-fields/check/:section", "routes/api/v1/plugins/transaction-fields-overview.ts", {
      id: "api-tx-fields-check",
    }),
    route("plugins/:plugin/transaction", "routes/api/v1/plugins/transactions.ts", { id: "api-tx-list" }),
    route("plugins/:plugin/transaction/fields", "routes/api/v1/plugins/transaction-fields.ts", { id: "api-tx-fields" }),
    route("plugins/:plugin/transaction/partial-update/:id", "routes/api/v1/plugins/transaction-partial-update.ts", {
      id: "api-tx-partial-update",
    }),
    route("plugins/:plugin/deleted_transaction", "routes/api/v1/plugins/transactions.ts", {
      id: "api-tx-deleted-list",
    }),
    route("plugins/:plugin/deleted_transaction/:id", "routes/api/v1/plugins/transaction-details.ts", {
      id: "api-tx-deleted-details",
    }),
    route("plugins/:plugin/deleted_transaction/details/:id", "routes/api/v1/plugins/transaction-details.ts", {
      id: "api-tx-deleted-details-long",
    }),
    route("plugins/:plugin/currency_statistics", "routes/api/v1/plugins/currency-statistics.ts", {
      id: "api-tx-statistics",
    }),
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
    route("pay/:transactionId/wallet/session", "routes/pay/api-wallet-session.ts"),
    route("pay/:transactionId/wallet/pay", "routes/pay/api-wallet-pay.ts"),
    route("pay/:transactionId/wallet/log", "routes/pay/api-wallet-log.ts"),
    ...routesOf("public"),
    layout("routes/dashboard/layout.tsx", [
      index("routes/dashboard/general-info.tsx"),
      route("user", "routes/dashboard/user.tsx"),
      route("user/password", "routes/dashboard/user.password.tsx"),
      route("help", "routes/dashboard/help.tsx"),
      route("reconciliation", "routes/dashboard/reconciliation.tsx"),
      route("mailbox", "routes/dashboard/mailbox.tsx"),
      route("mailbox/:mailId", "routes/dashboard/mailbox.message.tsx"),
      route("mailbox/:mailId/attachments/:index", "routes/dashboard/mailbox.attachment.ts"),
      ...TRANSACTION_PAGES.map((page) => route(page.path, page.file, { id: page.id })),
      route("transactions/export", "routes/dashboard/transactions-export.ts"),
      route("generated-reports", "routes/dashboard/generated-reports.tsx"),
      route("generated-reports/:reportId/download", "routes/dashboard/generated-reports.download.ts"),
      route("notifications", "routes/dashboard/notifications.ts"),
      layout("routes/admin/layout.tsx", [
        route("operator", "routes/operator/merchants.tsx"),
        route("operator/wallets", "routes/operator/wallets.tsx"),
        route("admin", "routes/admin/index.ts"),
        route("admin/profile", "routes/admin/profile.tsx"),
        route("admin/profile/images", "routes/admin/profile.images.ts"),
        route("admin/units", "routes/admin/units.tsx"),
        route("admin/units/:id", "routes/admin/unit.tsx"),
        route("admin/units/:id/logo", "routes/admin/unit.logo.ts"),
        route("admin/users", "routes/admin/users.tsx"),
        route("admin/audit", "routes/admin/audit.tsx"),
        route("admin/audit/export.csv", "routes/admin/audit.export.ts"),
        route("admin/roles", "routes/admin/roles.tsx"),
        route("admin/api-keys", "routes/admin/api-keys.tsx"),
        route("admin/gateways", "routes/admin/gateways.tsx"),
        route("admin/gateways/:id", "routes/admin/gateway.tsx"),
        route("admin/webhooks", "routes/admin/webhooks.tsx"),
        route("admin/webhooks/:id", "routes/admin/webhook.tsx"),
        route("admin/sections", "routes/admin/sections.tsx"),
        route("admin/sections/:key", "routes/admin/section.tsx"),
        route("admin/sections/:key/checkout-fields", "routes/admin/section-checkout-fields.tsx"),
        route("admin/notifications", "routes/admin/notifications.tsx"),
        route("admin/notifications/:template/:channel/:templateLang", "routes/admin/notification.tsx"),
      ]),
      ...sections.flatMap(dashboardRoutesOf),
      // A section's pages not built yet say so; its unknown pages answer 404.
      ...sections.map((section) =>
        route(`${section.path}/*`, "routes/dashboard/not-built.tsx", { id: `section-${section.key}` }),
      ),
    ]),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
