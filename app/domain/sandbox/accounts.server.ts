import type { DB } from "~/db/database.server";
import { isSealed, seal, unseal } from "~/lib/sealed.server";
import { randomDigits, randomToken } from "~/lib/crypto.server";

/**
 * The sandboxes' accounts of this installation: what a bank or an acquirer would hand a merchant
 * for its test environment. Generated once per installation and kept secret, like a real
 * terminal's; nothing published works against them. The sandboxes exist only in demo and test
 * mode (SANDBOX, decision 0014).
 */
export type SandboxAccounts = {
  knet: { tranportalId: string; password: string; resourceKey: string };
  mpgs: { merchantId: string; apiPassword: string; notificationSecret: string };
};

const SETTING = "sandbox_accounts";
const cached = new WeakMap<DB, SandboxAccounts>();

function generate(): SandboxAccounts {
  return {
    // As KNET issues them: a password of at most 15 characters (12 here), a 16-character resource key.
    knet: { tranportalId: randomDigits(6), password: randomToken(9), resourceKey: randomToken(12) },
    mpgs: generateMpgs(),
  };
}

/** Like the gateway's test merchants (TEST…), with a 32-character API password and notification secret. */
function generateMpgs(): SandboxAccounts["mpgs"] {
  return { merchantId: `TEST${randomDigits(9)}`, apiPassword: randomToken(24), notificationSecret: randomToken(24) };
}

/**
 * The installation's sandbox accounts, created on first use: the first instance to get here writes
 * them, any other one racing it reads the winner's. Safe to call any number of times.
 */
export async function ensureSandboxAccounts(db: DB): Promise<SandboxAccounts> {
  const known = cached.get(db);
  if (known) return known;
  // Each step is safe to repeat and to race, so this runs as well inside a caller's transaction (the seed) as outside.
  await db
    .insertInto("app_settings")
    .values({ key: SETTING, value: JSON.stringify(generate()) })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
  let stored = await db.selectFrom("app_settings").select("value").where("key", "=", SETTING).executeTakeFirstOrThrow();
  // Accounts written before the Mastercard Gateway sandbox have none for it: added once, the first writer winning.
  if (!(JSON.parse(stored.value) as Partial<SandboxAccounts>).mpgs) {
    const { knet } = JSON.parse(stored.value) as SandboxAccounts;
    await db
      .updateTable("app_settings")
      .set({ value: JSON.stringify({ knet, mpgs: generateMpgs() }) })
      .where("key", "=", SETTING)
      .where("value", "=", stored.value)
      .execute();
    stored = await db.selectFrom("app_settings").select("value").where("key", "=", SETTING).executeTakeFirstOrThrow();
  }
  const accounts = JSON.parse(stored.value) as SandboxAccounts;
  await db
    .insertInto("sandbox_knet_terminals")
    .values({
      tranportal_id: accounts.knet.tranportalId,
      password: accounts.knet.password,
      resource_key: accounts.knet.resourceKey,
    })
    .onConflict((conflict) => conflict.column("tranportal_id").doNothing())
    .execute();
  await db
    .insertInto("sandbox_mpgs_merchants")
    .values({
      merchant_id: accounts.mpgs.merchantId,
      api_password: accounts.mpgs.apiPassword,
      notification_secret: accounts.mpgs.notificationSecret,
    })
    .onConflict((conflict) => conflict.column("merchant_id").doNothing())
    .execute();
  if (!db.isTransaction) cached.set(db, accounts);
  return accounts;
}

/** The credentials a merchant's gateway of this kind uses to reach this installation's sandbox. */
export async function sandboxCredentialsFor(db: DB, kind: string): Promise<Record<string, string> | undefined> {
  const accounts = await ensureSandboxAccounts(db);
  if (kind === "knet") return { ...accounts.knet };
  if (kind === "mpgs") return { ...accounts.mpgs };
  return undefined;
}

export async function findKnetTerminal(db: DB, tranportalId: string) {
  return db
    .selectFrom("sandbox_knet_terminals")
    .select(["tranportal_id", "password", "resource_key"])
    .where("tranportal_id", "=", tranportalId)
    .executeTakeFirst();
}

export async function findMpgsMerchant(db: DB, merchantId: string) {
  return db
    .selectFrom("sandbox_mpgs_merchants")
    .select(["merchant_id", "api_password", "notification_secret"])
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** The demo accounts earlier versions published; whoever read them must find they work nowhere. */
const PUBLISHED_KNET_TERMINALS = ["110100"];

/**
 * At every start, whatever the mode: the published demo accounts are removed from the sandboxes,
 * and the platform's sandbox gateways are pointed at this installation's own accounts, so a result
 * or a notification forged with a published secret verifies nowhere, not even for an attempt
 * started before.
 */
export async function prepareSandboxes(db: DB) {
  await db.deleteFrom("sandbox_knet_terminals").where("tranportal_id", "in", PUBLISHED_KNET_TERMINALS).execute();
  await connectSandboxGateways(db);
}

/**
 * Points every gateway that has no endpoint of its own (the platform's sandboxes) at this
 * installation's sandbox accounts, so the demo merchant keeps working after the accounts change.
 */
export async function connectSandboxGateways(db: DB) {
  const accounts = await ensureSandboxAccounts(db);
  for (const [kind, credentials] of [
    ["knet", accounts.knet],
    ["mpgs", accounts.mpgs],
  ] as const) {
    const wanted = JSON.stringify(credentials);
    const rows = await db
      .selectFrom("gateways")
      .select(["id", "credentials"])
      .where("kind", "=", kind)
      .where("endpoint_url", "is", null)
      .execute();
    for (const row of rows) {
      if (isSealed(row.credentials) && unsealedOrNull(row.credentials) === wanted) continue;
      await db
        .updateTable("gateways")
        .set({ credentials: seal(wanted) })
        .where("id", "=", row.id)
        .execute();
    }
  }
  // Credentials written before they were sealed (and any a gateway of its own holds) are sealed now.
  const plain = await db
    .selectFrom("gateways")
    .select(["id", "credentials"])
    .where("credentials", "not like", "sealed:%")
    .execute();
  for (const row of plain)
    await db
      .updateTable("gateways")
      .set({ credentials: seal(row.credentials) })
      .where("id", "=", row.id)
      .execute();
}

/** A sealed value's text, or null when this key cannot open it (sealed under a key since lost). */
function unsealedOrNull(value: string) {
  try {
    return unseal(value);
  } catch {
    return null;
  }
}
