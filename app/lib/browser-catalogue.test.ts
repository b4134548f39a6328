import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PAGE_NAMESPACES, SERVER_ONLY_NAMESPACES } from "./i18n";
import { declaredNamespaces } from "~/sections/declared-namespaces.server";
import { SECTIONS } from "~/sections/registry";

const appDir = path.resolve(import.meta.dirname, "..");

/**
 * Code the browser may run: every module under app/ but the server's (*.server.*, the database's), tests, API
 * resource routes (only their loader and action exist, which stay on the server) and the customer
 * pages sent without scripts (handle: { hydrate: false }) with their components (components/pay, the
 * customer-page kit components/customer but for its browser scripts, *.client.ts, a section's
 * components/public).
 */
function browserModules(dir = appDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    const relative = path.relative(appDir, file).replaceAll("\\", "/");
    if (entry.isDirectory()) {
      if (
        relative === "components/pay" ||
        relative === "db" ||
        /(^|\/)api$/.test(relative) ||
        /^sections\/[\w-]+\/components\/public$/.test(relative)
      )
        return [];
      return browserModules(file);
    }
    if (
      !/\.tsx?$/.test(entry.name) ||
      (relative.startsWith("components/customer/") && !/\.client\.tsx?$/.test(entry.name)) ||
      /\.(server|test|integration\.test)\.tsx?$/.test(entry.name) ||
      entry.name.startsWith("api-")
    )
      return [];
    const source = fs.readFileSync(file, "utf8");
    if (/hydrate:\s*false/.test(source)) return [];
    return [relative];
  });
}

describe("the browser's catalogue", () => {
  const modules = browserModules();

  it("finds the modules it checks", () => {
    expect(modules).toContain("routes/dashboard/layout.tsx");
    expect(modules).toContain("components/transactions/dialogs.tsx");
    expect(modules).not.toContain("routes/pay/pay.tsx");
  });

  it("leaves out every namespace the sections declare (vite.config.ts reads them from their section.ts)", () => {
    const declared = SECTIONS.flatMap((section) => [
      ...(section.namespaces?.page ?? []),
      ...(section.namespaces?.serverOnly ?? []),
    ]);
    expect(declared).toContain("food_setup");
    expect(declaredNamespaces(path.join(appDir, "sections")).sort()).toEqual(declared.sort());
  });

  // A key may also come from the server as data (an error the page translates): the server's
  // modules may name these namespaces only where they write the text out themselves.
  // The platform's, and those each section declares as only its server's (namespaces.serverOnly).
  const serverOnly = [
    ...SERVER_ONLY_NAMESPACES,
    ...SECTIONS.flatMap((section) => section.namespaces?.serverOnly ?? []),
  ];
  it.each(serverOnly)("no code the browser runs asks for a text under %s.", (namespace) => {
    const asking = new RegExp(`["'\`]${namespace}\\.[\\w$]`);
    const offenders = modules.filter((file) => asking.test(fs.readFileSync(path.join(appDir, file), "utf8")));
    expect(offenders).toEqual([]);
  });

  // Words the administration pages bring with them: only those pages, their components, the profile's
  // and the units' schemas, the checkout fields' rules, the sections' declared settings (shown on
  // the panel's Sections pages) and what each gateway asks of the merchant (its Gateways page) name them.
  it.each(PAGE_NAMESPACES.admin)("only the administration pages ask for a text under %s.", (namespace) => {
    const asking = new RegExp(`["'\`]${namespace}\\.[\\w$]`);
    const offenders = modules.filter(
      (file) =>
        !/^(routes\/admin\/|routes\/operator\/|components\/admin\/|domain\/merchants\/(profile|unit)-schema\.ts$|domain\/payments\/checkout-fields\.ts$|domain\/payments\/gateways\/[\w-]+\/settings\.ts$|sections\/[\w-]+\/section\.ts$)/.test(
          file,
        ) && asking.test(fs.readFileSync(path.join(appDir, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  // A section's dashboard words come with its pages (its layout's loader): only its own modules (its
  // folder, named after its key as registry.test.ts checks) name those it declares (namespaces.page).
  const sectionNamespaces = SECTIONS.flatMap((section) =>
    (section.namespaces?.page ?? []).map((namespace) => [namespace, section.key.replaceAll("_", "-")] as const),
  );
  it.each(sectionNamespaces)(
    "only its own section's pages ask for a text under %s (sections/%s).",
    (namespace, folder) => {
      const asking = new RegExp(`["'\`]${namespace}\\.[\\w$]`);
      const offenders = modules.filter(
        (file) =>
          !file.startsWith(`sections/${folder}/`) && asking.test(fs.readFileSync(path.join(appDir, file), "utf8")),
      );
      expect(offenders).toEqual([]);
    },
  );

  // The statistics home, Generated reports, the superusers' reconciliation report and the sandbox mailbox bring their words with them.
  const PAGE_FILES = {
    reconciliation: /^routes\/dashboard\/reconciliation\.tsx$/,
    mailbox: /^routes\/dashboard\/mailbox(\.message)?\.tsx$/,
    statistics: /^(routes\/dashboard\/general-info(\.tsx$|\/)|domain\/statistics\/periods\.ts$)/,
    reports: /^routes\/dashboard\/generated-reports\.tsx$/,
  } satisfies Record<Exclude<keyof typeof PAGE_NAMESPACES, "admin">, RegExp>;
  it.each(Object.entries(PAGE_FILES))("only its own pages ask for a text under %s.", (namespace, pages) => {
    const asking = new RegExp(`["'\`]${namespace}\\.[\\w$]`);
    const offenders = modules.filter(
      (file) => !pages.test(file) && asking.test(fs.readFileSync(path.join(appDir, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
