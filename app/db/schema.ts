import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

/** Timestamps travel as ISO-8601 UTC strings on both engines (see docs/decisions/0002). */
type Timestamp = string;
/** Booleans are stored as 0/1 integers on both engines (see docs/decisions/0002). */
type Flag = ColumnType<number, number | undefined, number>;

export interface MerchantTable {
  id: Generated<number>;
  name: string;
  country_code: string;
  currency_code: string;
  title: string;
  title_en: string;
  title_ar: string;
  subheader: string | null;
  logo_url: string | null;
  favicon_url: string | null;
  admin_url: string | null;
  website_url: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  /** The merchant's disclaimer under the pay button, per language; null keeps the platform's (migration 0016). */
  disclaimer_en: ColumnType<string | null, string | null | undefined, string | null>;
  disclaimer_ar: ColumnType<string | null, string | null | undefined, string | null>;
  operations_approval: Flag;
  is_active: Flag;
  created_at: Timestamp;
}

export interface UnitTable {
  id: Generated<number>;
  merchant_id: number;
  name: string;
  title_en: string;
  title_ar: string;
  logo_url: string | null;
  header_color: string;
  website: string | null;
  instagram_url: string | null;
  twitter_url: string | null;
  facebook_url: string | null;
  show_unit_title: Flag;
  is_default: Flag;
  terms_en: string | null;
  terms_ar: string | null;
  created_at: Timestamp;
}

export interface UserTable {
  id: Generated<number>;
  merchant_id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  is_superuser: Flag;
  is_active: Flag;
  requires_otp: Flag;
  receive_order_notification: Flag;
  created_at: Timestamp;
  password_changed_at: Timestamp | null;
  last_login_at: Timestamp | null;
  /** `person`, or `api_key`: the user an API key acts as, which nobody signs in as (migration 0013). */
  kind: ColumnType<"person" | "api_key", "person" | "api_key" | undefined, "person" | "api_key">;
  /** A platform operator: creates merchants on this installation (migration 0013); sees no merchant's data for it. */
  is_operator: Flag;
  /** The language the user last signed in with, for mails that answer nothing they did (migration 0037). */
  language: ColumnType<string, string | undefined, string>;
}

export interface UserPermissionTable {
  user_id: number;
  permission: string;
}

