import type { DB } from "~/db/database.server";
import { recordAudit, recordOwnAction } from "~/domain/audit/audit-log.server";
import { word } from "~/lib/outcome";
import { queueMail } from "~/domain/messaging/mail.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { hmacSha256, randomDigits, safeEqual } from "~/lib/crypto.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { verifyAgainstDummy, verifyPassword } from "./password-hashing.server";
import { clearHits, isThrottled, recordHits, removeOneHit, type ThrottleRule } from "./throttle.server";
import { issueDeviceToken, readDeviceToken } from "./trusted-devices.server";

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
const WINDOW_MS = 15 * 60_000;
/** Failures from one address for one username, from one address in all, and for one username from browsers it never used. */
export const USERNAME_ADDRESS_LIMIT = 10;
export const ADDRESS_LIMIT = 50;
export const USERNAME_LIMIT = 20;
/** Failures a browser with a user's device token may make before it counts as any other browser. */
export const DEVICE_LIMIT = 10;
/** After this many failures on an account in the window, its user is told (once per window). */
export const FAILURE_MAIL_AFTER = 5;

type LoginUser = { id: number; merchant_id: number; username: string };

export type LoginOutcome =
  | { status: "signed_in"; user: LoginUser; deviceToken: string }
  | { status: "code_required"; user: LoginUser }
  | { status: "invalid" }
  | { status: "throttled" };

export type CodeOutcome =
  | { status: "signed_in"; user: LoginUser; deviceToken: string }
  | { status: "wrong_code" }
  | { status: "no_challenge" }
  | { status: "throttled" };

/** Who is trying: the address, and the device token the browser sent (null without one). */
type Client = { ip: string | null; deviceToken: string | null };

/**
 * The limits an attempt counts against (decision 0003). A browser that signed in as this user before
 * (a valid device token naming them, itself not locked out) counts only against its own token: others'
 * wrong guesses, from however many addresses, never keep it out. Every other browser counts per
 * address, per username and address, and per username, so that guessing one account from many
 * addresses is slowed to a few tries per window.
 */
async function rulesFor(
  db: DB,
  username: string,
  user: { id: number; password_hash: string } | undefined,
  client: Client,
  secret: string,
): Promise<ThrottleRule[]> {
  const device = user ? readDeviceToken(secret, client.deviceToken, user) : null;
  if (device) {
    const deviceRule = { bucket: `login:device:${device.nonce}`, limit: DEVICE_LIMIT, windowMs: WINDOW_MS };
    if (!(await isThrottled(db, [deviceRule]))) return [deviceRule];
  }
  const name = username.toLowerCase();
  const rules: ThrottleRule[] = [{ bucket: `login:user:${name}`, limit: USERNAME_LIMIT, windowMs: WINDOW_MS }];
  if (client.ip) {
    rules.push({ bucket: `login:user-ip:${name}:${client.ip}`, limit: USERNAME_ADDRESS_LIMIT, windowMs: WINDOW_MS });
    rules.push({ bucket: `login:ip:${client.ip}`, limit: ADDRESS_LIMIT, windowMs: WINDOW_MS });
  }
  return rules;
}

function findPerson(db: DB, username: string) {
  return db
    .selectFrom("users")
    .select(["id", "merchant_id", "username", "email", "password_hash", "is_active", "requires_otp", "language"])
    .where("username", "=", username)
    .where("kind", "=", "person")
    .executeTakeFirst();
}

/**
 * Checks a username and password. Unknown users, wrong passwords and inactive users get the
 * same answer in the same time; failures count towards the limits of `rulesFor`, which apply
 * whether or not the username exists.
 */
export async function attemptLogin(
  db: DB,
  input: {
    username: string;
    password: string;
    ip: string | null;
    deviceToken?: string | null;
    lang: Language;
    secret: string;
  },
): Promise<LoginOutcome> {
  const user = await findPerson(db, input.username);
  const rules = await rulesFor(
    db,
    input.username,
    user,
    { ip: input.ip, deviceToken: input.deviceToken ?? null },
    input.secret,
  );
  if (await isThrottled(db, rules)) return { status: "throttled" };
  // Counted before the slow password check, so parallel guesses cannot all slip under the limit;
  // a successful sign-in takes its own hits back.
  await recordHits(db, rules);

  const passwordOk = user
    ? await verifyPassword(user.password_hash, input.password)
    : (await verifyAgainstDummy(input.password), false);

  if (!user || !passwordOk || !user.is_active) {
    await recordAudit(db, {
      merchantId: user?.merchant_id ?? null,
      actor: "visitor",
      action: "sign_in_failed",
      params: { username: input.username.slice(0, 150), reason: "" },
      objectType: "user",
      objectId: user?.id,
      ip: input.ip,
    });
    if (user) await countFailure(db, user);
    return { status: "invalid" };
  }

  const signedInUser = { id: user.id, merchant_id: user.merchant_id, username: user.username };
  for (const rule of rules) await removeOneHit(db, rule.bucket);
  if (user.requires_otp) {
    const sent = await sendLoginCode(db, { ...signedInUser, email: user.email }, input.lang, input.secret);
    return sent ? { status: "code_required", user: signedInUser } : { status: "throttled" };
  }
  return {
    status: "signed_in",
    user: signedInUser,
    deviceToken: await completeSignIn(db, { ...signedInUser, password_hash: user.password_hash }, input, rules),
  };
}

/**
 * Counts a failed password or code on an existing account, and tells its user when failures repeat:
 * one mail per window, however many failures follow, in the language they last signed in with.
 */
