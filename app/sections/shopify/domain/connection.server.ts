import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { checkWebhookUrl } from "~/domain/integrations/webhook-targets.server";
import { nowIso } from "~/lib/clock.server";
import { randomToken } from "~/lib/crypto.server";
import { seal, unseal } from "~/lib/sealed.server";

/** A shop's domain as its platform names it: letters, digits, dashes and dots (example.myshopify.com). */
const SHOP_DOMAIN = /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export type ConnectionInput = { shop_domain: string; callback_url: string };
export type ConnectionErrors = Partial<Record<keyof ConnectionInput | "non_field_errors", string[]>>;
type Manager = { id: number; username: string };

/** The merchant's connection to its shop platform, with its signing secret in the clear; undefined when not connected. */
export async function loadConnection(db: DB, merchantId: number) {
  const row = await db
    .selectFrom("shopify_connections")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return row ? { ...row, signing_secret: unseal(row.signing_secret) } : undefined;
}

export type Connection = NonNullable<Awaited<ReturnType<typeof loadConnection>>>;

/** A new signing secret: 32 random bytes, written as the platform shows it (prefixed so it is recognised in a shop's settings). */
export function newSigningSecret() {
  return `spf_${randomToken(32)}`;
}

/**
 * Whether an address may be where the customer goes back to the shop (cancel_url, return_url, the
 * platform's redirect_url): https only, on the connection's shop domain or one of its subdomains,
 * or on myshopify.com, where Shopify serves every shop's checkout.
 */
export function isShopAddress(value: string, shopDomain: string | null) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (host.endsWith(".myshopify.com")) return true;
  if (!shopDomain) return false;
  const shop = shopDomain.toLowerCase();
  return host === shop || host.endsWith(`.${shop}`);
}

/** Checks what the merchant typed: the shop's domain and where the callbacks go (a public http(s) address, as webhooks). */
export async function checkConnection(
  values: Record<string, unknown>,
): Promise<{ ok: true; input: ConnectionInput } | { ok: false; errors: ConnectionErrors }> {
  const errors: ConnectionErrors = {};
  const domain = String(values.shop_domain ?? "")
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/+$/, "");
  if (!domain) errors.shop_domain = ["errors.required"];
  else if (!SHOP_DOMAIN.test(domain)) errors.shop_domain = ["shopify.errors.shop_domain"];
  const callback = String(values.callback_url ?? "").trim();
  if (!callback) errors.callback_url = ["errors.required"];
  else {
    const problem = await checkWebhookUrl(callback);
    if (problem)
      errors.callback_url = [
        problem === "admin.webhooks.errors.private" ? "shopify.errors.callback_private" : "shopify.errors.callback_url",
      ];
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, input: { shop_domain: domain, callback_url: callback } };
}

/** Connects the shop, or changes its connection; a new connection gets its signing secret. Audited. */
export async function saveConnection(
  db: DB,
  input: { merchantId: number; manager: Manager; values: ConnectionInput; ip?: string | null },
) {
  return writeTransaction(db, async (trx) => {
    const at = nowIso();
    const existing = await trx
      .selectFrom("shopify_connections")
      .select("merchant_id")
      .where("merchant_id", "=", input.merchantId)
      .executeTakeFirst();
    if (existing) {
      await trx
        .updateTable("shopify_connections")
        .set({ ...input.values, updated_at: at })
        .where("merchant_id", "=", input.merchantId)
        .execute();
    } else {
      await trx
        .insertInto("shopify_connections")
        .values({
          merchant_id: input.merchantId,
          ...input.values,
          signing_secret: seal(newSigningSecret()),
          secret_rotated_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.manager,
      action: existing ? "shopify_connection_changed" : "shopify_connected",
      params: { shop: input.values.shop_domain, url: input.values.callback_url },
      objectType: "shopify_connection",
      objectId: input.merchantId,
      ip: input.ip ?? null,
    });
    return { created: !existing };
  });
}

/** A new signing secret in place of the old one, at once: the shop must be given it. Audited; false when not connected. */
export async function rotateSecret(db: DB, input: { merchantId: number; manager: Manager; ip?: string | null }) {
  return writeTransaction(db, async (trx) => {
    const at = nowIso();
    const changed = await trx
      .updateTable("shopify_connections")
      .set({ signing_secret: seal(newSigningSecret()), secret_rotated_at: at, updated_at: at })
      .where("merchant_id", "=", input.merchantId)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) return false;
    const shop = await trx
      .selectFrom("shopify_connections")
      .select("shop_domain")
      .where("merchant_id", "=", input.merchantId)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.manager,
      action: "shopify_secret_rotated",
      params: { shop: shop.shop_domain },
      objectType: "shopify_connection",
      objectId: input.merchantId,
      ip: input.ip ?? null,
    });
    return true;
  });
}
