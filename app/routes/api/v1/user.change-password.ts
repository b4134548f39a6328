import type { Route } from "./+types/user.change-password";
import { changePassword } from "~/domain/identity/passwords.server";
import { apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, requireApiUser, str } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/**
 * POST old_password, new_password, repeat_password. The current password must be right (wrong
 * guesses are limited as sign-in's are); every other session of the user ends, this one stays,
 * and the user is told by email.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, sessionId } = await requireApiUser(request, context);
  const body = await readBody(request);
  const oldPassword = str(body.old_password, 129);
  const newPassword = str(body.new_password, 129);
  const repeatPassword = str(body.repeat_password, 129);
  const errors: Record<string, string[]> = {};
  if (!oldPassword) errors.old_password = ["errors.required"];
  if (!newPassword) errors.new_password = ["errors.required"];
  else if (newPassword.length > 128) errors.new_password = ["errors.too_long"];
  if (!repeatPassword) errors.repeat_password = ["errors.required"];
  if (Object.keys(errors).length) return apiErrors(request, errors);
  const outcome = await changePassword(getDbFrom(context), {
    userId: user.id,
    currentPassword: oldPassword,
    newPassword,
    repeatPassword,
    keepSessionId: sessionId,
    lang: apiLanguage(request),
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok) return apiErrors(request, outcome.errors);
  return apiJson({ success: true, message: translator(apiLanguage(request))("password.changed") });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
