import { TRANSACTION_SECTIONS } from "~/domain/merchant/sections";

/**
 * Every named permission the platform checks. Superusers hold all of them; other users
 * hold the ones granted to them. Labels are translation keys under "permissions.".
 */
export const PERMISSIONS = [
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
  "view_booking",
  "add_booking",
  "change_booking",
  "scan_booking",
  "view_order",
  "change_order",
  "scan_order",
  "view_outgoing_mail",
  ...TRANSACTION_SECTIONS.map((section) => tableHeaderPermission(section)),
] as const;

export type Permission = (typeof PERMISSIONS)[number] | `change_${string}transactionproxyfield`;

/** change_{x}transactionproxyfield, x being the section key without underscores. */
export function tableHeaderPermission(section: string): `change_${string}transactionproxyfield` {
  return `change_${section.replaceAll("_", "")}transactionproxyfield`;
}

export function isKnownPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export type PermissionHolder = { is_superuser: number | boolean; permissions: readonly string[] };

export function can(user: PermissionHolder, permission: Permission): boolean {
  return Boolean(user.is_superuser) || user.permissions.includes(permission);
}
