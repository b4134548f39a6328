import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import { env } from "~/lib/env.server";
import { publicBaseUrl } from "./sign-in.server";

/**
 * Where browsers reach this platform (BASE_URL, else the request's own address) and where the
 * platform reaches itself server-to-server (its own sandboxes, for instance).
 */
export function platformAddresses(request: Request): PlatformAddresses {
  return { ...backgroundAddresses(), publicBaseUrl: publicBaseUrl(request) };
}

/** The same for work done outside a request (the reconciler): BASE_URL, else the server's own address; and the configured address a gateway's server is given. */
export function backgroundAddresses(): PlatformAddresses {
  const config = env();
  const internalBaseUrl = (config.INTERNAL_BASE_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, "");
  const configuredBaseUrl = (config.BASE_URL ?? internalBaseUrl).replace(/\/$/, "");
  return { publicBaseUrl: configuredBaseUrl, internalBaseUrl, configuredBaseUrl };
}
