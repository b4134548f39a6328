import { log } from "~/lib/log.server";
import type { Route } from "./+types/api-wallet-log";
import { readBody, str } from "~/web/api.server";

/**
 * POST {provider, event, detail?}: a wallet's payment sheet canceled or failed on the customer's
 * device (public spec §8: only logged). Nothing changes; the page stays as it was.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const body = await readBody(request);
  const provider = str(body.provider, 20).replace(/[^a-z_]/g, "");
  const event = str(body.event, 40).replace(/[^a-z_]/g, "");
  // The pay link's id opens the customer's page: it is not written.
  log.info({ provider, event, detail: str(body.detail, 200) }, "wallet");
  return new Response(null, { status: 204 });
}
