import path from "node:path";
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

// The route table, generated from the built app: every route that changes something refuses a
// stranger, and every guarded route of the administration, the set-up pages and APIs (food,
// events, the catalogue) and code pairing refuses a signed-in user without its permission, with
// nothing changed in the database. Each declaration below is proved twice: the demo `staff` user
// (who may only view and search transactions) is refused, and a user holding exactly the declared
// permissions gets past the guard.

/** What a guarded route's action (and, for an API, each of its methods) needs, by route id. */
const DECLARED: Record<string, string[]> = {
  // The administration panel: pages and API.
  ...Object.fromEntries(
    [
      "profile",
      "profile.images",
      "units",
      "unit",
      "unit.logo",
      "users",
      "roles",
      "api-keys",
      "gateways",
      "gateway",
      "webhooks",
      "webhook",
      "sections",
      "section",
      "section-checkout-fields",
      "notification",
    ].map((page) => [`routes/admin/${page}`, ["manage_merchant"]]),
  ),
  ...Object.fromEntries(
    [
      "merchant",
      "merchant-logo",
      "merchant-favicon",
      "units",
      "unit",
      "unit-default",
      "unit-logo",
      "users",
      "user",
      "audit-log",
      "roles",
      "role",
      "api-keys",
      "api-key",
      "api-key-rotate",
      "gateways",
      "gateway",
      "gateway-test",
      "webhooks",
      "webhook",
      "webhook-test",
      "webhook-deliveries",
      "webhook-redeliver",
      "sections",
      "section-install",
      "section-uninstall",
      "section-settings",
      "checkout-fields",
      "checkout-field",
      "notification-templates",
      "notification-template",
      "notification-template-preview",
    ].map((name) => [`api-admin-${name}`, ["manage_merchant"]]),
  ),
  // Food ordering's set-up pages and API, its orders and door.
  ...Object.fromEntries(
    [
      "food-bulk-create",
      "food-branch-new",
      "food-branch",
      "food-category-new",
      "food-category",
      "food-item-new",
      "food-item",
      "food-voucher-new",
      "food-voucher",
      "food-settings",
    ].map((id) => [id, ["change_order"]]),
  ),
  "food-order": ["view_order", "change_order"],
  "food-fulfillment": ["scan_order"],
  ...Object.fromEntries(
    [
      "categories",
      "category",
      "menu-items",
      "menu-item",
      "branches",
      "branch",
      "delivery-areas",
      "delivery-area",
      "vouchers",
      "voucher",
    ].map((name) => [`api-food-dashboard-${name}`, ["change_order"]]),
  ),
  // Events: the events on sale, bookings and the door.
  "event-event-new": ["change_booking"],
  "event-event-edit": ["change_booking"],
  "event-bookings": ["view_booking", "change_booking"],
  "event-booking": ["view_booking", "change_booking"],
  "event-booking-create": ["add_booking"],
  "event-fulfillment": ["scan_booking"],
  "api-event-dashboard-events": ["change_booking"],
  "api-event-dashboard-event": ["change_booking"],
  "api-event-dashboard-event-image": ["change_booking"],
  "api-event-dashboard-booking": ["add_booking"],
  // The catalogue's products, stores, discounts and settings.
  ...Object.fromEntries(
    [
      "catalogue-product-new",
      "catalogue-products-upload",
      "catalogue-product",
      "catalogue-store-new",
      "catalogue-store",
      "catalogue-discount-new",
      "catalogue-discount",
      "catalogue-settings",
    ].map((id) => [id, ["change_product"]]),
  ),
  ...Object.fromEntries(
    ["products", "product", "stores", "store", "discounts", "discount"].map((name) => [
      `api-catalogue-dashboard-${name}`,
      ["change_product"],
    ]),
  ),
  "api-catalogue-upload-product": ["change_product"],
  // Code pairing: issuing and deactivating codes, its sites, the paired values read by API (decision 0031).
  "cpr-codes": ["view_pairingcode", "add_paymenttransaction"],
  "cpr-code-new": ["view_pairingcode", "add_paymenttransaction"],
  "cpr-sites": ["view_pairingcode", "add_paymenttransaction"],
  "api-cpr-codes": ["view_pairingcode"],
};

