import type { DB } from "~/db/database.server";
import { can } from "~/domain/identity/permissions";
import { hasFeature, type AvailableSections } from "~/domain/merchants/merchants.server";
import type { Actor } from "~/domain/identity/permissions";
import { countPendingOperationRequests } from "./operation-requests.server";
import { countPendingPermissionRequests } from "./permission-requests.server";

/**
 * The side menu's request-count badges (dashboard spec §2 Shell), keyed "section.feature":
 * only for the people who decide those requests, only for features the merchant has.
 */
export async function pendingTicketCounts(db: DB, merchantId: number, user: Actor, sections: AvailableSections) {
  const counts: Record<string, number> = {};
  if (hasFeature(sections, "ticket", "operations_approval") && can(user, "approve_operations")) {
    counts["ticket.operations_approval"] = await countPendingOperationRequests(db, merchantId, user);
  }
  if (hasFeature(sections, "ticket", "user_permission_changes") && can(user, "approve_permission_requests")) {
    counts["ticket.user_permission_changes"] = await countPendingPermissionRequests(db, merchantId);
  }
  return counts;
}
