import type { DB } from "~/db/database.server";
import type { Session } from "~/db/schema";
import { addMs, now } from "~/lib/clock.server";
import { randomToken, sha256 } from "~/lib/crypto.server";
import { recordOwnAction } from "~/domain/audit/audit-log.server";
import { word } from "~/lib/outcome";
import { endLiveSessions } from "~/lib/live.server";

export const SESSION_IDLE_MS = 20 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** last_seen_at is written at most this often, so a busy page does not write on every request. */
const TOUCH_EVERY_MS = 30_000;

export type SessionKind = Session["kind"];

/** Opens a session; the returned token is the only copy of the secret (the database keeps its hash). */
export async function openSession(
  db: DB,
  input: { userId: number; merchantId: number; kind: SessionKind; ip: string | null; userAgent: string | null },
) {
  const token = randomToken(32);
  const current = now();
  const session = {
    id: sha256(token),
    user_id: input.userId,
    merchant_id: input.merchantId,
    kind: input.kind,
    refresh_token_hash: null,
    created_at: current.toISOString(),
    last_seen_at: current.toISOString(),
    expires_at: addMs(current, SESSION_ABSOLUTE_MS).toISOString(),
    ip: input.ip?.slice(0, 64) ?? null,
    user_agent: input.userAgent?.slice(0, 300) ?? null,
  };
  await db.insertInto("sessions").values(session).execute();
  return { token, session };
}

export function isSessionAlive(session: Pick<Session, "last_seen_at" | "expires_at">, at = now()) {
  const idleDeadline = addMs(new Date(session.last_seen_at), SESSION_IDLE_MS);
  return at < idleDeadline && at < new Date(session.expires_at);
}

/**
 * The live session with this id, touched; an idle or over-age session is deleted and
 * answers undefined. Checked on every request.
 */
export async function resumeSessionById(db: DB, sessionId: string, options: { touch?: boolean } = {}) {
  const session = await db.selectFrom("sessions").selectAll().where("id", "=", sessionId).executeTakeFirst();
  if (!session) return undefined;
  const current = now();
  if (!isSessionAlive(session, current)) {
    await db.deleteFrom("sessions").where("id", "=", session.id).execute();
    return undefined;
  }
  let touched = false;
  if (options.touch !== false && current.getTime() - new Date(session.last_seen_at).getTime() > TOUCH_EVERY_MS) {
    session.last_seen_at = current.toISOString();
    await db.updateTable("sessions").set({ last_seen_at: session.last_seen_at }).where("id", "=", session.id).execute();
    touched = true;
  }
  return { session, touched };
}

/** `touch: false` for a page's own background polling, which is not the user being active. */
export function resumeSession(db: DB, token: string, options: { touch?: boolean } = {}) {
  if (!token || token.length > 100) return Promise.resolve(undefined);
  return resumeSessionById(db, sha256(token), options);
}

/** Ends a session: its tokens stop working and its live channels close, on every instance. */
export async function endSession(db: DB, sessionId: string) {
  const ended = await db
    .deleteFrom("sessions")
    .where("id", "=", sessionId)
    .returning(["user_id", "merchant_id"])
    .executeTakeFirst();
  if (ended) await endLiveSessions(db, { id: ended.user_id, merchantId: ended.merchant_id }, { sessionId });
}

export async function endUserSessions(db: DB, userId: number, options: { except?: string } = {}) {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (options.except) query = query.where("id", "!=", options.except);
  const ended = await query.returning(["merchant_id"]).execute();
  if (ended.length > 0)
    await endLiveSessions(db, { id: userId, merchantId: ended[0].merchant_id }, { exceptSessionId: options.except });
}

/** Signing out: the session ends (its tokens stop working) and the audit log says so, and why when it was not the user's choice. */
export async function signOut(
  db: DB,
  input: {
    user: { id: number; username: string; merchantId: number };
    sessionId: string;
    ip: string | null;
    expired?: boolean;
  },
) {
  await endSession(db, input.sessionId);
  await recordOwnAction(db, input.user, "sign_out", {
    ip: input.ip,
    params: { reason: input.expired ? word("audit_entry.reasons.session_expired") : "" },
  });
}
