import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);

  await db.schema
    .createTable("merchants")
    .addColumn("id", id.type, id.build)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("country_code", "text", (c) => c.notNull().defaultTo("KW"))
    .addColumn("currency_code", "text", (c) => c.notNull().defaultTo("KWD"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("title_en", "text", (c) => c.notNull())
    .addColumn("title_ar", "text", (c) => c.notNull())
    .addColumn("subheader", "text")
    .addColumn("logo_url", "text")
    .addColumn("favicon_url", "text")
    .addColumn("admin_url", "text")
    .addColumn("website_url", "text")
    .addColumn("operations_approval", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("units")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("title_en", "text", (c) => c.notNull())
    .addColumn("title_ar", "text", (c) => c.notNull())
    .addColumn("logo_url", "text")
    .addColumn("header_color", "text", (c) => c.notNull().defaultTo("#ffffff"))
    .addColumn("website", "text")
    .addColumn("instagram_url", "text")
    .addColumn("twitter_url", "text")
    .addColumn("facebook_url", "text")
    .addColumn("show_unit_title", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("units_merchant").on("units").column("merchant_id").execute();

  await db.schema
    .createTable("users")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("username", "text", (c) => c.notNull().unique())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("last_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("is_superuser", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("requires_otp", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("receive_order_notification", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("password_changed_at", timestamp)
    .addColumn("last_login_at", timestamp)
    .execute();
  await db.schema.createIndex("users_merchant").on("users").column("merchant_id").execute();

  await db.schema
    .createTable("user_permissions")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("permission", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_permissions_pk", ["user_id", "permission"])
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("refresh_token_hash", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("last_seen_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_refresh").on("sessions").column("refresh_token_hash").execute();

  await db.schema
    .createTable("login_challenges")
    .addColumn("id", id.type, id.build)
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .addColumn("consumed_at", timestamp)
    .execute();
  await db.schema.createIndex("login_challenges_user").on("login_challenges").column("user_id").execute();

  await db.schema
    .createTable("password_resets")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .addColumn("used_at", timestamp)
    .execute();

  await db.schema
    .createTable("throttle_hits")
    .addColumn("id", id.type, id.build)
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("hit_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("throttle_hits_bucket").on("throttle_hits").columns(["bucket", "hit_at"]).execute();

  await db.schema
    .createTable("merchant_features")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("feature", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("merchant_features_pk", ["merchant_id", "section", "feature"])
    .execute();

  await db.schema
    .createTable("merchant_plugins")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("plugin", "text", (c) => c.notNull())
    .addColumn("installed_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("merchant_plugins_pk", ["merchant_id", "plugin"])
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.references("merchants.id"))
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("actor_name", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("object_type", "text")
    .addColumn("object_id", "text")
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("audit_log_merchant_created")
    .on("audit_log")
    .columns(["merchant_id", "created_at"])
    .execute();
  await db.schema.createIndex("audit_log_object").on("audit_log").columns(["object_type", "object_id"]).execute();

  await db.schema
    .createTable("outgoing_mail")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.references("merchants.id"))
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("reply_to", "text")
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("sent_at", timestamp)
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createIndex("outgoing_mail_merchant")
    .on("outgoing_mail")
    .columns(["merchant_id", "created_at"])
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", id.type, id.build)
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("run_at", timestamp, (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_at", timestamp)
    .addColumn("last_error", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("finished_at", timestamp)
    .execute();
  await db.schema.createIndex("jobs_ready").on("jobs").columns(["status", "run_at"]).execute();

  await db.schema
    .createTable("app_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();

}
