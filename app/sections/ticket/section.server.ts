import { countPendingOperationRequests } from "~/domain/approvals/operation-requests.server";
import { countPendingPermissionRequests } from "~/domain/approvals/permission-requests.server";
import { can } from "~/domain/identity/permissions";
import type { SectionServer } from "../contract";

export const sectionServer: SectionServer = {
  key: "ticket",
  /** The Tickets items' badges: requests waiting, for the people who decide them (a maker: their own operations). */
  async menuCounts(db, { merchantId, user, features }) {
    const counts: Record<string, number> = {};
    if (features.includes("operations_approval") && can(user, "approve_operations")) {
      counts.operations_approval = await countPendingOperationRequests(db, merchantId, user);
    }
    if (features.includes("user_permission_changes") && can(user, "approve_permission_requests")) {
      counts.user_permission_changes = await countPendingPermissionRequests(db, merchantId);
    }
    return counts;
  },
};
