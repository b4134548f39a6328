/**
 * The platform's own named permissions (dashboard spec §6). Superusers hold all of them; other
 * users hold the ones granted to them. Sections add theirs (app/sections/registry.ts), and each
 * section that lists transactions has a table-header permission. Labels are translation keys
 * under "permissions.".
 */
export const CORE_PERMISSIONS = [
  "view_paymenttransaction",
  "search_paymenttransaction",
  "view_paymenttransaction_statistics",
  "view_export_settings",
  "add_paymenttransaction",
  "change_paymenttransaction",
  "delete_paymenttransaction",
  "refund_paymenttransaction",
  "capture_paymenttransaction",
  "void_paymenttransaction",
  "approve_operations",
  "approve_permission_requests",
  "view_outgoing_mail",
  // The administration panel: the merchant's profile and branding.
  "manage_merchant",
] as const;

export type CorePermission = (typeof CORE_PERMISSIONS)[number];

/** A core permission, a table-header permission, or one a section declares (the registry test checks every name used). */
export type Permission = CorePermission | `change_${string}transactionproxyfield` | (string & {});

/** change_{x}transactionproxyfield, x being the section key without underscores. */
export function tableHeaderPermission(section: string): `change_${string}transactionproxyfield` {
  return `change_${section.replaceAll("_", "")}transactionproxyfield`;
}

export type PermissionHolder = { is_superuser: number | boolean; permissions: readonly string[] };

/** Someone acting: who they are and what they may do. */
export type Actor = PermissionHolder & { id: number; username: string };

export function can(user: PermissionHolder, permission: Permission): boolean {
  return Boolean(user.is_superuser) || user.permissions.includes(permission);
}
