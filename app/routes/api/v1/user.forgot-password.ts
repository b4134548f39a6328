import type { Route } from "./+types/user.forgot-password";
import { requestPasswordReset } from "~/domain/identity/passwords.server";
import { apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, str } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";

/** POST username → always the same success answer; a reset link goes out only if the user exists. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const body = await readBody(request);
  const username = str(body.username, 151).trim();
  if (!username) return apiErrors(request, { username: ["errors.required"] });
  if (username.length > 150) return apiErrors(request, { username: ["errors.too_long"] });
  const lang = apiLanguage(request);
  await requestPasswordReset(getDbFrom(context), {
    username,
    baseUrl: linkBaseUrl(),
    lang,
    ip: context.get(clientAddressContext),
  });
  return apiJson({ success: true, message: translator(lang)("forgot.sent") });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
