import type { DB } from "~/db/database.server";
import { recordAudit, recordOwnAction } from "~/domain/audit/audit-log.server";
import { word } from "~/lib/outcome";
import { queueMail } from "~/domain/messaging/mail.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { hmacSha256, randomDigits, safeEqual } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import { verifyAgainstDummy, verifyPassword } from "./password-hashing.server";
import { clearHits, isThrottled, recordHits, removeOneHit, type ThrottleRule } from "./throttle.server";

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
const WINDOW_MS = 15 * 60_000;

type LoginUser = { id: number; merchant_id: number; username: string };

export type LoginOutcome =
  | { status: "signed_in"; user: LoginUser }
  | { status: "code_required"; user: LoginUser }
  | { status: "invalid" }
  | { status: "throttled" };

export type CodeOutcome =
  | { status: "signed_in"; user: LoginUser }
  | { status: "wrong_code" }
  | { status: "no_challenge" }
  | { status: "throttled" };

function loginRules(username: string, ip: string | null): ThrottleRule[] {
  const rules: ThrottleRule[] = [{ bucket: `login:user:${username.toLowerCase()}`, limit: 10, windowMs: WINDOW_MS }];
  if (ip) rules.push({ bucket: `login:ip:${ip}`, limit: 50, windowMs: WINDOW_MS });
  return rules;
}

/**
 * Checks a username and password. Unknown users, wrong passwords and inactive users get the
 * same answer in the same time; failures count towards per-username and per-address limits,
 * which apply whether or not the username exists.
 */
export async function attemptLogin(
  db: DB,
  input: { username: string; password: string; ip: string | null; lang: Language; secret: string },
): Promise<LoginOutcome> {
  const rules = loginRules(input.username, input.ip);
  if (await isThrottled(db, rules)) return { status: "throttled" };
  // Counted before the slow password check, so parallel guesses cannot all slip under the limit;
  // a successful sign-in clears the username's count again.
  await recordHits(db, rules);

  const user = await db
    .selectFrom("users")
    .select(["id", "merchant_id", "username", "email", "password_hash", "is_active", "requires_otp"])
    .where("username", "=", input.username)
    .where("kind", "=", "person")
    .executeTakeFirst();
  const passwordOk = user ? await verifyPassword(user.password_hash, input.password) : (await verifyAgainstDummy(input.password), false);

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
    return { status: "invalid" };
  }

  const signedInUser = { id: user.id, merchant_id: user.merchant_id, username: user.username };
  await clearHits(db, rules[0].bucket);
  for (const rule of rules.slice(1)) await removeOneHit(db, rule.bucket);
  if (user.requires_otp) {
    const sent = await sendLoginCode(db, { ...signedInUser, email: user.email }, input.lang, input.secret);
    return sent ? { status: "code_required", user: signedInUser } : { status: "throttled" };
  }
  await completeSignIn(db, signedInUser, input.ip, rules);
  return { status: "signed_in", user: signedInUser };
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
  input: { username: string; code: string; ip: string | null; secret: string },
): Promise<CodeOutcome> {
  const rules = loginRules(input.username, input.ip);
  if (await isThrottled(db, rules)) return { status: "throttled" };
  const user = await db
    .selectFrom("users")
    .select(["id", "merchant_id", "username", "is_active"])
    .where("username", "=", input.username)
    .where("kind", "=", "person")
    .executeTakeFirst();
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
  await completeSignIn(db, signedInUser, input.ip, rules);
  return { status: "signed_in", user: signedInUser };
}

async function completeSignIn(db: DB, user: LoginUser, ip: string | null, rules: ThrottleRule[]) {
  await clearHits(db, rules[0].bucket);
  await db.updateTable("users").set({ last_login_at: nowIso() }).where("id", "=", user.id).execute();
  await recordOwnAction(db, { ...user, merchantId: user.merchant_id }, "sign_in", { ip });
}
