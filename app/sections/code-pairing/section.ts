import type { SectionDeclaration } from "../contract";

/**
 * Code pairing: the merchant issues codes, each paired with a value only its customer knows (a
 * civil ID, a booking number); on /cpr a customer types both and is sent to the pay page of a
 * payment request made for that use. Its payments are payment requests (decision 0031).
 */
export const codePairing = {
  key: "code_pairing",
  path: "code-pairing",
  built: true,
  features: [
    { key: "codes", path: "codes", permission: "view_pairingcode" },
    { key: "sites", path: "sites", permission: "view_pairingcode" },
  ],
  permissions: ["view_pairingcode", "reveal_pairingcode"],
  namespaces: { page: ["code_pairing"], serverOnly: ["cpr_public"] },
  routes: {
    dashboardLayout: { file: "sections/code-pairing/routes/layout.tsx", id: "cpr-layout" },
    dashboard: [
      { path: "codes", file: "sections/code-pairing/routes/codes.tsx", id: "cpr-codes" },
      { path: "codes/new", file: "sections/code-pairing/routes/code-new.tsx", id: "cpr-code-new" },
      { path: "codes/export.csv", file: "sections/code-pairing/routes/codes-export.ts", id: "cpr-codes-export" },
      { path: "sites", file: "sections/code-pairing/routes/sites.tsx", id: "cpr-sites" },
    ],
    public: [{ path: "cpr", file: "sections/code-pairing/routes/public/cpr.tsx", id: "cpr-public" }],
    api: [
      {
        path: "plugins/code_pairing/verify-referer",
        file: "sections/code-pairing/routes/api/verify-referer.ts",
        id: "api-cpr-verify-referer",
      },
      {
        path: "plugins/code_pairing/validate",
        file: "sections/code-pairing/routes/api/validate.ts",
        id: "api-cpr-validate",
      },
      { path: "plugins/code_pairing/codes", file: "sections/code-pairing/routes/api/codes.ts", id: "api-cpr-codes" },
    ],
  },
  demoJob: "cpr_demo",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
