import type { Route } from "./+types/apple-pay-domain";
import { domainAssociationFile } from "~/domain/payments/wallet-settings.server";
import { getDbFrom } from "~/web/request-context.server";

/** Apple checks this file to verify the domain the pay pages are served from (decision 0039): as stored, or 404. */
export async function loader({ context }: Route.LoaderArgs) {
  const file = await domainAssociationFile(getDbFrom(context));
  if (file === null) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(file, { headers: { "Content-Type": "text/plain", "Cache-Control": "no-cache" } });
}