export interface SessionTable {
  /** SHA-256 of the secret the client holds; the secret itself is never stored. */
  id: string;
  user_id: number;
  merchant_id: number;
  kind: "web" | "api";
  refresh_token_hash: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

/** A refresh token rotated away: using it again means it was copied, and its session ends. */
export interface RetiredRefreshTokenTable {
  token_hash: string;
  session_id: string;
  user_id: number;
  retired_at: Timestamp;
  /** When its session would have ended anyway; the row is of no use after that. */
  expires_at: Timestamp;
}

export interface LoginChallengeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface PasswordResetTable {
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** `reset` (forgotten password) or `invitation` (a new user sets a first password). */
  purpose: ColumnType<"reset" | "invitation", "reset" | "invitation" | undefined, "reset" | "invitation">;
}

export interface ThrottleHitTable {
  id: Generated<number>;
  bucket: string;
  hit_at: Timestamp;
}

export interface MerchantFeatureTable {
  merchant_id: number;
  section: string;
  /** '' stands for the section itself. */
  feature: string;
}

export interface MerchantPluginTable {
  merchant_id: number;
  plugin: string;
  installed_at: Timestamp;
}

export interface SectionSettingTable {
  merchant_id: number;
  section: string;
  /** JSON: the section's declared settings by name; a field not stored has its default. */
  settings: string;
  updated_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  merchant_id: number | null;
  actor_user_id: number | null;
  actor_name: string;
  action: string;
  /** JSON of the values the entry is written out with (audit.<action>); null on entries older than that. */
  params: ColumnType<string | null, string | null | undefined, string | null>;
  object_type: string | null;
  object_id: string | null;
  description: string;
  ip: string | null;
  /** The request (or `job-<id>`) that wrote it, as its log lines name it (migration 0041). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface OutgoingMailTable {
  id: Generated<number>;
  merchant_id: number | null;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  /** The same mail as HTML (migration 0011); null for mails written before it. */
  html_body: ColumnType<string | null, string | null | undefined, string | null>;
  status: "stored" | "queued" | "sent" | "failed";
  created_at: Timestamp;
  sent_at: Timestamp | null;
  error: string | null;
  /** JSON of the files the mail carries, made when it is read or sent (migration 0018): `[{ type, ref, filename }]`. */
  attachments: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface JobTable {
  id: Generated<number>;
  type: string;
  payload: string;
  status: "queued" | "running" | "done" | "failed";
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  locked_by: string | null;
  locked_at: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface AppSettingTable {
  key: string;
  value: string;
}

/** The installation's wallet settings, one row (id 1; migration 0040, decision 0039). */
export interface WalletSettingTable {
  id: number;
  /** Apple's merchant identifier, `merchant.<reverse domain>`. */
  apple_merchant_identifier: string | null;
  /** The name Apple shows on the payment sheet's merchant session. */
  apple_display_name: string | null;
  /** The file Apple gives for the domain, served as it is at /.well-known/apple-developer-merchantid-domain-association. */
  apple_domain_association: string | null;
  /** PEM, sealed: the merchant identity certificate Apple's merchant validation is called with. */
  apple_identity_certificate: string | null;
  /** PEM, sealed: its private key. */
  apple_identity_key: string | null;
  /** Google Pay's merchant id (its business console), needed in production. */
  google_merchant_id: string | null;
  updated_at: Timestamp;
}

export interface GatewayTable {
  id: Generated<number>;
  merchant_id: number;
  code: string;
  /** A key of GATEWAY_KINDS (domain/payments/gateways/registry.ts). */
  kind: string;
  name_en: string;
  name_ar: string;
  logo_url: string | null;
  /** Comma-separated ISO 4217 codes. */
  currencies: string;
  /** The gateway's base URL; null means this platform's own sandbox at its own address. */
  endpoint_url: string | null;
  /** JSON, secret: never sent to a browser. */
  credentials: string;
  fee_fixed: number;
  fee_basis_points: number;
  fee_payer: "customer" | "merchant";
  capture_mode: "auto" | "manual";
  enabled: Flag;
  sort_order: number;
  created_at: Timestamp;
  /** `test` or `live`: which of its terminals the gateway is (shown to staff; migration 0013). */
  mode: ColumnType<"test" | "live", "test" | "live" | undefined, "test" | "live">;
  /** When the credentials were last entered; null: never entered through the panel. */
  credentials_set_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export type TransactionState =
  | "created"
  | "pending"
  | "attempted"
  | "authorized"
  | "paid"
  | "cod"
  | "failed"
  | "canceled"
  | "expired"
  | "invalid"
  | "refunded"
  | "voided";

export interface TransactionTable {
  /** Public and unguessable (128 random bits): it is the pay link. */
  id: string;
  merchant_id: number;
  unit_id: number | null;
  plugin: string;
  /** Short, sequential per merchant, for people. */
  order_no: number;
  state: TransactionState;
  amount: number;
  currency_code: string;
  editable_amount: Flag;
  /** What a customer may pay on an editable amount, in minor units (decision 0015); null when not editable. */
  min_amount: ColumnType<number | null, number | null | undefined, number | null>;
  max_amount: ColumnType<number | null, number | null | undefined, number | null>;
  customer_email: string | null;
  customer_phone: string | null;
  customer_first_name: string | null;
  customer_last_name: string | null;
  description: string | null;
  remarks: string | null;
  attachment_path: string | null;
  attachment_name: string | null;
  /** Comma-separated gateway codes the customer may choose from. */
  pg_codes: string;
  expiration_time: Timestamp | null;
  next_url: string | null;
  initiator_user_id: number | null;
  paid_amount: ColumnType<number, number | undefined, number>;
  fee: ColumnType<number, number | undefined, number>;
  captured_amount: ColumnType<number, number | undefined, number>;
  refunded_amount: ColumnType<number, number | undefined, number>;
  gateway_code: string | null;
  paid_attempt_id: string | null;
  send_email: Flag;
  send_sms: Flag;
  /** What the customer is asked before paying: nothing, an address, or an address and a map location. */
  delivery_mode: ColumnType<
    "none" | "address" | "address_location",
    "none" | "address" | "address_location" | undefined,
    "none" | "address" | "address_location"
  >;
  /** JSON of the customer's delivery address (public spec §3 customer address info). */
  delivery_address: ColumnType<string | null, string | null | undefined, string | null>;
  delivery_lat: ColumnType<number | null, number | null | undefined, number | null>;
  delivery_lng: ColumnType<number | null, number | null | undefined, number | null>;
  delivery_confirmed_at: ColumnType<string | null, string | null | undefined, string | null>;
  extra: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  state_changed_at: Timestamp;
  deleted_at: Timestamp | null;
  seen: Flag;
  email_seen: Flag;
  disclosed_to_merchant: ColumnType<number, number | undefined, number>;
  product_type: ColumnType<string | null, string | null | undefined, string | null>;
  bulk_id: ColumnType<number | null, number | null | undefined, number | null>;
  voided_amount: ColumnType<number, number | undefined, number>;
  customer_email_lc: ColumnType<string | null, string | null | undefined, string | null>;
  /** Paid after it was canceled or deleted: `canceled` or `deleted` (null otherwise). */
  paid_late: ColumnType<
    "canceled" | "deleted" | null,
    "canceled" | "deleted" | null | undefined,
    "canceled" | "deleted" | null
  >;
}

export type OperationKind = "refund" | "capture" | "void";

export interface TransactionOperationTable {
  id: Generated<number>;
  merchant_id: number;
  transaction_id: string;
  kind: OperationKind;
  /**
   * pending while the gateway is asked, or until the reconciler learns what it did; its amount is
   * reserved meanwhile. attention: the gateway could not say for a long time, a person must look
   * (the amount stays reserved).
   */
  state: OperationState;
  amount: number;
  currency_code: string;
  gateway_code: string;
  gateway_reference: string | null;
  message: string | null;
  requested_by: number | null;
  approval_request_id: number | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  /** The captured attempt the money comes from; null on operations older than this column (the transaction's paid attempt). */
  attempt_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Ours, unique, sent to the gateway so that the operation happens once and can be asked about. */
  reference: ColumnType<string | null, string | null | undefined, string | null>;
  checks: ColumnType<number, number | undefined, number>;
  next_check_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OperationState = "pending" | "succeeded" | "failed" | "attention";

/** Why money is given back by itself (migration 0044): see app/domain/payments/returns.server.ts. */
export type ReturnReason = "order_canceled" | "sold_out" | "paid_twice";

/** A captured payment the platform gives back by itself, once (migration 0044). */
export interface PaymentReturnTable {
  attempt_id: string;
  merchant_id: number;
  transaction_id: string;
  reason: ReturnReason;
  kind: Extract<OperationKind, "refund" | "void">;
  amount: number;
  currency_code: string;
  /** The reference its refund or void is sent to the gateway under (transaction_operations.reference). */
  reference: string;
  /** The merchant's Operations Request, when a checker must approve it. */
  request_id: number | null;
  /** Why it could not be asked for (a refusal's code): staff must look at it. */
  refusal: string | null;
  created_at: Timestamp;
}

export type RequestState = "pending" | "approved" | "rejected" | "canceled" | "expired";

export interface OperationRequestTable {
  id: Generated<number>;
  merchant_id: number;
  transaction_id: string;
  kind: OperationKind;
  amount: number;
  currency_code: string;
  gateway_code: string;
  state: RequestState;
  maker_id: number | null;
  maker_name: string;
  checker_id: number | null;
  checker_name: string | null;
  note: string | null;
  /** What running the approved operation answered, in English (see `result`). */
  result_message: string | null;
  /** JSON {code, params} of that answer, written out in the reader's language. */
  result: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
  decided_at: Timestamp | null;
  /** The duplicate payment this request refunds; null for the transaction's own payment. */
  attempt_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PermissionRequestTable {
  id: Generated<number>;
  merchant_id: number;
  user_id: number;
  permission: string;
  state: RequestState;
  requested_by: number | null;
  requested_by_name: string;
  checker_id: number | null;
  checker_name: string | null;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

export interface TableFieldTable {
  merchant_id: number;
  section: string;
  name: string;
  label_en: string;
  label_ar: string;
  is_active: number;
  position: number;
}

export interface ReportTable {
  id: Generated<number>;
  merchant_id: number;
  user_id: number | null;
  user_name: string;
  section: string;
  file_format: "csv" | "xls";
  language: string;
  /** The list's query string when the export was asked: its filters apply. */
  query: string;
  /** Comma-joined field names. */
  fields: string;
  state: "queued" | "running" | "done" | "failed";
  rows_total: number | null;
  rows_done: ColumnType<number, number | undefined, number>;
  file_path: string | null;
  file_name: string | null;
  file_size: number | null;
  error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface NotificationTable {
  id: Generated<number>;
  merchant_id: number;
  user_id: number;
  kind: string;
  title: string;
  link: string | null;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

export interface LiveMessageTable {
  id: Generated<number>;
  merchant_id: number;
  user_id: number | null;
  permission: string | null;
  type: string;
  data: string;
  created_at: Timestamp;
}

export interface PushSubscriptionTable {
  id: Generated<number>;
  merchant_id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: ColumnType<string, string | undefined, string>;
  /** The sign-in that registered this browser; its end (signing out there) forgets the subscription. */
  session_id: string | null;
  created_at: Timestamp;
}

type Counter = ColumnType<number, number | undefined, number>;

export interface TransactionTotalTable {
  merchant_id: number;
  plugin: string;
  currency_code: string;
  /** Kuwait calendar day, YYYY-MM-DD. */
  day: string;
  generated_count: Counter;
  generated_amount: Counter;
  deleted_count: Counter;
  deleted_amount: Counter;
  received_count: Counter;
  received_amount: Counter;
  refunded_amount: Counter;
}

/** The statistics home's rollup (docs/decisions/0009); `day` is the Kuwait day the transaction was created. */
export interface TransactionStatisticTable {
  merchant_id: number;
  day: string;
  plugin: string;
  currency_code: string;
  gateway_code: string;
  paid_count: Counter;
  paid_amount: Counter;
  attempts_completed: Counter;
  attempts_succeeded: Counter;
}

export type AttemptState = "pending" | "success" | "failed" | "canceled" | "error" | "cod";

export interface PaymentAttemptTable {
  /** Public and unguessable: the result page's address. */
  id: string;
  transaction_id: string;
  merchant_id: number;
  gateway_code: string;
  gateway_kind: string;
  state: AttemptState;
  amount: number;
  fee: number;
  total: number;
  fee_payer: "customer" | "merchant";
  currency_code: string;
  /** Our unique reference sent to the gateway (KNET's trackid). */
  track_id: string;
  /** Makes a double submit of one pay form start one attempt. */
  submission_token: string;
  lang: ColumnType<string, string | undefined, string>;
  gateway_reference: string | null;
  /** Where the customer was sent to pay; a repeated submit is sent there again. */
  redirect_url: string | null;
  payment_id: string | null;
  tran_id: string | null;
  auth_code: string | null;
  reference_id: string | null;
  post_date: string | null;
  result_code: string | null;
  /** The card as the acquirer masks it: first six and last four digits. */
  card_masked: string | null;
  /** What the gateway's return must carry to be the payer's success (MPGS's successIndicator); never shown. */
  return_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** The 3-D Secure outcome as the gateway reported it (MPGS's authenticationStatus). */
  authentication_status: ColumnType<string | null, string | null | undefined, string | null>;
  authorized_only: Flag;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  inquiries: ColumnType<number, number | undefined, number>;
  next_inquiry_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface LedgerEntryTable {
  id: Generated<number>;
  merchant_id: number;
  transaction_id: string;
  attempt_id: string;
  kind: "payment" | "authorization" | "capture" | "refund" | "void";
  amount: number;
  fee: number;
  currency_code: string;
  created_at: Timestamp;
}

export interface IdempotencyKeyTable {
  merchant_id: number;
  key: string;
  scope: string;
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Timestamp;
  /** Until when the request that took the key holds it; null once it answered (decision 0015). */
  locked_until: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OutgoingSmsTable {
  id: Generated<number>;
  merchant_id: number | null;
  to_number: string;
  body: string;
  status: "stored" | "queued" | "sent" | "failed";
  created_at: Timestamp;
  /** The provider's last refusal (migration 0026); the message is `failed` once its job gives up. */
  error: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SandboxKnetTerminalTable {
  tranportal_id: string;
  password: string;
  resource_key: string;
}

export interface SandboxKnetPaymentTable {
  payment_id: string;
  tranportal_id: string;
  track_id: string;
  amount: string;
  action: string;
  lang: string;
  response_url: string;
  error_url: string;
  udf: ColumnType<string, string | undefined, string>;
  result: string | null;
  tran_id: string | null;
  auth_code: string | null;
  reference_id: string | null;
  post_date: string | null;
  card_masked: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  /** When the sandbox voided a captured payment because the merchant's responseURL did not answer REDIRECT= (migration 0038). */
  voided_at: Timestamp | null;
}

/** A gateway message kept as received with what it said (KNET: a result posted to responseURL that decrypted with the terminal's key; migration 0038). */
export interface GatewayMessageTable {
  id: Generated<number>;
  attempt_id: string;
  merchant_id: number;
  digest: string;
  received: string;
  plain: string;
  refusal: string | null;
  received_at: Timestamp;
}

/** The MPGS sandbox's merchants: the merchant id and API password of Basic auth, the webhook secret (migration 0039). */
export interface SandboxMpgsMerchantTable {
  merchant_id: string;
  api_password: string;
  notification_secret: string;
}

/** An order of the MPGS sandbox, opened by INITIATE_CHECKOUT; amounts in minor units. */
export interface SandboxMpgsOrderTable {
  merchant_id: string;
  order_id: string;
  session_id: string | null;
  success_indicator: string | null;
  operation: "PURCHASE" | "AUTHORIZE";
  amount: number;
  currency: string;
  description: string | null;
  merchant_name: string | null;
  locale: string;
  return_url: string | null;
  notification_url: string | null;
  /** order.status: INITIATED, AUTHENTICATION_INITIATED, AUTHORIZED, CAPTURED, PARTIALLY_REFUNDED, REFUNDED, CANCELLED, FAILED… */
  status: string;
  authentication_status: string | null;
  card_masked: string | null;
  card_expiry: string | null;
  total_authorized: ColumnType<number, number | undefined, number>;
  total_captured: ColumnType<number, number | undefined, number>;
  total_refunded: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A transaction of an MPGS sandbox order, identified by the merchant's own transaction id. */
export interface SandboxMpgsTransactionTable {
  merchant_id: string;
  order_id: string;
  transaction_id: string;
  /** transaction.type: AUTHORIZATION, PAYMENT, CAPTURE, REFUND, VOID_AUTHORIZATION… */
  type: string;
  amount: number;
  currency: string;
  result: "SUCCESS" | "FAILURE" | "PENDING";
  gateway_code: string;
  target_transaction_id: string | null;
  authorization_code: string | null;
  receipt: string | null;
  wallet_provider: string | null;
  created_at: Timestamp;
}

export interface ReconciliationRunTable {
  id: Generated<number>;
  /** The merchant whose books were compared; null on runs recorded before runs were per merchant. */
  merchant_id: ColumnType<number | null, number | null | undefined, number | null>;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  /** The Kuwait day whose books were compared. */
  day: string;
  checked: ColumnType<number, number | undefined, number>;
  found: ColumnType<number, number | undefined, number>;
  resolved: ColumnType<number, number | undefined, number>;
  error: string | null;
}

export type DifferenceKind =
  | "missing_payment"
  | "unknown_payment"
  | "amount_mismatch"
  | "missing_refund"
  | "unknown_refund"
  | "operation_unresolved"
  | "attempt_unresolved";

export interface ReconciliationDifferenceTable {
  id: Generated<number>;
  merchant_id: number;
  gateway_code: string;
  kind: DifferenceKind;
  reference: string;
  transaction_id: string | null;
  attempt_id: string | null;
  operation_id: number | null;
  platform_amount: number | null;
  gateway_amount: number | null;
  currency_code: string | null;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  resolved_at: Timestamp | null;
  /** `auto` when a later comparison no longer found it, else the user who marked it resolved. */
  resolved_by: string | null;
  note: string | null;
}

export interface ApiKeyTable {
  id: Generated<number>;
  merchant_id: number;
  /** The user of kind `api_key` the key acts as. */
  user_id: number;
  name: string;
  /** The key's first characters, shown to tell keys apart. */
  prefix: string;
  key_hash: string;
  /** The key before the last rotation, accepted until previous_valid_until. */
  previous_key_hash: string | null;
  previous_valid_until: Timestamp | null;
  /** JSON array of scopes: `plugin:operation`, `plugin`, `*:operation` or `*`. */
  scopes: string;
  /** JSON array of addresses or CIDR ranges; empty: any. */
  allowed_ips: string;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
  created_by: number | null;
  created_at: Timestamp;
  rotated_at: Timestamp | null;
}

export interface WebhookEndpointTable {
  id: Generated<number>;
  merchant_id: number;
  url: string;
  /** JSON array of event types. */
  events: string;
  /** The signing secret, sealed (lib/sealed.server.ts). */
  secret: string;
  enabled: Flag;
  created_by: number | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface WebhookEventTable {
  id: string;
  merchant_id: number;
  type: string;
  /** The exact JSON body every delivery of the event sends. */
  body: string;
  created_at: Timestamp;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  merchant_id: number;
  endpoint_id: number;
  event_id: string;
  attempt: number;
  /** skipped: the endpoint was turned off or deleted before the try. */
  status: "succeeded" | "failed" | "skipped";
  response_code: number | null;
  /** The first 1 KB of the answer. */
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: Timestamp;
}

export interface RoleTable {
  id: Generated<number>;
  merchant_id: number;
  name: string;
  created_at: Timestamp;
}

export interface RolePermissionTable {
  role_id: number;
  permission: string;
}

export interface UserRoleTable {
  user_id: number;
  role_id: number;
}

export interface NotificationTemplateTable {
  merchant_id: number;
  template: string;
  channel: "mail" | "sms";
  lang: "en" | "ar";
  /** A mail's parts; null keeps the default's. */
  subject: string | null;
  heading: string | null;
  intro: string | null;
  action: string | null;
  outro: string | null;
  /** A text message's words. */
  body: string | null;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** How a checkout field's value is checked (domain/payments/checkout-fields.ts). */
export type CheckoutValidator = "text" | "email" | "phone" | "digits" | "civil_id" | "number";

/** A field a merchant asks customers to fill in on a section's pay page (migration 0017). */
export interface CheckoutFieldTable {
  id: Generated<number>;
  merchant_id: number;
  /** The section's key. */
  section: string;
  /** The key of its value in transactions.extra; never changes once made. */
  name: string;
  label_en: string;
  label_ar: string;
  placeholder_en: string | null;
  placeholder_ar: string | null;
  validator: CheckoutValidator;
  required: Flag;
  max_length: number;
  /** 1, 2, 3… within the merchant's section: the order the pay page shows them in. */
  position: number;
  /** Off: no longer asked; values already stored keep their label. */
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A column the database fills when an insert leaves it out. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export type EventStatus = "draft" | "published" | "closed";
export type EventFieldType = "text" | "phone" | "attachment";
export type BookingItemStatus = "pending" | "paid" | "cancel";

/** An event of the events section (migration 0018). */
export interface EventTable {
  id: Generated<number>;
  merchant_id: number;
  unit_id: Defaulted<number | null>;
  /** Unique on the installation: the public pages and the public API name an event by it. */
  slug: string;
  title_en: string;
  title_ar: string;
  description_en: Defaulted<string>;
  description_ar: Defaulted<string>;
  /** Storage key of its picture. */
  image_path: Defaulted<string | null>;
  location_en: Defaulted<string>;
  location_ar: Defaulted<string>;
  lat: Defaulted<number | null>;
  lng: Defaulted<number | null>;
  currency_code: string;
  is_free: Flag;
  terms_en: Defaulted<string>;
  terms_ar: Defaulted<string>;
  status: Defaulted<EventStatus>;
  /** Comma-separated gateway codes its paid bookings may be paid with. */
  gateway_codes: Defaulted<string>;
  /** How long places are held for a customer who is paying. */
  hold_minutes: Defaulted<number>;
  max_per_booking: Defaulted<number>;
  /** Customers let onto the registration page at once during an on-sale; null: no waiting zone. */
  queue_capacity: Defaulted<number | null>;
  created_by: Defaulted<number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A field the event's registration asks (besides name, e-mail and phone). */
export interface EventFieldTable {
  id: Generated<number>;
  merchant_id: number;
  event_id: number;
  /** Its key in bookings.extra. */
  name: string;
  label_en: string;
  label_ar: string;
  type: EventFieldType;
  required: Flag;
  position: number;
}

export interface EventTicketTable {
  id: Generated<number>;
  merchant_id: number;
  event_id: number;
  name_en: string;
  name_ar: string;
  /** Minor units of the event's currency. */
  price: Defaulted<number>;
  /** "HH:MM", Kuwait time. */
  start_time: string;
  end_time: string;
  /** Places per date. */
  quantity: number;
  position: number;
  is_active: Flag;
}

/** A ticket's places on one date: `taken` counts the places of pending and paid items, never above `quantity`. */
export interface EventTicketDateTable {
  id: Generated<number>;
  merchant_id: number;
  event_id: number;
  ticket_id: number;
  /** "YYYY-MM-DD". */
  event_date: string;
  quantity: number;
  taken: ColumnType<number, number | undefined, number>;
}

export interface BookingTable {
  /** Short and sequential: for staff. */
  id: Generated<number>;
  /** Unguessable: the customer's links to their tickets. */
  uuid: string;
  merchant_id: number;
  event_id: number;
  /** The ticket and date of its places (all its items share them). */
  ticket_id: number;
  event_date: string;
  email: string;
  email_lc: string;
  customer_first_name: Defaulted<string>;
  customer_last_name: Defaulted<string>;
  customer_phone: Defaulted<string | null>;
  /** JSON of the event's extra fields' answers by name. */
  extra: ColumnType<string, string | undefined, string>;
  attachment_path: Defaulted<string | null>;
  attachment_name: Defaulted<string | null>;
  /** The customer's language: their mails and tickets. */
  lang: Defaulted<"en" | "ar">;
  created_by: Defaulted<number | null>;
  /** The address a customer booked from (migration 0036): one address holds only a few unpaid bookings at once. */
  client_address: Defaulted<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What a booking bought at once (its first places, or places added later) and how it is paid. */
export interface BookingItemTable {
  id: Generated<number>;
  merchant_id: number;
  booking_id: number;
  ticket_date_id: number;
  quantity: number;
  amount: Defaulted<number>;
  status: BookingItemStatus;
  transaction_id: Defaulted<string | null>;
  /** While pending: when its places go back on sale unless paid. */
  hold_expires_at: Defaulted<Timestamp | null>;
  note: Defaulted<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One place of a booking: its QR ticket. */
export interface BookingMemberTable {
  id: Generated<number>;
  merchant_id: number;
  event_id: number;
  booking_id: number;
  item_id: number;
  /** What staff type at the door when the camera cannot read the QR; unique within the event. */
  number: string;
  position: number;
  scanned_at: Defaulted<Timestamp | null>;
  scanned_by: Defaulted<number | null>;
}

export interface EventScanTable {
  id: Generated<number>;
  merchant_id: number;
  event_id: number;
  member_id: Defaulted<number | null>;
  code: string;
  result: string;
  user_id: Defaulted<number | null>;
  offline: Flag;
  device_scanned_at: Defaulted<Timestamp | null>;
  created_at: Timestamp;
}

export interface EventFeedbackTable {
  id: Generated<number>;
  merchant_id: number;
  event_id: number;
  rating: number;
  comment: Defaulted<string>;
  name: Defaulted<string>;
  email: Defaulted<string | null>;
  created_at: Timestamp;
}

/** A customer waiting to be let onto a busy event's registration page, first come first served. */
export interface EventQueueTable {
  id: Generated<number>;
  event_id: number;
  token: string;
  created_at: Timestamp;
  admitted_at: Defaulted<Timestamp | null>;
  last_seen_at: Timestamp;
}

export type FoodDeliveryType = "pickup" | "delivery" | "catering";
export type FoodOrderStatus =
  | "pending_payment"
  | "new"
  | "accepted"
  | "preparing"
  | "ready"
  | "out_for_delivery"
  | "picked_up"
  | "delivered"
  | "canceled";

/** A menu category of the food-ordering section (migration 0019); a catering one asks a minimum of plates. */
export interface FoodCategoryTable {
  id: Generated<number>;
  merchant_id: number;
  name_en: string;
  name_ar: string;
  description_en: Defaulted<string>;
  description_ar: Defaulted<string>;
  image_path: Defaulted<string | null>;
  position: Defaulted<number>;
  is_active: Flag;
  is_catering: Flag;
  min_plates: Defaulted<number>;
  /** Minor units added once to an order with plates of this category. */
  service_charge: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FoodItemTable {
  id: Generated<number>;
  merchant_id: number;
  category_id: number;
  sku: Defaulted<string | null>;
  name_en: string;
  name_ar: string;
  description_en: Defaulted<string>;
  description_ar: Defaulted<string>;
  image_path: Defaulted<string | null>;
  /** Minor units of the merchant's currency. */
  price: number;
  /** What it sells for when set (never above the price). */
  discounted_price: Defaulted<number | null>;
  /** Portions left to sell; null: unlimited. */
  quantity: Defaulted<number | null>;
  is_available: Flag;
  is_promoted: Flag;
  position: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A size of an item: its own price instead of the item's. */
export interface FoodItemSizeTable {
  id: Generated<number>;
  item_id: number;
  name_en: string;
  name_ar: string;
  price: number;
  position: Defaulted<number>;
}

export interface FoodItemAddonTable {
  id: Generated<number>;
  item_id: number;
  name_en: string;
  name_ar: string;
  price: Defaulted<number>;
  position: Defaulted<number>;
}

export interface FoodOptionGroupTable {
  id: Generated<number>;
  item_id: number;
  name_en: string;
  name_ar: string;
  min_choices: Defaulted<number>;
  max_choices: Defaulted<number>;
  position: Defaulted<number>;
}

export interface FoodOptionChoiceTable {
  id: Generated<number>;
  group_id: number;
  name_en: string;
  name_ar: string;
  price: Defaulted<number>;
  position: Defaulted<number>;
}

export interface FoodBranchTable {
  id: Generated<number>;
  merchant_id: number;
  name_en: string;
  name_ar: string;
  email: Defaulted<string | null>;
  phone: Defaulted<string | null>;
  /** Sanitised HTML (a few inline tags and line breaks). */
  address_html: Defaulted<string>;
  image_path: Defaulted<string | null>;
  min_order: Defaulted<number>;
  delivery_minutes: Defaulted<number>;
  lat: Defaulted<number | null>;
  lng: Defaulted<number | null>;
  offers_pickup: Flag;
  offers_delivery: Flag;
  offers_catering: Flag;
  is_active: Flag;
  position: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An interval a branch takes orders on a weekday (1 Monday … 7 Sunday), Kuwait time "HH:MM". */
export interface FoodBranchHourTable {
  id: Generated<number>;
  branch_id: number;
  weekday: number;
  opens: string;
  closes: string;
}

/** A Kuwait area a branch delivers to (its English name as kuwait-areas.ts lists it), with its charge and minimum order. */
export interface FoodDeliveryAreaTable {
  id: Generated<number>;
  merchant_id: number;
  branch_id: number;
  area: string;
  zone: Defaulted<string>;
  charge: Defaulted<number>;
  min_order: Defaulted<number>;
  is_active: Flag;
}

/** The food section's vouchers before migration 0042 copied them into `offer_codes`; no longer written. */
export interface FoodVoucherTable {
  id: Generated<number>;
  merchant_id: number;
  code: string;
  code_lc: string;
  discount_type: "percentage" | "fixed";
  /** Percentage: basis points (1000 = 10%); fixed: minor units. */
  amount: number;
  valid_from: Defaulted<Timestamp | null>;
  valid_to: Defaulted<Timestamp | null>;
  min_total: Defaulted<number>;
  max_uses: Defaulted<number | null>;
  max_uses_per_customer: Defaulted<number | null>;
  /** Uses by orders not ended unpaid. */
  used: Defaulted<number>;
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FoodOrderTable {
  /** Short and sequential: for staff. */
  id: Generated<number>;
  merchant_id: number;
  /** Unguessable: the customer's confirmation and state pages. */
  number: string;
  /** Its transaction's order number (migration 0043): the one number customers and staff read. */
  order_no: Defaulted<number | null>;
  branch_id: number;
  delivery_type: FoodDeliveryType;
  delivery_area_id: Defaulted<number | null>;
  scheduled_for: Defaulted<Timestamp | null>;
  status: FoodOrderStatus;
  subtotal: number;
  discount: Defaulted<number>;
  delivery_charge: Defaulted<number>;
  service_charge: Defaulted<number>;
  total: number;
  currency_code: string;
  /** Before migration 0042: the voucher's id in `food_vouchers`; no longer written (`offer_code_id`). */
  voucher_id: Defaulted<number | null>;
  /** The voucher the order used (migration 0042). */
  offer_code_id: Defaulted<number | null>;
  customer_name: string;
  customer_email: Defaulted<string | null>;
  customer_phone: string;
  /** Who a voucher's uses per customer are counted for: the phone. */
  customer_key: string;
  /** JSON of the delivery address (public spec §3 customer address info). */
  address: Defaulted<string | null>;
  lat: Defaulted<number | null>;
  lng: Defaulted<number | null>;
  gateway_code: string;
  transaction_id: Defaulted<string | null>;
  lang: Defaulted<"en" | "ar">;
  /** Whether its portions are still taken (given back once, when its payment ends unpaid or it is canceled). */
  holds_stock: Flag;
  /** The address and the device (its cart's token) it was placed from (migration 0036): each holds only a few unpaid orders at once. */
  client_address: Defaulted<string | null>;
  device_token: Defaulted<string | null>;
  feedback_rating: Defaulted<number | null>;
  feedback_comment: Defaulted<string | null>;
  seen_at: Defaulted<Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FoodOrderLineTable {
  id: Generated<number>;
  order_id: number;
  item_id: number;
  category_id: number;
  name_en: string;
  name_ar: string;
  size_id: Defaulted<number | null>;
  size_en: Defaulted<string | null>;
  size_ar: Defaulted<string | null>;
  /** JSON: [{ id, name_en, name_ar, price }]. */
  add_ons: Defaulted<string>;
  /** JSON: [{ group_id, group_en, group_ar, id, name_en, name_ar, price }]. */
  options: Defaulted<string>;
  special_instructions: Defaulted<string>;
  quantity: number;
  unit_price: number;
  line_total: number;
}

/** A visitor's cart, held on the server under a signed cookie. */
export interface FoodCartTable {
  token: string;
  merchant_id: number;
  data: string;
  updated_at: Timestamp;
}

/** The menu page's and header's configuration, banners and the like (JSON). */
export interface FoodSettingTable {
  merchant_id: number;
  data: Defaulted<string>;
  updated_at: Timestamp;
}

/** A product of the catalogue shop (decision 0025). Money in minor units of the shop's currency. */
export interface CatalogueProductTable {
  id: Generated<number>;
  merchant_id: number;
  unit_id: Defaulted<number | null>;
  /** Its address on the public shop, unique within the merchant. */
  slug: string;
  sku: Defaulted<string | null>;
  name_en: string;
  name_ar: string;
  description_en: Defaulted<string>;
  description_ar: Defaulted<string>;
  price: number;
  /** What it sells for when set (never above the price). */
  discounted_price: Defaulted<number | null>;
  /** Units left to sell; null: unlimited. */
  inventory: Defaulted<number | null>;
  is_active: Flag;
  position: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CatalogueProductImageTable {
  id: Generated<number>;
  product_id: number;
  path: string;
  position: Defaulted<number>;
}

/** A shop where customers may collect their order (the configuration's `label_store` names the choice). */
export interface CatalogueStoreTable {
  id: Generated<number>;
  merchant_id: number;
  name_en: string;
  name_ar: string;
  address_en: Defaulted<string>;
  address_ar: Defaulted<string>;
  phone: Defaulted<string | null>;
  is_active: Flag;
  position: Defaulted<number>;
  /** 1: the store carries every product; 0: only those listed in catalogue_store_products, maybe none (migration 0025). */
  carries_all: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The products a store carries when it does not carry them all (`carries_all` 0). */
export interface CatalogueStoreProductTable {
  store_id: number;
  product_id: number;
}

export type CatalogueDiscountType = "percentage" | "fixed";

/** The catalogue's discount codes before migration 0042 copied them into `offer_codes`; no longer written. */
export interface CatalogueDiscountTable {
  id: Generated<number>;
  merchant_id: number;
  code: string;
  /** The code in lower case: codes are matched whatever their case. */
  code_lc: string;
  discount_type: CatalogueDiscountType;
  /** Basis points for a percentage (1000 = 10%), minor units for a fixed amount. */
  amount: number;
  valid_from: Defaulted<Timestamp | null>;
  valid_to: Defaulted<Timestamp | null>;
  min_total: Defaulted<number>;
  max_uses: Defaulted<number | null>;
  /** Uses by orders not ended unpaid. */
  used: Defaulted<number>;
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * A code that takes an amount off a basket (migration 0042, app/domain/commerce/offer-codes.server.ts):
 * the food section's vouchers and the catalogue's discount codes, each row its section's.
 */
export interface OfferCodeTable {
  id: Generated<number>;
  merchant_id: number;
  /** The key of the section whose code it is (`food_ordering`, `catalogue`): codes are unique within it. */
  section: string;
  code: string;
  /** The code in lower case: codes are matched whatever their case. */
  code_lc: string;
  discount_type: OfferDiscountType;
  /** Basis points for a percentage (1000 = 10%), minor units for a fixed amount. */
  amount: number;
  valid_from: Defaulted<Timestamp | null>;
  valid_to: Defaulted<Timestamp | null>;
  /** The smallest subtotal it applies to, in minor units. */
  min_total: Defaulted<number>;
  max_uses: Defaulted<number | null>;
  max_uses_per_customer: Defaulted<number | null>;
  /** Uses by orders not ended unpaid. */
  used: Defaulted<number>;
  is_active: Flag;
  /** For a code copied by migration 0042: the id it had in `food_vouchers` or `catalogue_discounts`. */
  copied_from: Defaulted<number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type OfferDiscountType = "percentage" | "fixed";

export type CatalogueOrderStatus = "pending_payment" | "paid" | "canceled";

export interface CatalogueOrderTable {
  id: Generated<number>;
  merchant_id: number;
  /** Unguessable: the customer's pages name the order by it. */
  number: string;
  /** Its transaction's order number (migration 0043): the one number customers and staff read. */
  order_no: Defaulted<number | null>;
  status: CatalogueOrderStatus;
  subtotal: number;
  discount: Defaulted<number>;
  total: number;
  currency_code: string;
  /** Before migration 0042: the discount's id in `catalogue_discounts`; no longer written (`offer_code_id`). */
  discount_id: Defaulted<number | null>;
  /** The discount code the order used (migration 0042). */
  offer_code_id: Defaulted<number | null>;
  store_id: Defaulted<number | null>;
  customer_name: string;
  customer_email: Defaulted<string | null>;
  customer_phone: Defaulted<string | null>;
  gateway_code: string;
  transaction_id: Defaulted<string | null>;
  lang: Defaulted<"en" | "ar">;
  /** Whether its units (and discount use) are still reserved: given back once, when its payment ends unpaid. */
  holds_stock: Flag;
  /** When an unpaid order's reservation ends. */
  hold_until: Timestamp;
  /** The visitor's cart it was placed from (migration 0023): its payment empties that cart. */
  cart_token: Defaulted<string | null>;
  /** The address the order was placed from (migration 0028): the units one address holds at once are capped. */
  client_address: Defaulted<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CatalogueOrderLineTable {
  id: Generated<number>;
  order_id: number;
  product_id: number;
  slug: string;
  sku: Defaulted<string | null>;
  name_en: string;
  name_ar: string;
  quantity: number;
  unit_price: number;
  line_total: number;
  /** Whether checkout took this line's units (its product had limited stock then; migration 0028): only those are given back. */
  reserved: Flag;
}

export interface CatalogueCartTable {
  token: string;
  merchant_id: number;
  data: string;
  updated_at: Timestamp;
}

/** The shop's configuration and banner (JSON). */
export interface CatalogueSettingTable {
  merchant_id: number;
  data: Defaulted<string>;
  updated_at: Timestamp;
}

export interface Database {
  merchants: MerchantTable;
  units: UnitTable;
  users: UserTable;
  user_permissions: UserPermissionTable;
  sessions: SessionTable;
  retired_refresh_tokens: RetiredRefreshTokenTable;
  login_challenges: LoginChallengeTable;
  password_resets: PasswordResetTable;
  throttle_hits: ThrottleHitTable;
  merchant_features: MerchantFeatureTable;
  merchant_plugins: MerchantPluginTable;
  section_settings: SectionSettingTable;
  audit_log: AuditLogTable;
  outgoing_mail: OutgoingMailTable;
  jobs: JobTable;
  app_settings: AppSettingTable;
  wallet_settings: WalletSettingTable;
  gateways: GatewayTable;
  transactions: TransactionTable;
  payment_attempts: PaymentAttemptTable;
  ledger_entries: LedgerEntryTable;
  idempotency_keys: IdempotencyKeyTable;
  outgoing_sms: OutgoingSmsTable;
  sandbox_knet_terminals: SandboxKnetTerminalTable;
  sandbox_knet_payments: SandboxKnetPaymentTable;
  gateway_messages: GatewayMessageTable;
  sandbox_mpgs_merchants: SandboxMpgsMerchantTable;
  sandbox_mpgs_orders: SandboxMpgsOrderTable;
  sandbox_mpgs_transactions: SandboxMpgsTransactionTable;
  transaction_operations: TransactionOperationTable;
  operation_requests: OperationRequestTable;
  payment_returns: PaymentReturnTable;
  permission_requests: PermissionRequestTable;
  table_fields: TableFieldTable;
  reports: ReportTable;
  notifications: NotificationTable;
  live_messages: LiveMessageTable;
  push_subscriptions: PushSubscriptionTable;
  transaction_totals: TransactionTotalTable;
  transaction_statistics: TransactionStatisticTable;
  reconciliation_runs: ReconciliationRunTable;
  reconciliation_differences: ReconciliationDifferenceTable;
  api_keys: ApiKeyTable;
  roles: RoleTable;
  role_permissions: RolePermissionTable;
  user_roles: UserRoleTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  notification_templates: NotificationTemplateTable;
  checkout_fields: CheckoutFieldTable;
  events: EventTable;
  event_fields: EventFieldTable;
  event_tickets: EventTicketTable;
  event_ticket_dates: EventTicketDateTable;
  bookings: BookingTable;
  booking_items: BookingItemTable;
  booking_members: BookingMemberTable;
  event_scans: EventScanTable;
  event_feedback: EventFeedbackTable;
  event_queue: EventQueueTable;
  food_categories: FoodCategoryTable;
  food_items: FoodItemTable;
  food_item_sizes: FoodItemSizeTable;
  food_item_addons: FoodItemAddonTable;
  food_option_groups: FoodOptionGroupTable;
  food_option_choices: FoodOptionChoiceTable;
  food_branches: FoodBranchTable;
  food_branch_hours: FoodBranchHourTable;
  food_delivery_areas: FoodDeliveryAreaTable;
  food_vouchers: FoodVoucherTable;
  food_orders: FoodOrderTable;
  food_order_lines: FoodOrderLineTable;
  food_carts: FoodCartTable;
  food_settings: FoodSettingTable;
  catalogue_products: CatalogueProductTable;
  catalogue_product_images: CatalogueProductImageTable;
  catalogue_stores: CatalogueStoreTable;
  catalogue_store_products: CatalogueStoreProductTable;
  catalogue_discounts: CatalogueDiscountTable;
  offer_codes: OfferCodeTable;
  catalogue_orders: CatalogueOrderTable;
  catalogue_order_lines: CatalogueOrderLineTable;
  catalogue_carts: CatalogueCartTable;
  catalogue_settings: CatalogueSettingTable;
  customer_payment_collectors: CustomerPaymentCollectorTable;
  customer_payment_restrictions: CustomerPaymentRestrictionTable;
  customer_payments: CustomerPaymentTable;
  bulk_uploads: BulkUploadTable;
  bulk_rows: BulkRowTable;
  bulk_dispatch_logs: BulkDispatchLogTable;
  bulk_transaction_logs: BulkTransactionLogTable;
  bulk_error_reports: BulkErrorReportTable;
  checkout_sessions: CheckoutSessionTable;
  shopify_connections: ShopifyConnectionTable;
  shopify_payment_sessions: ShopifyPaymentSessionTable;
  shopify_callbacks: ShopifyCallbackTable;
  code_pairing_sites: CodePairingSiteTable;
  code_pairing_settings: CodePairingSettingTable;
  code_pairing_codes: CodePairingCodeTable;
  code_pairing_uses: CodePairingUseTable;
  checkout_signing_secrets: CheckoutSigningSecretTable;
  checkout_session_events: CheckoutSessionEventTable;
  checkout_session_deliveries: CheckoutSessionDeliveryTable;
}

/** A merchant's upload of payment requests (migration 0022, decision 0027). */
export interface BulkUploadTable {
  id: Generated<number>;
  merchant_id: number;
  file_name: string;
  row_count: number;
  created_by: number | null;
  created_by_name: string;
  send_email: Flag;
  send_sms: Flag;
  lang: "en" | "ar";
  base_url: string;
  schedule: BulkSchedule;
  /** When its schedule began: its runs fall on this day and time plus whole weeks or months. */
  schedule_from: Timestamp | null;
  /** When a recurring bulk's next run is due; null when it does not recur. */
  next_run_at: Timestamp | null;
  runs: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  ended_at: Timestamp | null;
  /** The one-time token of the upload form that made it (migration 0026): a form posted twice makes one bulk. */
  upload_token: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An upload's error report, kept a short while to download under a random token (migration 0026). */
export interface BulkErrorReportTable {
  id: Generated<number>;
  merchant_id: number;
  token: string;
  file_name: string;
  content: string;
  created_at: Timestamp;
}

export type BulkSchedule = "none" | "weekly" | "monthly";

/** A row of a bulk as the file gave it, checked: each run makes one payment request of it. */
export interface BulkRowTable {
  id: Generated<number>;
  /** Migration 0026. */
  merchant_id: number;
  bulk_id: number;
  row_number: number;
  amount: number;
  currency_code: string;
  editable_amount: Flag;
  min_amount: number | null;
  max_amount: number | null;
  customer_first_name: string | null;
  customer_last_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  description: string | null;
  remarks: string | null;
  next_url: string | null;
  pg_codes: string;
  expires_after_ms: number | null;
  send_email: Flag;
  send_sms: Flag;
  lang: "en" | "ar";
}

export type BulkRunKind = "upload" | "scheduled" | "resend";
export type BulkRunStatus = "queued" | "running" | "finished";

/** One sending run of a bulk. */
export interface BulkDispatchLogTable {
  id: Generated<number>;
  merchant_id: number;
  bulk_id: number;
  kind: BulkRunKind;
  status: ColumnType<BulkRunStatus, BulkRunStatus | undefined, BulkRunStatus>;
  total: number;
  sent: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  requests_created: ColumnType<number, number | undefined, number>;
  created_by_name: string | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export type BulkSendResult = "queued" | "sent" | "failed";

/** What a run sent to one customer by one channel. */
export interface BulkTransactionLogTable {
  id: Generated<number>;
  merchant_id: number;
  bulk_id: number;
  dispatch_log_id: number;
  row_id: number;
  transaction_id: string;
  channel: "email" | "sms";
  recipient: string;
  result: ColumnType<BulkSendResult, BulkSendResult | undefined, BulkSendResult>;
  error: string | null;
  message_id: number | null;
  sent_at: Timestamp | null;
}

export type Merchant = Selectable<MerchantTable>;
export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type Session = Selectable<SessionTable>;

/** How a collector asks for one of the standard fields (migration 0021). */
export type CollectorFieldMode = "off" | "optional" | "required";

export interface CustomerPaymentCollectorTable {
  id: Generated<number>;
  /** Unguessable: /:lang/pay/collect/<public_id>. */
  public_id: string;
  merchant_id: number;
  unit_id: Defaulted<number | null>;
  title_en: string;
  title_ar: string;
  description_en: Defaulted<string>;
  description_ar: Defaulted<string>;
  name_field: ColumnType<CollectorFieldMode, CollectorFieldMode | undefined, CollectorFieldMode>;
  email_field: ColumnType<CollectorFieldMode, CollectorFieldMode | undefined, CollectorFieldMode>;
  phone_field: ColumnType<CollectorFieldMode, CollectorFieldMode | undefined, CollectorFieldMode>;
  reference_field: ColumnType<CollectorFieldMode, CollectorFieldMode | undefined, CollectorFieldMode>;
  /** JSON: [{"name", "label_en", "label_ar", "required"}]. */
  text_fields: Defaulted<string>;
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CustomerPaymentRestrictionTable {
  id: Generated<number>;
  merchant_id: number;
  /** Null: the merchant's own restrictions. */
  collector_id: Defaulted<number | null>;
  currencies: Defaulted<string>;
  gateways: Defaulted<string>;
  /** JSON by currency: {"KWD": {"min", "max", "daily_cap"}}, minor units or null. */
  limits: Defaulted<string>;
  active_from: Defaulted<string | null>;
  active_to: Defaulted<string | null>;
  updated_at: Timestamp;
}

export interface CustomerPaymentTable {
  transaction_id: string;
  merchant_id: number;
  collector_id: number;
  customer_key: string | null;
  currency_code: string;
  amount: number;
  day: string;
  created_at: Timestamp;
  /** The collector form's submission token with a digest of what it sent: the same submission makes one payment (unique per collector). */
  submission_token: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A merchant's server's checkout session and the transaction that collects it (migration 0029). */
export interface CheckoutSessionTable {
  id: string;
  merchant_id: number;
  transaction_id: string;
  type: "e_commerce" | "payment_request";
  order_no: string | null;
  redirect_url: string | null;
  webhook_url: string | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A merchant's connection to its shop platform (migration 0032, decision 0030). */
export interface ShopifyConnectionTable {
  merchant_id: number;
  shop_domain: string;
  callback_url: string;
  /** Sealed (lib/sealed.server). */
  signing_secret: string;
  secret_rotated_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A payment session a shop platform handed over, and the transaction that collects it (migration 0032). */
export interface ShopifyPaymentSessionTable {
  id: Generated<number>;
  merchant_id: number;
  payment_id: string;
  gid: string;
  group_id: string;
  transaction_id: string;
  kind: "sale" | "authorization";
  test: number;
  request_hash: string;
  cancel_url: string;
  return_url: string | null;
  proposed_at: string | null;
  created_at: Timestamp;
}

/** One try of telling the shop platform how a payment session ended (migration 0032). */
export interface ShopifyCallbackTable {
  id: Generated<number>;
  merchant_id: number;
  transaction_id: string;
  action: "resolve" | "reject";
  attempt: number;
  status: "succeeded" | "failed";
  response_code: number | null;
  error: string | null;
  created_at: Timestamp;
}

/** A merchant's website that sends customers to /cpr, and the paired field's label there (migration 0033, decision 0031). */
export interface CodePairingSiteTable {
  id: Generated<number>;
  merchant_id: number;
  host: string;
  label_en: Defaulted<string>;
  label_ar: Defaulted<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The paired field's label where a site has none of its own (migration 0033). */
export interface CodePairingSettingTable {
  merchant_id: number;
  label_en: string;
  label_ar: string;
  updated_at: Timestamp;
}

/** A code the merchant issued with its paired value and what it leads to (migration 0033). */
export interface CodePairingCodeTable {
  id: Generated<number>;
  merchant_id: number;
  code: string;
  code_lookup: string;
  pair: string;
  pair_normalized: string;
  amount: ColumnType<number, number, number>;
  currency_code: string;
  description: Defaulted<string>;
  max_uses: number;
  uses: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp | null;
  is_active: Flag;
  created_by: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One use of a code: the payment request it made (migration 0033). */
export interface CodePairingUseTable {
  id: Generated<number>;
  merchant_id: number;
  code_id: number;
  transaction_id: string;
  created_at: Timestamp;
}

/** A merchant's checkout signing secret, sealed (migration 0030): signs what is posted to sessions' webhook_url. */
export interface CheckoutSigningSecretTable {
  merchant_id: number;
  secret: string;
  created_at: Timestamp;
}

/** An event told to a checkout session's webhook_url (migration 0030). */
export interface CheckoutSessionEventTable {
  id: string;
  merchant_id: number;
  session_id: string;
  type: string;
  body: string;
  created_at: Timestamp;
}

/** One try of delivering a session's event (migration 0030). */
export interface CheckoutSessionDeliveryTable {
  id: Generated<number>;
  merchant_id: number;
  event_id: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_code: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: Timestamp;
}
