import { randomBytes } from "node:crypto";
import type { Route } from "./+types/apple-pay-session";
import { sha256 } from "~/lib/crypto.server";
import { now } from "~/lib/clock.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

/**
 * The stand-in for Apple's merchant validation (`…/paymentservices/paymentSession`): given the
 * merchant identifier, display name, initiative `web` and the domain, it answers a merchant session
 * of Apple's shape, opaque to the platform, which hands it to the browser. Anything less is refused
 * as Apple refuses it.
 */
export async function action({ request }: Route.ActionArgs) {
  requireSandbox();
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
  const text = (name: string) => (body && typeof body[name] === "string" ? (body[name] as string) : "");
  if (
    !text("merchantIdentifier").startsWith("merchant.") ||
    !text("displayName") ||
    text("initiative") !== "web" ||
    !text("initiativeContext")
  ) {
    return Response.json(
      { statusMessage: "Payment Services Exception merchantId or domain not registered", statusCode: "400" },
      { status: 400 },
    );
  }
  const issued = now().getTime();
  return Response.json({
    epochTimestamp: issued,
    expiresAt: issued + 60 * 60_000,
    merchantSessionIdentifier: `SSH${randomBytes(16).toString("hex").toUpperCase()}`,
    nonce: randomBytes(4).toString("hex"),
    merchantIdentifier: sha256(text("merchantIdentifier")).toUpperCase(),
    domainName: text("initiativeContext"),
    displayName: text("displayName"),
    signature: randomBytes(64).toString("base64"),
    operationalAnalyticsIdentifier: `${text("displayName")}:${sha256(text("merchantIdentifier")).toUpperCase()}`,
    retries: 0,
  });
}
