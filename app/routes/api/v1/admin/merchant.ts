import type { Route } from "./+types/merchant";
import { MerchantProfileSchema } from "~/domain/merchants/profile-schema";
import { loadOperationsApproval, setOperationsApproval } from "~/domain/identity/user-admin.server";
import { loadMerchantProfile, updateMerchantProfile } from "~/domain/merchants/profile.server";
import { apiErrors, apiJson, methodNotAllowed, readBody, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** GET the merchant's profile and its default unit's branding (administration, manage_merchant). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await merchantOf(getDbFrom(context), user.merchantId));
}

/** The profile, with whether operations wait for a checker. */
async function merchantOf(db: ReturnType<typeof getDbFrom>, merchantId: number) {
  const [profile, approval] = await Promise.all([
    loadMerchantProfile(db, merchantId),
    loadOperationsApproval(db, merchantId),
  ]);
  return { ...profile, operations_approval: approval.on };
}

/** PATCH changes the fields sent; 400 names each refused field in the caller's language, and changes nothing. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const { operations_approval: approval, ...fields } = await readBody(request);
  const parsed = MerchantProfileSchema.strict().safeParse(fields);
  const errors: Record<string, string[]> = {};
  if (approval !== undefined && typeof approval !== "boolean") errors.operations_approval = ["api.invalid_boolean"];
  if (!parsed.success || Object.keys(errors).length) {
    for (const issue of parsed.error?.issues ?? []) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) (errors[key] ??= []).push("api.read_only_field");
        continue;
      }
      // The schema's own messages are translation keys; zod's (a number sent for a text) are not.
      const key = /^[a-z_]+(\.[a-z_]+)+$/.test(issue.message) ? issue.message : "admin.errors.invalid";
      (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(key);
    }
    return apiErrors(request, errors);
  }
  const db = getDbFrom(context);
  const actor = { id: user.id, username: user.username };
  const ip = context.get(clientAddressContext);
  await updateMerchantProfile(db, { merchantId: user.merchantId, actor, changes: parsed.data, ip });
  if (typeof approval === "boolean")
    await setOperationsApproval(db, { merchantId: user.merchantId, actor, on: approval, ip });
  return apiJson(await merchantOf(db, user.merchantId));
}
