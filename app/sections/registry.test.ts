import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import ar from "../../locales/ar/common.json";
import routes from "~/routes";
import { CORE_JOBS } from "~/boot/wiring.server";
import { hasJobHandler } from "~/lib/jobs.server";
import { transactionPageOf, TRANSACTION_PAGES } from "~/routes/dashboard/transactions/pages";
import { CORE_ROOT_SEGMENTS } from "~/web/root-segments";
import { loadSectionServers } from "./registry.server";
import { allPermissions, hasTransactions, MENU_SECTIONS, SECTIONS, sectionRootSegments } from "./registry";

/** Dashboard spec §6: the flags that make sections and their sub-features available. */
const SPEC_FLAGS: Record<string, string[]> = {
  express_search: [],
  payment_request: ["create", "transactions", "deleted_transactions"],
  bulk: ["upload", "transactions", "deleted_transactions"],
  customer_payment: ["transactions", "deleted_transactions", "payment_restriction"],
  catalogue: [],
  e_commerce: [],
  session: [],
  shopify: [],
  code_pairing: [],
  event: ["transactions", "deleted_transactions", "bookings", "create", "fulfillment"],
  food_ordering: ["transactions", "deleted_transactions", "orders", "product_bulk_create", "branches", "fulfillment"],
  ticket: ["user_permission_changes", "operations_approval"],
  // The point-of-sale pages (dashboard spec §2 routes, issue 16): not a flag of §6.
  pos: [],
};

/** Features a section has beyond §6 because its issue asks for their pages (the catalogue's set-up, decision 0025; the collector pages, decision 0026; the counter, decision 0032). */
const BEYOND_FLAGS: Record<string, string[]> = {
  catalogue: ["products", "product_upload", "stores", "discounts", "settings"],
  customer_payment: ["collectors"],
  shopify: ["settings"],
  code_pairing: ["codes", "sites"],
  pos: ["pay"],
  session: ["sessions"],
};

type RouteEntry = { id?: string; path?: string; file: string; children?: RouteEntry[] };

function flatten(entries: RouteEntry[], prefix = ""): { id?: string; path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const full = [prefix, entry.path].filter(Boolean).join("/");
    return [{ id: entry.id, path: full, file: entry.file }, ...flatten(entry.children ?? [], full)];
  });
}

function lookup(catalog: unknown, key: string) {
  return key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalog);
}

const appDir = path.resolve(__dirname, "..");
const configured = flatten(routes as RouteEntry[]);

