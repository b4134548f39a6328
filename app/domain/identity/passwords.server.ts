import { writeTransaction, type DB } from "~/db/database.server";
import { addressGroup } from "~/domain/identity/throttle.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { recordOwnAction } from "~/domain/audit/audit-log.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { formatDateTime } from "~/lib/format";
import { randomToken, sha256 } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import { hashPassword, verifyPassword } from "./password-hashing.server";
import { validatePassword } from "./password-rules.server";
import { endUserSessions } from "./sessions.server";
import { clearHits, isThrottled, recordHits } from "./throttle.server";

export const RESET_TOKEN_TTL_MS = 60 * 60_000;
/** How long an invitation's link lets the invitee choose a first password. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

/** Field name → translation keys, the shape the pages and the API both turn into errors. */
export type FieldErrors = Record<string, string[]>;

type PasswordOwner = { id: number; username: string; email: string; first_name: string; last_name: string };

function checkNewPassword(
  user: PasswordOwner,
  password: string,
  confirmation: string,
  fields: { password: string; confirmation: string },
): FieldErrors | null {
  const errors: FieldErrors = {};
  const ruleErrors = validatePassword(password, {
    username: user.username,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
  });
  if (ruleErrors.length) errors[fields.password] = ruleErrors;
  if (password !== confirmation) errors[fields.confirmation] = ["password.mismatch"];
  return Object.keys(errors).length ? errors : null;
}

async function storePassword(db: DB, userId: number, password: string) {
  await db
    .updateTable("users")
    .set({ password_hash: await hashPassword(password), password_changed_at: nowIso() })
    .where("id", "=", userId)
    .execute();
}

/** Guesses at the current password are limited as sign-in's are: 10 per user per 15 minutes. */
const currentPasswordRule = (userId: number) => ({
  bucket: `password-change:user:${userId}`,
  limit: 10,
  windowMs: 15 * 60_000,
});

/**
 * Changes a signed-in user's password once they have given the current one, ends every session of
 * theirs but `keepSessionId` (the caller usually opens a fresh one for the browser that made the
 * change) and tells them by email, so a change they did not make does not go unnoticed.
 */
export async function changePassword(
  db: DB,
  input: {
    userId: number;
    currentPassword: string;
    newPassword: string;
    repeatPassword: string;
    keepSessionId?: string;
    lang: Language;
    ip: string | null;
  },
): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  const user = await db
    .selectFrom("users")
    .select(["id", "merchant_id", "username", "email", "first_name", "last_name", "password_hash"])
    .where("id", "=", input.userId)
    .executeTakeFirstOrThrow();
  const rule = currentPasswordRule(user.id);
  if (await isThrottled(db, [rule])) return { ok: false, errors: { old_password: ["login.throttled"] } };
  if (!input.currentPassword || !(await verifyPassword(user.password_hash, input.currentPassword))) {
    await recordHits(db, [rule]);
    await recordOwnAction(db, { ...user, merchantId: user.merchant_id }, "password_change_refused", { ip: input.ip });
    return { ok: false, errors: { old_password: ["password.wrong_current"] } };
  }
  const errors = checkNewPassword(user, input.newPassword, input.repeatPassword, {
    password: "new_password",
    confirmation: "repeat_password",
  });
  if (errors) return { ok: false, errors };
  await writeTransaction(db, async (trx) => {
    await storePassword(trx, user.id, input.newPassword);
    await endUserSessions(trx, user.id, { except: input.keepSessionId });
    await clearHits(trx, rule.bucket);
    await recordOwnAction(trx, { ...user, merchantId: user.merchant_id }, "password_changed", { ip: input.ip });
    await queueMail(trx, {
      merchantId: user.merchant_id,
      to: user.email,
      template: "password_changed",
      params: { username: user.username, time: formatDateTime(nowIso(), input.lang) },
      lang: input.lang,
    });
  });
  return { ok: true };
}

/**
 * Sends a reset link when the username exists; answers the same either way, so the
 * page reveals nothing about which usernames exist.
 */
