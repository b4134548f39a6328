import type { SectionDeclaration } from "../contract";

/** Express search: one box that finds a transaction across every section. */
export const expressSearch = {
  key: "express_search",
  path: "search/express",
  built: true,
  features: [],
  permissions: [],
  routes: {
    dashboard: [{ path: "", file: "sections/express-search/routes/express-search.tsx", id: "express-search" }],
    api: [
      {
        path: "search/express",
        file: "sections/express-search/routes/api-express-search.ts",
        id: "api-express-search",
      },
    ],
  },
} as const satisfies SectionDeclaration;
