import { DEMO_PASSWORD } from "~/boot/demo-seed.server";
import type { DB } from "~/db/database.server";
import type { Permission } from "~/domain/identity/permissions";
import { createUser as createUserWithPassword, type NewUserInput } from "~/domain/identity/users.server";
import { createMerchant } from "~/domain/merchants/merchants.server";
import { seedDemoGateways } from "~/domain/sandbox/demo-gateways.server";
import { sectionsForNewMerchant } from "~/sections/registry";

export { DEMO_PASSWORD };

/** A user of the merchant whose password is the demo password. */
export function createUser(db: DB, merchantId: number, user: NewUserInput, password = DEMO_PASSWORD) {
  return createUserWithPassword(db, merchantId, user, password);
}

/** A merchant with a superuser, a staff user and an OTP user, named after `prefix`. */
export async function seedMerchant(db: DB, prefix: string) {
  const merchantId = await createMerchant(db, {
    name: `${prefix} Store`,
    titleEn: `${prefix} Store`,
    titleAr: `متجر ${prefix}`,
    sections: sectionsForNewMerchant(),
  });
  const user = (
    username: string,
    extra: { superuser?: boolean; requiresOtp?: boolean; permissions?: Permission[] } = {},
  ) =>
    createUser(db, merchantId, {
      username,
      email: `${username}@${prefix.toLowerCase()}.example`,
      firstName: "Test",
      lastName: "User",
      superuser: extra.superuser,
      requiresOtp: extra.requiresOtp,
      permissions: extra.permissions ?? [],
    });
  const adminId = await user(`${prefix}-admin`, { superuser: true });
  const staffId = await user(`${prefix}-staff`, {
    permissions: ["view_paymenttransaction", "search_paymenttransaction"],
  });
  const otpId = await user(`${prefix}-otp`, { requiresOtp: true });
  await seedDemoGateways(db, merchantId);
  return {
    merchantId,
    admin: { id: adminId, username: `${prefix}-admin` },
    staff: { id: staffId, username: `${prefix}-staff` },
    otp: { id: otpId, username: `${prefix}-otp`, email: `${prefix}-otp@${prefix.toLowerCase()}.example` },
  };
}
