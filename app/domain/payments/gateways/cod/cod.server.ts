import type { GatewayAdapter } from "../gateway";

/** Cash on delivery: nothing to call. Choosing it completes the attempt at once; money changes hands at the door. */
export const codAdapter: GatewayAdapter = {
  start: async () => ({ kind: "cod" }),
  inquire: async () => ({ status: "pending", refs: {} }),
  capture: async () => ({ ok: false, message: "Cash on delivery has nothing to capture" }),
  refund: async () => ({ ok: false, message: "Cash on delivery is refunded in cash" }),
  void: async () => ({ ok: false, message: "Cash on delivery has nothing to void" }),
  inquireOperation: async () => ({ status: "not_found" }),
};
