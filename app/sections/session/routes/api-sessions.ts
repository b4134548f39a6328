import type { Route } from "./+types/api-sessions";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
  userOnPlugin,
} from "~/web/api.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { describe } from "~/presentation/texts.server";
import type { TextParams } from "~/lib/outcome";
import { requireTransactionSection } from "~/sections/transaction-api.server";
import { requestMaker } from "~/sections/services.server";
import { SessionSchema, issuesAsErrors } from "../domain/session-schema";
import {
  createSession,
  findSession,
  findSessionByOrderNo,
  offersSessions,
  serializeSession,
} from "../domain/sessions.server";

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
  if (body.type !== "e_commerce" && body.type !== "payment_request")
    return apiErrors(request, { type: ["sessions.errors.type"] });
  // The key must be granted the section its session's payment belongs to.
  const { user, db } = await requireTransactionSection(request, context, body.type);
  if (!(await offersSessions(db, user.merchantId))) throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, "add_paymenttransaction");
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: "checkout_session.create", body },
    async () => {
      const parsed = SessionSchema.safeParse(body);
      const translate = (errors: Record<string, string[]>, params?: TextParams) =>
        Object.fromEntries(
          Object.entries(errors).map(([field, keys]) => [field, keys.map((key) => describe(key, params, lang))]),
        );
      if (!parsed.success) return { status: 400, body: translate(issuesAsErrors(parsed.error.issues)) };
      const made = await createSession(db, {
        merchantId: user.merchantId,
        user: { id: user.id, username: user.username },
        request: parsed.data,
        lang,
        makeRequest: requestMaker(),
      });
      if (!made.ok) {
        // The order has its session already (a response lost on the way): name it, so the caller can read it.
        const existing =
          made.errors.order_no && parsed.data.order_no
            ? await findSessionByOrderNo(db, user.merchantId, parsed.data.order_no)
            : undefined;
        return {
          status: 400,
          body: { ...translate(made.errors, made.params), ...(existing ? { session_id: existing.id } : {}) },
        };
      }
      const session = await findSession(db, user.merchantId, made.sessionId);
      return { status: 201, body: await serializeSession(db, session!, linkBaseUrl()) };
    },
  );
}

/** GET ?order_no=: the caller's session for one of its orders, as GET pymt-txn/{id} answers it; 404 when it has none. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const orderNo = new URL(request.url).searchParams.get("order_no")?.trim();
  if (!orderNo) return apiErrors(request, { order_no: ["errors.required"] });
  const session = (await offersSessions(db, signedIn.merchantId))
    ? await findSessionByOrderNo(db, signedIn.merchantId, orderNo.slice(0, 100))
    : undefined;
  const user = session ? userOnPlugin(signedIn, session.type) : null;
  if (!session || !user || !hasFeature(await loadAvailableSections(db, user.merchantId), session.type, "transactions"))
    throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, "view_paymenttransaction");
  return apiJson(await serializeSession(db, session, linkBaseUrl()));
}
