import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * What lets a merchant's own systems work with the platform without a developer touching the
 * database: API keys (each acts through a user of kind `api_key` that nobody signs in as),
 * webhook endpoints with their events and every delivery try, invitations (a password link of
 * purpose `invitation`), and the gateway's test or live mode with the date its credentials were
 * last entered; platform operators (users who create merchants on a multi-merchant installation); roles, named groups of permissions that users hold besides their own.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);

  await db.schema.alterTable("users").addColumn("kind", "text", (c) => c.notNull().defaultTo("person")).execute();
  await db.schema.alterTable("users").addColumn("is_operator", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("password_resets").addColumn("purpose", "text", (c) => c.notNull().defaultTo("reset")).execute();
  await db.schema.alterTable("gateways").addColumn("mode", "text", (c) => c.notNull().defaultTo("test")).execute();
  await db.schema.alterTable("gateways").addColumn("credentials_set_at", timestamp).execute();
  // A gateway with an address of its own was set up to take real money; the platform's sandboxes are test.
  await db.updateTable("gateways").set({ mode: "live" }).where("endpoint_url", "is not", null).execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("previous_key_hash", "text")
    .addColumn("previous_valid_until", timestamp)
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("allowed_ips", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("expires_at", timestamp)
    .addColumn("revoked_at", timestamp)
    .addColumn("last_used_at", timestamp)
    .addColumn("last_used_ip", "text")
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("rotated_at", timestamp)
    .execute();
  await db.schema.createIndex("api_keys_merchant").on("api_keys").column("merchant_id").execute();
  await db.schema.createIndex("api_keys_previous").on("api_keys").column("previous_key_hash").execute();

  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("deleted_at", timestamp)
    .execute();
  await db.schema.createIndex("webhook_endpoints_merchant").on("webhook_endpoints").column("merchant_id").execute();

  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("endpoint_id", "integer", (c) => c.notNull().references("webhook_endpoints.id"))
    .addColumn("event_id", "text", (c) => c.notNull().references("webhook_events.id"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("response_code", "integer")
    .addColumn("response_body", "text")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("roles")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("roles_merchant_name", ["merchant_id", "name"])
    .execute();
  await db.schema
    .createTable("role_permissions")
    .addColumn("role_id", "integer", (c) => c.notNull().references("roles.id").onDelete("cascade"))
    .addColumn("permission", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("role_permissions_pk", ["role_id", "permission"])
    .execute();
  await db.schema
    .createTable("user_roles")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role_id", "integer", (c) => c.notNull().references("roles.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role_id"])
    .execute();
  await db.schema.createIndex("user_roles_role").on("user_roles").column("role_id").execute();

  await db.schema.createIndex("webhook_deliveries_endpoint").on("webhook_deliveries").columns(["endpoint_id", "id"]).execute();
}