/** Route families whose every changing route must be declared above: a new one without a declaration fails. */
const MUST_DECLARE = [
  /^routes\/admin\//,
  /^api-admin-/,
  /^food-(?!public-)/,
  /^api-food-dashboard-/,
  /^event-(?!public-|image$)/,
  /^api-event-dashboard-/,
  /^catalogue-(?!public-)/,
  /^api-catalogue-(dashboard-|upload-product$)/,
  /^cpr-(?!public$)/,
  /^api-cpr-codes$/,
];

/**
 * Public by design: routes a stranger may call (customer pages and their APIs, gateways'
 * callbacks, signing in, the sandboxes, the test clock). Anything else that changes something must
 * refuse a stranger; a new route answering strangers fails until it is listed here.
 */
const PUBLIC: RegExp[] = [
  /^routes\/test-clock$/,
  /^sandbox-/,
  /^knet-(response|error)$/,
  /^routes\/gateway\//,
  /^api-(token|verify-otp|refresh|logout|forgot|reset)$/,
  /^routes\/auth\/(login|forget-password|reset-password|logout)$/,
  /^routes\/pay\/pay$/,
  /^routes\/pay\/api-wallet-(session|pay|log)$/,
  /^collect-public$/,
  /^checkout-page$/,
  /^shopify-payment-options$/,
  /^cpr-public$/,
  /^catalogue-public-/,
  /^event-public-/,
  /^food-public-/,
  /^api-food-public-/,
  /^api-event-public-/,
  /^api-catalogue-(?!dashboard-|upload-product$)/,
  // A customer pays a transaction by its id (POST); reading it (GET) is the merchant's.
  /^api-pay$/,
  /^api-transaction$/,
  /^api-pay-choices$/,
  /^api-collect-(create|pay-choices)$/,
  /^api-checkout-page$/,
  /^api-shopify-pay$/,
  /^api-cpr-(verify-referer|validate)$/,
  /^api-food-upload-product-example$/,
  /^api-bulk-upload-example$/,
  /^api-catalogue-upload-product-example$/,
  /^routes\/api\/v1\/not-found$/,
];

