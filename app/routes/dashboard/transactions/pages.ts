/**
 * The transaction workspace's pages: all transactions, and for every section that lists its
 * transactions its live and deleted lists, their details and its table headers. routes.ts makes
 * the routes from this list, and a page learns which list it serves from the pattern of the route
 * it was matched by — never by reading the URL.
 */
import { TRANSACTION_SECTIONS } from "../../../sections/registry";

export type TransactionPageKind = "list" | "details" | "table-headers";

export type TransactionPage = {
  /** Relative to /:lang/. */
  path: string;
  file: string;
  id: string;
  kind: TransactionPageKind;
  /** null: all transactions. */
  sectionKey: string | null;
  deleted: boolean;
};

const LIST = "routes/dashboard/transactions/list.tsx";
const DETAILS = "routes/dashboard/transactions/details.tsx";
const TABLE_HEADERS = "routes/dashboard/transactions/table-headers.tsx";

export const TRANSACTION_PAGES: readonly TransactionPage[] = [
  { path: "transactions", file: LIST, id: "list-all", kind: "list", sectionKey: null, deleted: false },
  {
    path: "transactions/:transactionId",
    file: DETAILS,
    id: "details-all",
    kind: "details",
    sectionKey: null,
    deleted: false,
  },
  ...TRANSACTION_SECTIONS.flatMap((section): TransactionPage[] => {
    const base = { sectionKey: section.key };
    return [
      {
        ...base,
        path: `${section.path}/transactions`,
        file: LIST,
        id: `list-${section.key}`,
        kind: "list",
        deleted: false,
      },
      {
        ...base,
        path: `${section.path}/deleted-transactions`,
        file: LIST,
        id: `deleted-${section.key}`,
        kind: "list",
        deleted: true,
      },
      {
        ...base,
        path: `${section.path}/transactions/:transactionId`,
        file: DETAILS,
        id: `details-${section.key}`,
        kind: "details",
        deleted: false,
      },
      {
        ...base,
        path: `${section.path}/deleted-transactions/:transactionId`,
        file: DETAILS,
        id: `deleted-details-${section.key}`,
        kind: "details",
        deleted: true,
      },
      {
        ...base,
        path: `${section.path}/table-headers`,
        file: TABLE_HEADERS,
        id: `table-headers-${section.key}`,
        kind: "table-headers",
        deleted: false,
      },
    ];
  }),
];

const byPattern = new Map(TRANSACTION_PAGES.map((page) => [`:lang/${page.path}`, page]));

/** The page a route pattern (a loader's `pattern`, e.g. ":lang/payment-request/transactions") stands for. */
export function transactionPageOf(pattern: string): TransactionPage | undefined {
  return byPattern.get(pattern.replace(/^\/+/, ""));
}
