/** The states the sessions list filters by: what a session is to its merchant. */
export const SESSION_FILTERS = [
  "created",
  "pending",
  "paid",
  "attempted",
  "authorized",
  "refunded",
  "expired",
  "canceled",
] as const;
export type SessionFilter = (typeof SESSION_FILTERS)[number];
