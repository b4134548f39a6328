import { jwtVerify, SignJWT } from "jose";
import { endLiveSessions } from "~/lib/live.server";
import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { randomToken, sha256 } from "~/lib/crypto.server";
import { resumeSessionById, SESSION_IDLE_MS } from "./sessions.server";
import { addMs, now } from "~/lib/clock.server";

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
  return { access: await signAccessToken(input), refresh };
}

async function signAccessToken(input: { sessionId: string; userId: number; secret: string }) {
  const issuedAt = Math.floor(now().getTime() / 1000);
  return new SignJWT({ sid: input.sessionId, typ: "access" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(input.userId))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TTL_SECONDS)
    .sign(key(input.secret));
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

/**
 * A new pair for a live refresh token, which is retired. A retired token presented again was
 * copied (the client that rotated it no longer holds it): the session it belonged to ends, with
 * every token of that family, and the answer is the same refusal as for an unknown token.
 */
export async function refreshApiTokens(db: DB, refresh: string, secret: string) {
  if (!refresh || refresh.length > 100) return undefined;
  const hash = sha256(refresh);
  const next = randomToken(32);
  const rotated = await writeTransaction(db, async (trx) => {
    const current = now();
    // Conditional on the old token: of two uses racing, one rotates and the other is a reuse.
    const session = await trx
      .updateTable("sessions")
      .set({ refresh_token_hash: sha256(next), last_seen_at: current.toISOString() })
      .where("refresh_token_hash", "=", hash)
      .where("last_seen_at", ">", addMs(current, -SESSION_IDLE_MS).toISOString())
      .where("expires_at", ">", current.toISOString())
      // A deactivated user's sessions are ended; one racing the deactivation is refused here too.
      .where("user_id", "in", trx.selectFrom("users").select("id").where("is_active", "=", 1))
      .returning(["id", "user_id", "expires_at"])
      .executeTakeFirst();
    if (!session) {
      await endReusedFamily(trx, hash);
      return undefined;
    }
    await trx.deleteFrom("retired_refresh_tokens").where("expires_at", "<", current.toISOString()).execute();
    await trx
      .insertInto("retired_refresh_tokens")
      .values({
        token_hash: hash,
        session_id: session.id,
        user_id: session.user_id,
        retired_at: current.toISOString(),
        expires_at: session.expires_at,
      })
      .execute();
    return session;
  });
  if (!rotated) return undefined;
  return { access: await signAccessToken({ sessionId: rotated.id, userId: rotated.user_id, secret }), refresh: next };
}

async function endReusedFamily(trx: DB, hash: string) {
  const retired = await trx
    .selectFrom("retired_refresh_tokens")
    .select(["session_id", "user_id"])
    .where("token_hash", "=", hash)
    .executeTakeFirst();
  if (!retired) return;
  const session = await trx
    .selectFrom("sessions")
    .select(["id", "merchant_id"])
    .where("id", "=", retired.session_id)
    .executeTakeFirst();
  await trx.deleteFrom("retired_refresh_tokens").where("session_id", "=", retired.session_id).execute();
  if (!session) return;
  await trx.deleteFrom("sessions").where("id", "=", session.id).execute();
  await endLiveSessions(trx, { id: retired.user_id, merchantId: session.merchant_id }, { sessionId: session.id });
  const user = await trx.selectFrom("users").select("username").where("id", "=", retired.user_id).executeTakeFirst();
  await recordAudit(trx, {
    merchantId: session.merchant_id,
    actor: "system",
    action: "refresh_token_reused",
    params: { username: user?.username ?? "" },
    objectType: "user",
    objectId: retired.user_id,
  });
}
