import { jwtVerify, SignJWT } from "jose";
import type { DB } from "~/db/database.server";
import { randomToken, sha256 } from "~/lib/crypto.server";
import { isSessionAlive, resumeSessionById, SESSION_IDLE_MS } from "./sessions.server";
import { now } from "~/lib/clock.server";

const ACCESS_TTL_SECONDS = SESSION_IDLE_MS / 1000;

function key(secret: string) {
  return new TextEncoder().encode(`api-access:${secret}`);
}

/**
 * Bearer tokens for the API ride on a database session: the access token is a short JWT naming
 * the session, the refresh token an opaque secret rotated at every use. Ending the session
 * (logout, password change, idle time) ends both.
 */
export async function issueApiTokens(db: DB, input: { sessionId: string; userId: number; secret: string }) {
  const refresh = randomToken(32);
  await db
    .updateTable("sessions")
    .set({ refresh_token_hash: sha256(refresh) })
    .where("id", "=", input.sessionId)
    .execute();
  const issuedAt = Math.floor(now().getTime() / 1000);
  const access = await new SignJWT({ sid: input.sessionId, typ: "access" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(input.userId))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TTL_SECONDS)
    .sign(key(input.secret));
  return { access, refresh };
}

/** The live session an access token names, or undefined for a bad, expired or revoked token. */
export async function authenticateAccessToken(db: DB, token: string, secret: string) {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      currentDate: now(),
    });
    if (payload.typ !== "access" || typeof payload.sid !== "string") return undefined;
    const resumed = await resumeSessionById(db, payload.sid);
    if (!resumed || String(resumed.session.user_id) !== payload.sub) return undefined;
    return resumed.session;
  } catch {
    return undefined;
  }
}

export async function refreshApiTokens(db: DB, refresh: string, secret: string) {
  if (!refresh || refresh.length > 100) return undefined;
  const session = await db
    .selectFrom("sessions")
    .selectAll()
    .where("refresh_token_hash", "=", sha256(refresh))
    .executeTakeFirst();
  if (!session || !isSessionAlive(session)) return undefined;
  await db.updateTable("sessions").set({ last_seen_at: now().toISOString() }).where("id", "=", session.id).execute();
  return issueApiTokens(db, { sessionId: session.id, userId: session.user_id, secret });
}
