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
  /** Shown by a hosted payment page that names the merchant (MPGS's interaction.merchant), when known. */
  merchant?: { name: string; logoUrl: string | null };
  /** What the customer pays for (the order number), when known. */
  description?: string;
};

/** An attempt as started at its gateway: what the gateway answered at start, kept with it. */
export type StartedAttempt = AttemptForGateway & {
  gatewayReference: string | null;
  /** What a return must carry to be the payer's success, when the gateway gave one at start (MPGS's successIndicator). */
  returnSecret: string | null;
};

/**
 * Addresses on this platform the gateway sends the customer or its messages back to, each
 * `/gateway/<kind>/<leg>/<attempt id>`. What arrives at one is read by the adapter's leg of that
 * name (`GatewayAdapter.legs`); a kind uses the legs it needs.
 */
export type PlatformUrls = {
  /** Where the result comes back: KNET's responseURL (its server), the hosted page's returnUrl (the browser). */
  response: string;
  /** Where the gateway sends the browser when it could not process the payment (KNET's errorURL). */
  error: string;
  /** The gateway's own server-to-server notifications. */
  notify: string;
};

export type LegName = keyof PlatformUrls;

/** A request that reached one of the attempt's gateway addresses, as received. */
export type GatewayMessage = {
  method: "GET" | "POST";
  headers: Headers;
  query: URLSearchParams;
  /** The raw body, bounded by the route. */
  body: string;
};

/** A gateway's message kept as received (KNET's encrypted result and its plain text) with what we made of it. */
export type GatewayEvidence = { received: string; plain: string };

/** What an adapter makes of a message, before the payment core holds it against the attempt. */
export type MessageReading =
  /** A result the gateway vouches for (decrypted or verified with the terminal's secret). */
  | { kind: "result"; outcome: GatewayOutcome; trackId: string; evidence?: GatewayEvidence }
  /** A message that proves nothing (the browser back, an unsigned error report): the gateway is asked, server-side. */
  | { kind: "ask" }
  /** A message that proves nothing and needs nothing (an unencrypted error the gateway sends its server to server). */
  | { kind: "acknowledge" }
  /** Not the gateway's, or not for this attempt: nothing is recorded but the evidence. */
  | { kind: "refuse"; reason: string; evidence?: GatewayEvidence };

/** How a leg answers a gateway's server: a body in plain text or JSON; the route gives the status of what the core decided. (A browser is always sent to the result page.) */
export type LegAnswer = { format: "text" | "json"; body: string };

/** What the core decided of a message, for the leg to answer in its gateway's words. */
export type LegHandled =
  { accepted: true; resultPageUrl: string } | { accepted: false; unknownPayment: boolean; reason: string };

/** One of a gateway's addresses on this platform. */
export type GatewayLeg = {
  /** Who calls it: the gateway's own server (answered as the gateway expects) or the customer's browser (sent to the result page). */
  from: "gateway" | "browser";
  methods: readonly ("GET" | "POST")[];
  read(config: GatewayConfig, attempt: StartedAttempt, message: GatewayMessage): MessageReading;
  /** The answer the gateway's server expects (legs `from: "gateway"`). */
  answer?(handled: LegHandled): LegAnswer;
};

/** A wallet's payment token (Apple Pay, Google Pay), handed to the gateway as a device payment. */
export type WalletPayment = { provider: "apple_pay" | "google_pay"; token: string };

export type StartResult =
  { kind: "redirect"; url: string; gatewayReference?: string; returnSecret?: string } | { kind: "cod" };

export type GatewayReferences = {
  paymentId?: string;
  tranId?: string;
  authCode?: string;
  referenceId?: string;
  postDate?: string;
  resultCode?: string;
  /** The card as the acquirer masks it; anything that is not first six, stars, last four is not kept. */
  cardMasked?: string;
  /** The 3-D Secure outcome as the gateway reports it (e.g. MPGS's AUTHENTICATION_SUCCESSFUL). */
  authentication?: string;
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
export type OperationInquiry =
  { status: "succeeded"; reference?: string } | { status: "failed"; message: string } | { status: "not_found" };

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
  /** Its addresses on this platform, by leg; a message to a leg it lacks is not found. */
  legs?: Partial<Record<LegName, GatewayLeg>>;
  /**
   * Pays the attempt with a wallet token in one server call (no hosted page). Its answer is the
   * gateway's own, asked from this server, and settles the attempt (held to its total); when it
   * throws, the outcome is unknown and `inquire` decides. The token is the wallet's as the page
   * received it: Apple Pay's `ApplePayPayment.token` as JSON, Google Pay's `tokenizationData.token`.
   */
  payWithWallet?(
    config: GatewayConfig,
    attempt: AttemptForGateway,
    wallet: WalletPayment,
  ): Promise<GatewayOutcome & { gatewayReference?: string }>;
  start(config: GatewayConfig, attempt: AttemptForGateway, urls: PlatformUrls): Promise<StartResult>;
  /** The gateway's own answer, asked from this server; the only thing besides a verified message that decides an outcome. */
  inquire(
    config: GatewayConfig,
    attempt: AttemptForGateway & { gatewayReference: string | null },
  ): Promise<GatewayOutcome>;
  /**
   * Refund, capture and void. Given `reference`, the gateway does the operation once however often
   * it is sent, and `inquireOperation` finds it by that reference. Refusals are answers; a transport
   * failure or an unexpected answer throws (the outcome is unknown).
   */
  capture(
    config: GatewayConfig,
    attempt: OperationTarget,
    amount: number,
    reference?: string,
  ): Promise<OperationResult>;
  refund(config: GatewayConfig, attempt: OperationTarget, amount: number, reference?: string): Promise<OperationResult>;
  void(config: GatewayConfig, attempt: OperationTarget, reference?: string): Promise<OperationResult>;
  /** What became of an operation sent under our reference: done, refused, or never received. Throws when the gateway cannot say. */
  inquireOperation(
    config: GatewayConfig,
    attempt: OperationTarget,
    operation: GatewayOperation,
  ): Promise<OperationInquiry>;
  /** The gateway's books for payments created in [from, to), when it publishes them; without, reconciliation asks per attempt. */
  listSettlements?(config: GatewayConfig, range: { from: string; to: string }): Promise<SettlementEntry[]>;
  /**
   * "Test connection": asks the gateway something only these credentials get an answer to (an
   * inquiry about a payment that does not exist). `ok: false` when the gateway refused them;
   * throws when it could not be reached. `detail` describes the answer, never a credential.
   */
  testConnection?(config: GatewayConfig): Promise<{ ok: boolean; detail: string }>;
}
