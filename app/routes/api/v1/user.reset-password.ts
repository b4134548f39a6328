import type { Route } from "./+types/user.reset-password";
import { resetPassword } from "~/domain/identity/passwords.server";
import { apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, str } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/**
 * POST username, new_password, password_confirmation and the token from the emailed link
 * (in the body or as ?token=). Without a live token nothing changes.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const body = await readBody(request);
  const input = {
    token: str(body.token, 200) || (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200),
    username: str(body.username, 150).trim(),
    newPassword: str(body.new_password, 129),
    passwordConfirmation: str(body.password_confirmation, 129),
  };
  const errors: Record<string, string[]> = {};
  if (!input.username) errors.username = ["errors.required"];
  if (!input.newPassword) errors.new_password = ["errors.required"];
  else if (input.newPassword.length > 128) errors.new_password = ["errors.too_long"];
  if (!input.passwordConfirmation) errors.password_confirmation = ["errors.required"];
  if (Object.keys(errors).length) return apiErrors(request, errors);
  const outcome = await resetPassword(getDbFrom(context), { ...input, ip: context.get(clientAddressContext) });
  if (!outcome.ok) return apiErrors(request, outcome.errors);
  return apiJson({ success: true, message: translator(apiLanguage(request))("reset.done") });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
