import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * E-commerce: the payments a merchant's own website asks for through checkout sessions (the
 * session section makes them); customers pay them on the hosted checkout page, and they are listed
 * with the shared transaction pages (decision 0028).
 */
export const eCommerce = {
  key: "e_commerce",
  path: "e-commerce",
  built: true,
  features: [...TRANSACTION_FEATURES],
  permissions: [],
  namespaces: { serverOnly: ["ecommerce"] },
  transactions: { payable: true },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
