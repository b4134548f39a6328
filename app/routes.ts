import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";
import { SECTIONS } from "./domain/merchant/sections";
import { sandboxRoutes } from "./routes/sandbox/routes";

export default [
  index("routes/root-index.ts"),
  route("healthz", "routes/healthz.ts"),
  route("__test/clock", "routes/test-clock.ts"),
  ...sandboxRoutes,

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
    route("*", "routes/api/v1/not-found.ts"),
  ]),

  route(":lang", "routes/lang.tsx", [
    route("login", "routes/auth/login.tsx"),
    route("forget-password", "routes/auth/forget-password.tsx"),
    route("reset-password", "routes/auth/reset-password.tsx"),
    route("logout", "routes/auth/logout.ts"),
    layout("routes/dashboard/layout.tsx", [
      index("routes/dashboard/general-info.tsx"),
      route("user", "routes/dashboard/user.tsx"),
      route("user/password", "routes/dashboard/user.password.tsx"),
      route("help", "routes/dashboard/help.tsx"),
      route("mailbox", "routes/dashboard/mailbox.tsx"),
      route("mailbox/:mailId", "routes/dashboard/mailbox.message.tsx"),
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
