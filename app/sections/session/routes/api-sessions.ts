import type { Route } from "./+types/api-sessions";
import { respondOnce } from "~/web/idempotency.server";
import { apiDetail, apiErrors, apiLanguage, methodNotAllowed, readBody, requireApiPermission, requireApiUser } from "~/web/api.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { describe } from "~/presentation/texts.server";
import type { TextParams } from "~/lib/outcome";
import { requireTransactionSection } from "~/routes/api/v1/plugins/transaction-api.server";
import { requestMaker } from "~/sections/registry.server";
import { SessionSchema, issuesAsErrors } from "../domain/session-schema";
import { createSession, findSession, offersSessions, serializeSession } from "../domain/sessions.server";

/**
 * POST: a merchant's server asks for a checkout session (Api-Key or bearer token): `type`
 * e_commerce or payment_request, the amount as a decimal string, currency_code, pg_codes, the
 * customer, its own order_no (one session per order), redirect_url, webhook_url, expiration_time.
 * Answers 201 with session_id, checkout_url and the session. Idempotency-Key: the same key and
 * body answer the first response again; another body is refused.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  await requireApiUser(request, context, { apiKey: true });
  const body = await readBody(request);
  const lang = apiLanguage(request);
  if (body.type !== "e_commerce" && body.type !== "payment_request") return apiErrors(request, { type: ["sessions.errors.type"] });
  // The key must be granted the section its session's payment belongs to.
  const { user, db } = await requireTransactionSection(request, context, body.type);
  if (!(await offersSessions(db, user.merchantId))) throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, "add_paymenttransaction");
  return respondOnce(request, { db, merchantId: user.merchantId, scope: "checkout_session.create", body }, async () => {
    const parsed = SessionSchema.safeParse(body);
    const translate = (errors: Record<string, string[]>, params?: TextParams) =>
      Object.fromEntries(Object.entries(errors).map(([field, keys]) => [field, keys.map((key) => describe(key, params, lang))]));
    if (!parsed.success) return { status: 400, body: translate(issuesAsErrors(parsed.error.issues)) };
    const made = await createSession(db, { merchantId: user.merchantId, user: { id: user.id, username: user.username }, request: parsed.data, lang, makeRequest: requestMaker() });
    if (!made.ok) return { status: 400, body: translate(made.errors, made.params) };
    const session = await findSession(db, user.merchantId, made.sessionId);
    return { status: 201, body: await serializeSession(db, session!, linkBaseUrl()) };
  });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