type Route = { id: string; path: string; api: boolean; action: boolean; loader: boolean };

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let routes: Route[];
let staffCookie: string;
let staffToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  const build = (await import(
    /* @vite-ignore */ pathToFileURL(path.resolve("build/server/index.js")).href
  )) as ServerBuild;
  const fullPath = (id: string): string => {
    const route = build.routes[id]!;
    return [route.parentId ? fullPath(route.parentId) : "", route.path ?? ""].filter(Boolean).join("/");
  };
  routes = Object.keys(build.routes)
    .map((id) => ({
      id,
      path: `/${fullPath(id)}`,
      api: fullPath(id).startsWith("api/"),
      action: Boolean(build.routes[id]!.module.action),
      loader: Boolean(build.routes[id]!.module.loader),
    }))
    .filter((route) => route.action || route.api);
  staffCookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
  staffToken = (await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

/** A path with its parameters filled: a page's language, a section, and ids nobody has. */
function concrete(pattern: string) {
  return pattern
    .replace(":lang", "en")
    .replace(":plugin", "payment_request")
    .replace(/:(key|section)\b/g, "food_ordering")
    .replace(/:templateLang\b/, "en")
    .replace(/:template\b/, "receipt")
    .replace(/:channel\b/, "email")
    .replace(/:[A-Za-z]+/g, "999999")
    .replace(/\/\*$/, "/anything");
}

// Tables written by reading and signing in (sessions seen, throttles, the clock): not changes.
const MOVING = new Set(["sessions", "throttle_hits", "kysely_migration", "kysely_migration_lock"]);

/** Every row of every table, hashed per table. */
async function snapshot() {
  const tables = (await database.db.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => !MOVING.has(name));
  const out: Record<string, string> = {};
  for (const table of tables.sort()) {
    const rows = await database.db
      .selectFrom(table as never)
      .selectAll()
      .execute();
    const lines = rows
      .map((row) => JSON.stringify(row, (_, value) => (typeof value === "bigint" ? String(value) : value)))
      .sort();
    out[table] = `${rows.length}:${createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16)}`;
  }
  return out;
}

const METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods a route answers: an API's reads (when `reads`) and writes, a page's form posts. */
function methodsOf(route: Route, reads: boolean): string[] {
  if (!route.api) return route.action ? ["POST"] : [];
  return [...(reads && route.loader ? ["GET"] : []), ...(route.action ? METHODS : [])];
}

async function callAs(route: Route, who: { cookie?: string; token?: string }, method: string) {
  const url = concrete(route.path);
  if (route.api)
    return app.request(url, {
      method,
      json: method === "GET" ? undefined : {},
      headers: who.token ? { Authorization: `Bearer ${who.token}` } : {},
    });
  return app.request(url, { method, form: { intent: "__route_table__" }, cookie: who.cookie });
}

const isSignInRedirect = (response: Response) =>
  [302, 303].includes(response.status) && /\/login(\?|$)/.test(response.headers.get("Location") ?? "");

describe("the route table", () => {
  it("declares every route of the guarded families, and lists every route strangers may call", () => {
    const undeclared = routes.filter(
      (route) =>
        MUST_DECLARE.some((family) => family.test(route.id)) && !DECLARED[route.id] && (route.action || route.api),
    );
    expect(undeclared.map((route) => route.id)).toEqual([]);
    const stale = Object.keys(DECLARED).filter((id) => !routes.some((route) => route.id === id));
    expect(stale).toEqual([]);
    expect(routes.length).toBeGreaterThan(200);
  });

  it("refuses a stranger on every route that is not public by design, and changes nothing", async () => {
    const before = await snapshot();
    const open: string[] = [];
    for (const route of routes) {
      if (PUBLIC.some((allowed) => allowed.test(route.id))) continue;
      for (const method of methodsOf(route, true)) {
        const response = await callAs(route, {}, method);
        await response.arrayBuffer();
        const refused = route.api
          ? [401, 403, 404, 405].includes(response.status)
          : isSignInRedirect(response) || [401, 403, 404, 405].includes(response.status);
        if (!refused) open.push(`${method} ${route.path} (${route.id}) → ${response.status}`);
      }
    }
    expect(open).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses the staff user on every declared route they lack the permission for, and changes nothing", async () => {
    const before = await snapshot();
    const wrong: string[] = [];
    for (const route of routes.filter((route) => DECLARED[route.id])) {
      const statuses: number[] = [];
      // The administration's reads are guarded as its writes (gateway settings, webhooks), and so are
      // the paired values code pairing answers; elsewhere only what changes is declared.
      const methods = methodsOf(route, route.id.startsWith("api-admin-") || route.id === "api-cpr-codes");
      for (const method of methods) {
        const response = await callAs(route, { cookie: staffCookie, token: staffToken }, method);
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      if (!statuses.every((status) => [403, 404, 405].includes(status)) || !statuses.includes(403))
        wrong.push(`${route.path} (${route.id}) → ${methods.join("/")} ${statuses.join("/")}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("lets a user holding exactly the declared permissions past each declared guard", async () => {
    const holders = new Map<string, { cookie: string; token: string }>();
    const wrong: string[] = [];
    for (const route of routes.filter((route) => DECLARED[route.id])) {
      const permissions = DECLARED[route.id]!;
      const name = `holder-${permissions.join("-").replaceAll("_", "")}`.slice(0, 60);
      if (!holders.has(name)) {
        await createUser(database.db, alpha.merchantId, {
          username: name,
          email: `${name}@alpha.example`,
          firstName: "H",
          lastName: "H",
          permissions,
        });
        holders.set(name, {
          cookie: await app.signIn(name, DEMO_PASSWORD),
          token: (await app.apiToken(name, DEMO_PASSWORD)).access,
        });
      }
      const statuses: number[] = [];
      for (const method of methodsOf(route, true)) {
        const response = await callAs(route, holders.get(name)!, method);
        await response.arrayBuffer();
        statuses.push(isSignInRedirect(response) ? 401 : response.status);
      }
      if (statuses.every((status) => [401, 403, 405].includes(status)))
        wrong.push(`${route.path} (${route.id}) → ${statuses.join("/")}`);
    }
    expect(wrong).toEqual([]);
  });
});
