import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { signOut } from "~/domain/identity/sessions.server";
import { flashCookie } from "~/web/flash.server";
import { authContext, clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { clearSessionCookie } from "~/web/session-cookie.server";
import { readFormData } from "~/web/form-data.server";

export async function action({ request, context, params }: Route.ActionArgs) {
  const auth = context.get(authContext);
  const formData = await readFormData(request);
  const expired = formData.get("reason") === "expired";
  if (auth) {
    const db = getDbFrom(context);
    await signOut(db, { user: auth.user, sessionId: auth.sessionId, ip: context.get(clientAddressContext), expired });
  }
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  headers.append(
    "Set-Cookie",
    flashCookie({ kind: "info", message: expired ? "session.expired" : "session.signed_out" }),
  );
  return redirect(`/${params.lang}/login`, { headers });
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${params.lang}`);
}
