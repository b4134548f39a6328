import { sandboxEnabled } from "~/lib/env.server";

/**
 * Every sandbox page and endpoint starts here: with the sandboxes off (production) they do not
 * exist, and answer 404 like any unknown address (decision 0014).
 */
export function requireSandbox() {
  if (!sandboxEnabled()) throw new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
}
