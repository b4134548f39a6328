import type { Route } from "./+types/merchant";
import { MerchantProfileSchema } from "~/domain/merchants/profile-schema";
import { loadMerchantProfile, updateMerchantProfile } from "~/domain/merchants/profile.server";
import { apiErrors, apiJson, methodNotAllowed, readBody, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** GET the merchant's profile and its default unit's branding (administration, manage_merchant). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await loadMerchantProfile(getDbFrom(context), user.merchantId));
}

/** PATCH changes the fields sent; 400 names each refused field in the caller's language, and changes nothing. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const parsed = MerchantProfileSchema.strict().safeParse(await readBody(request));
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
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
  await updateMerchantProfile(db, { merchantId: user.merchantId, actor: { id: user.id, username: user.username }, changes: parsed.data, ip: context.get(clientAddressContext) });
  return apiJson(await loadMerchantProfile(db, user.merchantId));
}
