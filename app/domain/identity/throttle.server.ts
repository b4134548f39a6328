import { isIP } from "node:net";
import type { DB } from "~/db/database.server";
import { addMs, now, nowIso } from "~/lib/clock.server";

export type ThrottleRule = { bucket: string; limit: number; windowMs: number };

/**
 * The client address a limit counts: an IPv4 address as it is, an IPv6 address by its /64 (one
 * household or one server is given a whole /64, and walking through it must not buy more tries).
 */
export function addressGroup(ip: string | null): string {
  if (!ip) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const address = ip.split("%")[0].toLowerCase();
  if (isIP(address) !== 6) return ip;
  const [head, tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const width = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes(".") ? 2 : 1), 0);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - width(left) - width(right))).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => (group.includes(".") ? "0" : Number.parseInt(group || "0", 16).toString(16)))
    .join(":")}::/64`;
}

/** True when any rule's bucket already holds its limit of hits inside its window. */
export async function isThrottled(db: DB, rules: ThrottleRule[]): Promise<boolean> {
  for (const rule of rules) {
    const since = addMs(now(), -rule.windowMs).toISOString();
    const { count } = await db
      .selectFrom("throttle_hits")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("bucket", "=", rule.bucket)
      .where("hit_at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(count) >= rule.limit) return true;
  }
  return false;
}

export async function recordHits(db: DB, rules: ThrottleRule[]) {
  if (rules.length === 0) return;
  const hitAt = nowIso();
  await db
    .insertInto("throttle_hits")
    .values(rules.map((rule) => ({ bucket: rule.bucket, hit_at: hitAt })))
    .execute();
  // Keep the table small: hits older than a day are never read again.
  if (Math.random() < 0.01) {
    await db.deleteFrom("throttle_hits").where("hit_at", "<", addMs(now(), -86_400_000).toISOString()).execute();
  }
}

export async function clearHits(db: DB, bucket: string) {
  await db.deleteFrom("throttle_hits").where("bucket", "=", bucket).execute();
}

/** Takes back one hit, e.g. the one counted for an attempt that turned out legitimate. */
export async function removeOneHit(db: DB, bucket: string) {
  const newest = await db
    .selectFrom("throttle_hits")
    .select("id")
    .where("bucket", "=", bucket)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (newest) await db.deleteFrom("throttle_hits").where("id", "=", newest.id).execute();
}

/**
 * How long until every rule lets the next try through: 0 when none is at its limit, else the time
 * until enough of the fullest bucket's hits have left its window (what a "wait N minutes" says).
 */
export async function retryAfterMs(db: DB, rules: ThrottleRule[]): Promise<number> {
  let wait = 0;
  for (const rule of rules) {
    const since = addMs(now(), -rule.windowMs).toISOString();
    const hits = await db
      .selectFrom("throttle_hits")
      .select("hit_at")
      .where("bucket", "=", rule.bucket)
      .where("hit_at", ">", since)
      .orderBy("hit_at", "desc")
      .limit(rule.limit)
      .execute();
    if (hits.length < rule.limit) continue;
    // The oldest of the newest `limit` hits must leave the window before one more fits.
    const freedAt = new Date(hits[hits.length - 1].hit_at).getTime() + rule.windowMs;
    wait = Math.max(wait, freedAt - now().getTime());
  }
  return Math.max(0, wait);
}
