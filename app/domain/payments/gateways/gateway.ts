/**
 * The one interface every payment gateway sits behind. The platform's payment logic talks only
 * to this; each adapter speaks its gateway's own protocol over HTTP. Going live with a real
 * gateway is a change of endpoint and credentials, not of code.
 */

export type GatewayConfig = {
  code: string;
  /** A key of GATEWAY_KINDS (gateways/registry.ts). */
  kind: string;
  /** Secret settings (tranportal id and password, resource key, API key, webhook secret…). */
  credentials: Record<string, string>;
  captureMode: "auto" | "manual";
  endpoints: {
    /** Where the customer's browser is sent (the gateway's public host). */
    browser: string;
    /** Where this server calls the gateway (the same host for a real gateway). */
    server: string;
  };
};

/** What the gateway is asked to charge, identified by our own unique track id. */
export type AttemptForGateway = {
  id: string;
  trackId: string;
  /** Minor units, fee included when the customer pays it. */
  total: number;
  currency: string;
  lang: "en" | "ar";
};

/** Addresses on this platform the gateway sends the customer or its messages back to. */
export type PlatformUrls = {
  /** KNET responseURL / card return URL: the customer's browser comes back here. */
  response: string;
  /** KNET errorURL. */
  error: string;
  /** Server-to-server notifications (card). */
  notify: string;
};

export type StartResult = { kind: "redirect"; url: string; gatewayReference?: string } | { kind: "cod" };

export type GatewayReferences = {
  paymentId?: string;
  tranId?: string;
  authCode?: string;
  referenceId?: string;
  postDate?: string;
  resultCode?: string;
};

export type GatewayOutcome = {
  status: "success" | "authorized" | "failed" | "canceled" | "pending" | "error";
  /** Minor units the gateway says it charged or authorized, when it says. */
  amount?: number;
  refs: GatewayReferences;
};

export type OperationResult = { ok: true; reference?: string } | { ok: false; message: string };

export interface GatewayAdapter {
  start(config: GatewayConfig, attempt: AttemptForGateway, urls: PlatformUrls): Promise<StartResult>;
  /** The gateway's own answer, asked from this server; the only thing besides a verified message that decides an outcome. */
  inquire(config: GatewayConfig, attempt: AttemptForGateway & { gatewayReference: string | null }): Promise<GatewayOutcome>;
  capture(config: GatewayConfig, attempt: { gatewayReference: string | null; trackId: string }, amount: number): Promise<OperationResult>;
  refund(config: GatewayConfig, attempt: { gatewayReference: string | null; trackId: string; paymentId: string | null }, amount: number): Promise<OperationResult>;
  void(config: GatewayConfig, attempt: { gatewayReference: string | null; trackId: string }): Promise<OperationResult>;
}