async function countFailure(db: DB, user: LoginUser & { email: string; language: string }) {
  const failures = { bucket: `login:failed:${user.id}`, limit: FAILURE_MAIL_AFTER, windowMs: WINDOW_MS };
  await recordHits(db, [failures]);
  if (!(await isThrottled(db, [failures]))) return;
  const mailed = { bucket: `login:failure-mail:${user.id}`, limit: 1, windowMs: WINDOW_MS };
  if (await isThrottled(db, [mailed])) return;
  await recordHits(db, [mailed]);
  const lang: Language = isLanguage(user.language) ? user.language : "en";
  const since = addMs(now(), -WINDOW_MS).toISOString();
  const { count } = await db
    .selectFrom("throttle_hits")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("bucket", "=", failures.bucket)
    .where("hit_at", ">", since)
    .executeTakeFirstOrThrow();
  await queueMail(db, {
    merchantId: user.merchant_id,
    to: user.email,
    template: "sign_in_failures",
    params: {
      username: user.username,
      count: Number(count),
      minutes: WINDOW_MS / 60_000,
      time: formatDateTime(nowIso(), lang),
    },
    lang,
  });
}

async function sendLoginCode(
  db: DB,
  user: LoginUser & { email: string },
  lang: Language,
  secret: string,
): Promise<boolean> {
  const sendRule = { bucket: `login:code-sent:${user.id}`, limit: 5, windowMs: WINDOW_MS };
  if (await isThrottled(db, [sendRule])) return false;
  await recordHits(db, [sendRule]);

  const code = randomDigits(6);
  const created = now();
  // A new code replaces any earlier one.
  await db
    .updateTable("login_challenges")
    .set({ consumed_at: created.toISOString() })
    .where("user_id", "=", user.id)
    .where("consumed_at", "is", null)
    .execute();
  await db
    .insertInto("login_challenges")
    .values({
      user_id: user.id,
      code_hash: hmacSha256(secret, `${user.id}:${code}`),
      created_at: created.toISOString(),
      expires_at: addMs(created, LOGIN_CODE_TTL_MS).toISOString(),
      consumed_at: null,
    })
    .execute();
  await queueMail(db, {
    merchantId: user.merchant_id,
    to: user.email,
    template: "login_code",
    params: { username: user.username, code, minutes: LOGIN_CODE_TTL_MS / 60_000 },
    lang,
  });
  return true;
}

/** Second step: the one-time code sent by email. Single use, valid ten minutes, five tries. */
export async function verifyLoginCode(
  db: DB,
  input: {
    username: string;
    code: string;
    ip: string | null;
    deviceToken?: string | null;
    lang: Language;
    secret: string;
  },
): Promise<CodeOutcome> {
  const user = await findPerson(db, input.username);
  const rules = await rulesFor(
    db,
    input.username,
    user,
    { ip: input.ip, deviceToken: input.deviceToken ?? null },
    input.secret,
  );
  if (await isThrottled(db, rules)) return { status: "throttled" };
  const challenge = user
    ? await db
        .selectFrom("login_challenges")
        .select(["id", "code_hash", "attempts", "expires_at"])
        .where("user_id", "=", user.id)
        .where("consumed_at", "is", null)
        .orderBy("id", "desc")
        .executeTakeFirst()
    : undefined;
  if (!user || !user.is_active || !challenge || new Date(challenge.expires_at) <= now()) {
    await recordHits(db, rules);
    return { status: "no_challenge" };
  }
  const expected = hmacSha256(input.secret, `${user.id}:${input.code}`);
  if (!safeEqual(expected, challenge.code_hash)) {
    const attempts = challenge.attempts + 1;
    await db
      .updateTable("login_challenges")
      .set({ attempts, consumed_at: attempts >= LOGIN_CODE_MAX_ATTEMPTS ? nowIso() : null })
      .where("id", "=", challenge.id)
      .execute();
    await recordHits(db, rules);
    await recordAudit(db, {
      merchantId: user.merchant_id,
      actor: "visitor",
      action: "sign_in_failed",
      params: { username: user.username, reason: word("audit_entry.reasons.wrong_code") },
      objectType: "user",
      objectId: user.id,
      ip: input.ip,
    });
    await countFailure(db, user);
    return attempts >= LOGIN_CODE_MAX_ATTEMPTS ? { status: "no_challenge" } : { status: "wrong_code" };
  }
  // Consuming is conditional, so two submissions of one code sign in once.
  const consumed = await db
    .updateTable("login_challenges")
    .set({ consumed_at: nowIso() })
    .where("id", "=", challenge.id)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  if (Number(consumed.numUpdatedRows) !== 1) return { status: "no_challenge" };
  const signedInUser = { id: user.id, merchant_id: user.merchant_id, username: user.username };
  return {
    status: "signed_in",
    user: signedInUser,
    deviceToken: await completeSignIn(db, { ...signedInUser, password_hash: user.password_hash }, input, rules),
  };
}

/**
 * Records the sign-in and answers the browser's new device token. The counts of this browser's own
 * address for this username, and of its device token, start again; the per-username count does
 * not, or every sign-in of the real user would give a guesser elsewhere a fresh allowance.
 */
async function completeSignIn(
  db: DB,
  user: LoginUser & { password_hash: string },
  input: { ip: string | null; lang: Language; secret: string },
  rules: ThrottleRule[],
) {
  for (const rule of rules) {
    if (rule.bucket.startsWith("login:user-ip:") || rule.bucket.startsWith("login:device:"))
      await clearHits(db, rule.bucket);
  }
  await db
    .updateTable("users")
    .set({ last_login_at: nowIso(), language: input.lang })
    .where("id", "=", user.id)
    .execute();
  await recordOwnAction(db, { id: user.id, username: user.username, merchantId: user.merchant_id }, "sign_in", {
    ip: input.ip,
  });
  return issueDeviceToken(input.secret, user);
}
