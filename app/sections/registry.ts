/**
 * Every section of the platform, in the order the side menu shows them. Routes, the menu, the
 * permissions, the seed, the API and the exports read this list; nothing else keeps one. A built
 * section is one folder and one line here; the others are declared here until they are built.
 */
import { CORE_PERMISSIONS, tableHeaderPermission } from "../domain/identity/permissions";
import type { SectionDeclaration } from "./contract";
import { bulk } from "./bulk/section";
import { catalogue } from "./catalogue/section";
import { codePairing } from "./code-pairing/section";
import { customerPayment } from "./customer-payment/section";
import { eCommerce } from "./e-commerce/section";
import { event } from "./event/section";
import { expressSearch } from "./express-search/section";
import { foodOrdering } from "./food-ordering/section";
import { paymentRequest } from "./payment-request/section";
import { session } from "./session/section";
import { shopify } from "./shopify/section";
import { pos } from "./pos/section";
import { ticket } from "./ticket/section";

const DECLARED = [
  expressSearch,
  paymentRequest,
  bulk,
  customerPayment,
  catalogue,
  eCommerce,
  session,
  shopify,
  codePairing,
  event,
  foodOrdering,
  ticket,
  pos,
] as const satisfies readonly SectionDeclaration[];

export const SECTIONS: readonly SectionDeclaration[] = DECLARED;

const byKey = new Map<string, SectionDeclaration>(SECTIONS.map((section) => [section.key, section]));

export function findSection(key: string): SectionDeclaration | undefined {
  return byKey.get(key);
}

export function hasTransactions(section: SectionDeclaration) {
  return section.features.some((feature) => feature.key === "transactions");
}

/**
 * The sections the side menu offers, when the merchant has them: the built ones. A section not built
 * yet keeps its routes (they say so plainly, decision 4) but no menu entry leads there.
 */
export const MENU_SECTIONS: readonly SectionDeclaration[] = SECTIONS.filter((section) => section.built);

/** The sections whose transactions are listed (and exported); their keys name their table-header permission. */
export const TRANSACTION_SECTIONS: readonly SectionDeclaration[] = SECTIONS.filter(hasTransactions);

export function isTransactionSection(key: string) {
  return TRANSACTION_SECTIONS.some((section) => section.key === key);
}

/** The permissions the sections add to the platform's own. */
export function sectionPermissions(): string[] {
  return [...new Set(SECTIONS.flatMap((section) => section.permissions))];
}

/** Every named permission there is: the platform's, the sections', and each listing section's table headers. */
export function allPermissions(): string[] {
  return [
    ...CORE_PERMISSIONS,
    ...sectionPermissions(),
    ...TRANSACTION_SECTIONS.map((section) => tableHeaderPermission(section.key)),
  ];
}

/** The permissions of the platform and of its built sections: what a role can hold (the others do nothing yet). */
export function builtPermissions(): string[] {
  const built = SECTIONS.filter((section) => section.built);
  return [
    ...CORE_PERMISSIONS,
    ...new Set(built.flatMap((section) => section.permissions)),
    ...built.filter(hasTransactions).map((section) => tableHeaderPermission(section.key)),
  ];
}

/** First URL segments of the sections' routes outside /:lang/ (the language middleware leaves them alone). */
export function sectionRootSegments(): string[] {
  return SECTIONS.flatMap((section) => section.routes?.root ?? []).map((route) => route.path.split("/")[0]);
}

/** Every section with all its features: what the demo merchant (and a test's merchant) has. */
export function sectionsForNewMerchant() {
  return SECTIONS.map((section) => ({ key: section.key, features: section.features.map((feature) => feature.key) }));
}

/** The sections whose transactions customers pay on the platform's pay page (and through the public pay API). */
/** The sections' management-API scopes for API keys, by area (`menu`, `events`, `catalogue`). */
export const SETUP_AREAS: Readonly<
  Record<string, { plugin: string; read: readonly string[]; write: readonly string[] }>
> = Object.fromEntries(
  SECTIONS.flatMap((section) =>
    section.apiSetupScope
      ? [
          [
            section.apiSetupScope.area,
            { plugin: section.key, read: section.apiSetupScope.read, write: section.apiSetupScope.write },
          ],
        ]
      : [],
  ),
);

export const PAYABLE_SECTIONS: readonly string[] = SECTIONS.filter((section) => section.transactions?.payable).map(
  (section) => section.key,
);

/** The payable sections whose pay page asks the merchant's checkout fields (their declaration opts in). */
export const CHECKOUT_FIELD_SECTIONS: readonly string[] = SECTIONS.filter(
  (section) => section.transactions?.payable && section.transactions.checkoutFields,
).map((section) => section.key);

export function offersCheckoutFields(key: string | undefined) {
  return key !== undefined && CHECKOUT_FIELD_SECTIONS.includes(key);
}

/** The plugins an API key's scopes may name: the built sections that list transactions. */
export const API_KEY_PLUGINS: readonly string[] = TRANSACTION_SECTIONS.filter((section) => section.built).map(
  (section) => section.key,
);
