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
  /** The card as the acquirer masks it; anything that is not first six, stars, last four is not kept. */
  cardMasked?: string;
};

export type GatewayOutcome = {
  status: "success" | "authorized" | "failed" | "canceled" | "pending" | "error";
  /** Minor units the gateway says it charged or authorized, when it says. */
  amount?: number;
  refs: GatewayReferences;
};

export type OperationResult = { ok: true; reference?: string } | { ok: false; message: string };

/** The attempt an operation takes money from, as the gateway knows it. */
export type OperationTarget = { gatewayReference: string | null; trackId: string; paymentId: string | null };

/** A refund, capture or void as sent to the gateway: `reference` is ours, unique, and makes it happen once. */
export type GatewayOperation = { kind: "refund" | "capture" | "void"; amount: number; reference: string };

/** What the gateway says of an operation we sent (or meant to send) under our reference. */
export type OperationInquiry = { status: "succeeded"; reference?: string } | { status: "failed"; message: string } | { status: "not_found" };

/** One payment in the gateway's books (its settlement list), with the refunds taken from it. */
export type SettlementEntry = {
  /** Our track id, as the gateway was given it. */
  reference: string;
  paymentId: string;
  status: "captured" | "authorized" | "other";
  /** Minor units captured (or authorized). */
  amount: number;
  refunded: number;
  currency: string;
  createdAt: string;
};

export interface GatewayAdapter {
  start(config: GatewayConfig, attempt: AttemptForGateway, urls: PlatformUrls): Promise<StartResult>;
  /** The gateway's own answer, asked from this server; the only thing besides a verified message that decides an outcome. */
  inquire(config: GatewayConfig, attempt: AttemptForGateway & { gatewayReference: string | null }): Promise<GatewayOutcome>;
  /**
   * Refund, capture and void. Given `reference`, the gateway does the operation once however often
   * it is sent, and `inquireOperation` finds it by that reference. Refusals are answers; a transport
   * failure or an unexpected answer throws (the outcome is unknown).
   */
  capture(config: GatewayConfig, attempt: OperationTarget, amount: number, reference?: string): Promise<OperationResult>;
  refund(config: GatewayConfig, attempt: OperationTarget, amount: number, reference?: string): Promise<OperationResult>;
  void(config: GatewayConfig, attempt: OperationTarget, reference?: string): Promise<OperationResult>;
  /** What became of an operation sent under our reference: done, refused, or never received. Throws when the gateway cannot say. */
  inquireOperation(config: GatewayConfig, attempt: OperationTarget, operation: GatewayOperation): Promise<OperationInquiry>;
  /** The gateway's books for payments created in [from, to), when it publishes them; without, reconciliation asks per attempt. */
  listSettlements?(config: GatewayConfig, range: { from: string; to: string }): Promise<SettlementEntry[]>;
  /**
   * "Test connection": asks the gateway something only these credentials get an answer to (an
   * inquiry about a payment that does not exist). `ok: false` when the gateway refused them;
   * throws when it could not be reached. `detail` describes the answer, never a credential.
   */
  testConnection?(config: GatewayConfig): Promise<{ ok: boolean; detail: string }>;
}
