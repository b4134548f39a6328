import type { DB } from "~/db/database.server";
import { listTransactions } from "./list.server";

/** One box across every section (dashboard spec: search/express): by id, order number, gateway reference, e-mail or phone. */
export const EXPRESS_SEARCH_LIMIT = 50;

/** The live transactions of every section matching `q`, newest first, at most EXPRESS_SEARCH_LIMIT, and their count. */
export function findExpressMatches(db: DB, merchantId: number, q: string) {
  return listTransactions(
    db,
    { merchantId, deleted: false },
    { filters: { q: q.slice(0, 100) }, page: 1, perPage: EXPRESS_SEARCH_LIMIT },
  );
}