export async function requestPasswordReset(
  db: DB,
  input: { username: string; baseUrl: string; lang: Language; ip: string | null },
) {
  const rules = [
    { bucket: `reset:user:${input.username.toLowerCase()}`, limit: 3, windowMs: 60 * 60_000 },
    ...(input.ip ? [{ bucket: `reset:ip:${addressGroup(input.ip)}`, limit: 20, windowMs: 60 * 60_000 }] : []),
  ];
  if (await isThrottled(db, rules)) return;
  await recordHits(db, rules);
  const user = await db
    .selectFrom("users")
    .select(["id", "merchant_id", "username", "email", "is_active"])
    .where("username", "=", input.username)
    .where("kind", "=", "person")
    .executeTakeFirst();
  if (!user || !user.is_active) return;
  const token = randomToken(32);
  const created = now();
  await db
    .insertInto("password_resets")
    .values({
      token_hash: sha256(token),
      user_id: user.id,
      created_at: created.toISOString(),
      expires_at: addMs(created, RESET_TOKEN_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  const link = `${input.baseUrl}/${input.lang}/reset-password?token=${token}`;
  await queueMail(db, {
    merchantId: user.merchant_id,
    to: user.email,
    template: "password_reset",
    params: { username: user.username, link, minutes: RESET_TOKEN_TTL_MS / 60_000 },
    lang: input.lang,
  });
}

/** Sets a new password from a reset link: the token must be live, unused and the username's. */
export async function resetPassword(
  db: DB,
  input: { token: string; username: string; newPassword: string; passwordConfirmation: string; ip: string | null },
): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  const reset = input.token
    ? await db
        .selectFrom("password_resets")
        .innerJoin("users", "users.id", "password_resets.user_id")
        .select([
          "password_resets.token_hash",
          "password_resets.expires_at",
          "password_resets.used_at",
          "password_resets.purpose",
          "users.id",
          "users.merchant_id",
          "users.username",
          "users.email",
          "users.first_name",
          "users.last_name",
        ])
        .where("password_resets.token_hash", "=", sha256(input.token))
        // A link sent before the user was deactivated no longer opens the account.
        .where("users.is_active", "=", 1)
        .executeTakeFirst()
    : undefined;
  if (!reset || reset.used_at || new Date(reset.expires_at) <= now()) {
    return { ok: false, errors: { non_field_errors: ["reset.invalid_link"] } };
  }
  if (reset.username !== input.username) {
    return { ok: false, errors: { username: ["reset.wrong_username"] } };
  }
  const errors = checkNewPassword(reset, input.newPassword, input.passwordConfirmation, {
    password: "new_password",
    confirmation: "password_confirmation",
  });
  if (errors) return { ok: false, errors };
  const claimed = await db
    .updateTable("password_resets")
    .set({ used_at: nowIso() })
    .where("token_hash", "=", reset.token_hash)
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    return { ok: false, errors: { non_field_errors: ["reset.invalid_link"] } };
  }
  await storePassword(db, reset.id, input.newPassword);
  await endUserSessions(db, reset.id);
  await recordOwnAction(
    db,
    { ...reset, merchantId: reset.merchant_id },
    reset.purpose === "invitation" ? "invitation_accepted" : "password_reset",
    { ip: input.ip },
  );
  return { ok: true };
}

/** What a password link is for (a forgotten password or an invitation), while it can still be used. */
export async function passwordLinkPurpose(db: DB, token: string): Promise<"reset" | "invitation" | null> {
  if (!token || token.length > 200) return null;
  const link = await db
    .selectFrom("password_resets")
    .select(["purpose", "expires_at", "used_at"])
    .where("token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!link || link.used_at || new Date(link.expires_at) <= now()) return null;
  return link.purpose;
}

/** A new password link of purpose `invitation` for a user who has no password yet; the token to mail. */
export async function createInvitationLink(db: DB, userId: number) {
  const token = randomToken(32);
  const created = now();
  await db
    .insertInto("password_resets")
    .values({
      token_hash: sha256(token),
      user_id: userId,
      purpose: "invitation",
      created_at: created.toISOString(),
      expires_at: addMs(created, INVITATION_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}