describe("the section registry", () => {
  it("gives every sub-feature flag of dashboard spec §6 to one section, and invents none", () => {
    expect(SECTIONS.map((section) => section.key).sort()).toEqual(Object.keys(SPEC_FLAGS).sort());
    for (const section of SECTIONS) {
      const features = section.features.map((feature) => feature.key);
      for (const flag of SPEC_FLAGS[section.key]) expect(features, `${section.key}.${flag}`).toContain(flag);
      // Beyond §6, only the transaction lists that §2 routes for catalogue, e-commerce and shopify, and the pages an issue asks for.
      for (const feature of features.filter((key) => !SPEC_FLAGS[section.key].includes(key)))
        expect(["transactions", "deleted_transactions", ...(BEYOND_FLAGS[section.key] ?? [])]).toContain(feature);
    }
    expect(new Set(SECTIONS.map((section) => section.path)).size).toBe(SECTIONS.length);
  });

  it("resolves every route a section declares to a module that exists, each once", () => {
    for (const section of SECTIONS) {
      for (const kind of ["dashboard", "public", "api", "root"] as const) {
        for (const route of section.routes?.[kind] ?? []) {
          expect(fs.existsSync(path.join(appDir, route.file)), `${section.key}: ${route.file}`).toBe(true);
          expect(
            route.file.startsWith(`sections/${section.path.split("/")[0]}`) || route.file.startsWith("sections/"),
            route.file,
          ).toBe(true);
          expect(
            configured.filter((entry) => entry.id === route.id),
            `${section.key}: route ${route.id}`,
          ).toHaveLength(1);
        }
      }
      // A built section lives in its own folder; one not built yet has none and no routes of its own.
      const folder = path.join(appDir, "sections", section.key.replaceAll("_", "-"));
      expect(fs.existsSync(folder), `${section.key}: ${folder}`).toBe(section.built);
      if (!section.built) expect(section.routes).toBeUndefined();
    }
    const ids = configured.map((entry) => entry.id).filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("routes each listing section's workspace pages, and finds the page again from its route's pattern", () => {
    for (const section of SECTIONS.filter(hasTransactions)) {
      for (const page of TRANSACTION_PAGES.filter((candidate) => candidate.sectionKey === section.key)) {
        expect(
          configured.some((entry) => entry.id === page.id && entry.path === `:lang/${page.path}`),
          page.id,
        ).toBe(true);
        expect(transactionPageOf(`:lang/${page.path}`)).toBe(page);
      }
    }
    expect(transactionPageOf(":lang/payment-request/transactions")).toMatchObject({
      sectionKey: "payment_request",
      kind: "list",
      deleted: false,
    });
    expect(transactionPageOf("/:lang/event/deleted-transactions/:transactionId")).toMatchObject({
      sectionKey: "event",
      kind: "details",
      deleted: true,
    });
  });

  it("offers in the side menu only built sections, each feature of which has a page of its own", () => {
    expect(MENU_SECTIONS.map((section) => section.key)).toEqual(
      SECTIONS.filter((section) => section.built).map((section) => section.key),
    );
    expect(MENU_SECTIONS.map((section) => section.key)).toEqual(expect.arrayContaining(["payment_request", "ticket"]));
    const notBuiltPage = "routes/dashboard/not-built.tsx";
    for (const section of MENU_SECTIONS) {
      const targets = section.features.length
        ? section.features.map((feature) => `:lang/${section.path}/${feature.path}`)
        : [`:lang/${section.path}`];
      for (const target of targets) {
        const page = configured.find((entry) => entry.path === target);
        expect(page?.file, target).toBeDefined();
        expect(page?.file, target).not.toBe(notBuiltPage);
      }
    }
  });

  it("leaves alone only the first segments of routes outside /:lang", () => {
    const roots = new Set([...CORE_ROOT_SEGMENTS, ...sectionRootSegments()]);
    const outside = configured
      .filter((entry) => entry.path && !entry.path.startsWith(":lang"))
      .map((entry) => entry.path.split("/")[0]);
    for (const segment of outside) expect(roots.has(segment), segment).toBe(true);
  });

  it("names every section, feature and permission in English and Arabic", () => {
    const keys = [
      ...SECTIONS.map((section) => `sections.${section.key}`),
      ...SECTIONS.flatMap((section) => section.features.map((feature) => `features.${section.key}.${feature.key}`)),
      ...allPermissions().map((permission) => `permissions.${permission}`),
    ];
    for (const key of keys) {
      expect(typeof lookup(en, key), `en: ${key}`).toBe("string");
      expect(typeof lookup(ar, key), `ar: ${key}`).toBe("string");
    }
  });

  it("knows every permission a feature or the code asks for", () => {
    const known = new Set(allPermissions());
    for (const section of SECTIONS)
      for (const feature of section.features)
        if (feature.permission) expect(known.has(feature.permission), feature.permission).toBe(true);
    const asked = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !entry.name.includes(".test.")) {
          for (const match of fs
            .readFileSync(file, "utf8")
            .matchAll(/(?:can|requirePermission|requireApiPermission)\([^()]*?"([a-z_]+)"\)/g))
            asked.add(match[1]);
        }
      }
    };
    walk(appDir);
    expect(asked.size).toBeGreaterThan(5);
    for (const permission of asked) expect(known.has(permission), permission).toBe(true);
  });

  it("has a handler for every job type of the platform and of each section once the platform is wired", async () => {
    const servers = await loadSectionServers();
    const types = [
      ...Object.keys(CORE_JOBS),
      ...[...servers.values()].flatMap((server) => Object.keys(server.jobs ?? {})),
    ];
    for (const type of types) expect(hasJobHandler(type), type).toBe(true);
    // A section's declared demo data is one of its own jobs.
    for (const section of SECTIONS.filter((one) => one.demoJob))
      expect(Object.keys(servers.get(section.key)?.jobs ?? {}), section.key).toContain(section.demoJob);
    // Every job type the code names (an exported *_JOB constant) is among them.
    const named = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !entry.name.includes(".test.")) {
          for (const match of fs.readFileSync(file, "utf8").matchAll(/export const [A-Z_]+_JOB = "([a-z_]+)"/g))
            named.add(match[1]);
        }
      }
    };
    walk(appDir);
    expect(named.size).toBeGreaterThan(0);
    for (const type of named) expect(types, type).toContain(type);
  });

  it("loads a server part for each built section that declares one, named after it", async () => {
    const servers = await loadSectionServers();
    for (const section of SECTIONS) expect(servers.has(section.key)).toBe(Boolean(section.server));
    expect(servers.get("payment_request")?.onTransition).toBeTypeOf("function");
  });

  it("has every section whose transactions customers pay hear of their payments (to confirm them to the customer)", async () => {
    const servers = await loadSectionServers();
    const payable = SECTIONS.filter((section) => section.transactions?.payable);
    expect(payable.length).toBeGreaterThan(0);
    for (const section of payable) expect(servers.get(section.key)?.onTransition, section.key).toBeTypeOf("function");
  });
});
