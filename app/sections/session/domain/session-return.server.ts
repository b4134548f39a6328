import type { DB } from "~/db/database.server";
import type { CustomerResult } from "~/sections/contract";
import { findSessionOfTransaction } from "./sessions.server";

/** What the merchant's site reads in `result`: the attempt's outcome, cash on delivery as a success. */
const RESULTS: Record<CustomerResult, string> = {
  success: "success",
  cod: "success",
  failed: "failed",
  error: "failed",
  canceled: "canceled",
  expired: "expired",
};

/**
 * Where the customer goes back after a session's payment result: the session's redirect_url with
 * `session_id`, `order_no` and `result` added to its query (what it had is kept). Null when the
 * transaction is no session's or the session named no address.
 */
export async function returnUrlOf(db: DB, transactionId: string, result: CustomerResult): Promise<string | null> {
  const session = await findSessionOfTransaction(db, transactionId);
  if (!session?.redirect_url) return null;
  const url = new URL(session.redirect_url);
  url.searchParams.set("session_id", session.id);
  if (session.order_no) url.searchParams.set("order_no", session.order_no);
  url.searchParams.set("result", RESULTS[result]);
  return url.href;
}
