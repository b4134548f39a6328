import type { Route } from "./+types/user.token";
import { issueApiTokens } from "~/domain/identity/api-tokens.server";
import { attemptLogin } from "~/domain/identity/login.server";
import { openSession } from "~/domain/identity/sessions.server";
import { apiDetail, apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, str } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { getAppSecret } from "~/lib/secret.server";

/** POST username, password → access, refresh, sessionid; or enable_OTP when a code must follow. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const body = await readBody(request);
  const username = str(body.username, 151).trim();
  const password = str(body.password, 129);
  const missing: Record<string, string[]> = {};
  if (!username) missing.username = ["errors.required"];
  if (!password) missing.password = ["errors.required"];
  if (username.length > 150) missing.username = ["errors.too_long"];
  if (password.length > 128) missing.password = ["errors.too_long"];
  if (Object.keys(missing).length) return apiErrors(request, missing);

  const db = getDbFrom(context);
  const secret = await getAppSecret(db);
  const ip = context.get(clientAddressContext);
  const lang = apiLanguage(request);
  const outcome = await attemptLogin(db, { username, password, ip, lang, secret });
  switch (outcome.status) {
    case "invalid":
      return apiErrors(request, { non_field_errors: ["login.invalid_credentials"] });
    case "throttled":
      return apiDetail(request, "login.throttled", 429);
    case "code_required":
      return apiJson({ enable_OTP: true, message: translator(lang)("api.code_sent") });
    case "signed_in": {
      const { token, session } = await openSession(db, {
        userId: outcome.user.id,
        merchantId: outcome.user.merchant_id,
        kind: "api",
        ip,
        userAgent: request.headers.get("User-Agent"),
      });
      const tokens = await issueApiTokens(db, { sessionId: session.id, userId: outcome.user.id, secret });
      return apiJson({ ...tokens, sessionid: token });
    }
  }
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
