import type { DB } from "~/db/database.server";

/**
 * The sandboxes' demo accounts: what a bank or an acquirer would hand a merchant for its test
 * environment. Public by design; they only ever work against this platform's own sandboxes.
 */
export const DEMO_KNET_CREDENTIALS = {
  tranportalId: "110100",
  password: "SandboxKnet#2026",
  resourceKey: "SandboxKey2026KW",
} as const;

export const DEMO_CARD_CREDENTIALS = {
  apiKey: "sk_sandbox_demo_0123456789abcdef",
  webhookSecret: "whsec_sandbox_demo_0123456789abcdef",
} as const;

const ensured = new WeakSet<DB>();

/** Creates the demo KNET terminal and demo card merchant when missing; safe to call any number of times. */
export async function ensureSandboxAccounts(db: DB) {
  await db
    .insertInto("sandbox_knet_terminals")
    .values({
      tranportal_id: DEMO_KNET_CREDENTIALS.tranportalId,
      password: DEMO_KNET_CREDENTIALS.password,
      resource_key: DEMO_KNET_CREDENTIALS.resourceKey,
    })
    .onConflict((conflict) => conflict.column("tranportal_id").doNothing())
    .execute();
  await db
    .insertInto("sandbox_card_merchants")
    .values({ api_key: DEMO_CARD_CREDENTIALS.apiKey, webhook_secret: DEMO_CARD_CREDENTIALS.webhookSecret })
    .onConflict((conflict) => conflict.column("api_key").doNothing())
    .execute();
}

/** The sandboxes answer with their demo accounts even when nothing seeded them at boot. */
async function ensureOnce(db: DB) {
  if (ensured.has(db)) return;
  await ensureSandboxAccounts(db);
  ensured.add(db);
}

export async function findKnetTerminal(db: DB, tranportalId: string) {
  await ensureOnce(db);
  return db
    .selectFrom("sandbox_knet_terminals")
    .select(["tranportal_id", "password", "resource_key"])
    .where("tranportal_id", "=", tranportalId)
    .executeTakeFirst();
}

export async function findCardMerchant(db: DB, apiKey: string) {
  await ensureOnce(db);
  return db
    .selectFrom("sandbox_card_merchants")
    .select(["api_key", "webhook_secret"])
    .where("api_key", "=", apiKey)
    .executeTakeFirst();
}
