import { z } from "zod";

/** The rights a staff user gets only through a checker's approval (Permissions Requests). */
export const GRANTABLE_PERMISSIONS = ["refund_paymenttransaction", "void_paymenttransaction"] as const;
export type GrantablePermission = (typeof GRANTABLE_PERMISSIONS)[number];

/** The "Request permission" form, shared by the page (server and browser) and the API; errors are translation keys. */
export const PermissionGrantSchema = z.object({
  user: z.coerce.number({ error: "errors.required" }).int("tickets.errors.user").positive("errors.required"),
  permission: z.enum(GRANTABLE_PERMISSIONS, { error: "tickets.errors.permission" }),
});
