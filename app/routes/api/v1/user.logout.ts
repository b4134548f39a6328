import type { Route } from "./+types/user.logout";
import { signOut } from "~/domain/identity/sessions.server";
import { apiJson, methodNotAllowed, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** POST with a bearer token: ends the session behind it (both tokens stop working). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, sessionId } = await requireApiUser(request, context);
  const db = getDbFrom(context);
  await signOut(db, { user, sessionId, ip: context.get(clientAddressContext) });
  return apiJson({ success: true });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
