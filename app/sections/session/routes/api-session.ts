import type { Route } from "./+types/api-session";
import type { RouterContextProvider } from "react-router";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import type { Permission } from "~/domain/identity/permissions";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import {
  apiDetail,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
  userOnPlugin,
} from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { issuesAsErrors, SessionChangesSchema } from "../domain/session-schema";
import { changeSession, findSession, offersSessions, serializeSession } from "../domain/sessions.server";

/**
 * The session of the caller's merchant, as the caller may act on it: a key needs the grants of the
 * session's type; another merchant's session answers 404, as an unknown one does.
 */
async function requireSession(
  request: Request,
  context: Readonly<RouterContextProvider>,
  sessionId: string,
  permission: Permission,
) {
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const session = (await offersSessions(db, signedIn.merchantId))
    ? await findSession(db, signedIn.merchantId, sessionId)
    : undefined;
  const user = session ? userOnPlugin(signedIn, session.type) : null;
  if (!session || !user || !hasFeature(await loadAvailableSections(db, user.merchantId), session.type, "transactions"))
    throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, permission);
  return { db, user, session };
}

/** GET: the session, its state, what was paid and refunded, and its attempts. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db, session } = await requireSession(request, context, params.sessionId, "view_paymenttransaction");
  return apiJson(await serializeSession(db, session, linkBaseUrl()));
}

/**
 * PATCH: the cart changed — the same session takes a new amount, customer, pg_codes, expiry or
 * addresses while unpaid and no attempt is being paid. Idempotency-Key honoured.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const { db, user, session } = await requireSession(request, context, params.sessionId, "change_paymenttransaction");
  const body = await readBody(request);
  const lang = apiLanguage(request);
  const translate = (errors: Record<string, string[]>, params?: TextParams) =>
    Object.fromEntries(
      Object.entries(errors).map(([field, keys]) => [field, keys.map((key) => describe(key, params, lang))]),
    );
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: `checkout_session.change.${session.id}`, body },
    async () => {
      const parsed = SessionChangesSchema.safeParse(body);
      if (!parsed.success) return { status: 400, body: translate(issuesAsErrors(parsed.error.issues)) };
      const changed = await changeSession(db, {
        merchantId: user.merchantId,
        user: { id: user.id, username: user.username },
        sessionId: session.id,
        changes: parsed.data,
      });
      if (!changed.ok)
        return "notFound" in changed
          ? { status: 404, body: { detail: describe("api.not_found", undefined, lang) } }
          : { status: 400, body: translate(changed.errors, changed.params) };
      return {
        status: 200,
        body: await serializeSession(db, (await findSession(db, user.merchantId, session.id))!, linkBaseUrl()),
      };
    },
  );
}
