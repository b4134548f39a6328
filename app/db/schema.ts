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

export interface AuditLogTable {
  id: Generated<number>;
  merchant_id: number | null;
  actor_user_id: number | null;
  actor_name: string;
  action: string;
  object_type: string | null;
  object_id: string | null;
  description: string;
  ip: string | null;
  created_at: Timestamp;
}

export interface OutgoingMailTable {
  id: Generated<number>;
  merchant_id: number | null;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  status: "stored" | "queued" | "sent" | "failed";
  created_at: Timestamp;
  sent_at: Timestamp | null;
  error: string | null;
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

export interface Database {
  merchants: MerchantTable;
  units: UnitTable;
  users: UserTable;
  user_permissions: UserPermissionTable;
  sessions: SessionTable;
  login_challenges: LoginChallengeTable;
  password_resets: PasswordResetTable;
  throttle_hits: ThrottleHitTable;
  merchant_features: MerchantFeatureTable;
  merchant_plugins: MerchantPluginTable;
  audit_log: AuditLogTable;
  outgoing_mail: OutgoingMailTable;
  jobs: JobTable;
  app_settings: AppSettingTable;
}

export type Merchant = Selectable<MerchantTable>;
export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type Session = Selectable<SessionTable>;
