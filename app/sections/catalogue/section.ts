import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * Catalogue: a merchant's shop of products with inventory, stores, a banner and discount codes;
 * customers buy on public pages with a cart held on the server and pay through the pay flow
 * (decision 0025).
 */
export const catalogue = {
  key: "catalogue",
  path: "catalogue",
  built: true,
  features: [...TRANSACTION_FEATURES],
  permissions: [],
  routes: {},
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
