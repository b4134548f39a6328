import type { Route } from "./+types/user.verify-otp";
import { issueApiTokens } from "~/domain/identity/api-tokens.server";
import { verifyLoginCode } from "~/domain/identity/login.server";
import { openSession } from "~/domain/identity/sessions.server";
import { apiDetail, apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, str } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { getAppSecret } from "~/lib/secret.server";

/** POST code, username → tokens. A wrong code is a field error; an expired one is not. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const body = await readBody(request);
  const username = str(body.username, 150).trim();
  const code = str(body.code, 20).trim();
  const errors: Record<string, string[]> = {};
  if (!username) errors.username = ["errors.required"];
  if (!code) errors.code = ["errors.required"];
  else if (!/^\d{6}$/.test(code)) errors.code = ["login.code_format"];
  if (Object.keys(errors).length) return apiErrors(request, errors);

  const db = getDbFrom(context);
  const secret = await getAppSecret(db);
  const ip = context.get(clientAddressContext);
  const outcome = await verifyLoginCode(db, { username, code, ip, lang: apiLanguage(request), secret });
  switch (outcome.status) {
    case "wrong_code":
      return apiErrors(request, { code: ["login.wrong_code"] });
    case "no_challenge":
      return apiErrors(request, { non_field_errors: ["login.code_expired"] });
    case "throttled":
      return apiDetail(request, "login.throttled", 429);
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
