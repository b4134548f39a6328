import { sql } from "kysely";
import { engineOf, type DB } from "~/db/database.server";
import type { LiveMessageTable } from "~/db/schema";
import { addMs, now, nowIso } from "./clock.server";

/**
 * What the live channel tells a signed-in user at once (decision 0033). The notices' kinds
 * ('Order created', 'New Permission Request', 'Report exported'…) come with the notification's id;
 * the others say what changed, and the page that shows it reads it again.
 */
export type LiveType =
  | "order_created"
  | "permission_request"
  | "report_exported"
  | "report_failed"
  | "payment_completed"
  | "transaction_updated"
  | "requests_changed"
  | "orders_changed"
  | "booking_checked_in";

/** Not shown to anyone: tells every instance to close the channels of a session that ended. */
export const SESSION_ENDED = "session_ended";

export type LiveMessage = {
  merchantId: number;
  /** One recipient; without one, every user of the merchant who holds `permission` (all of them without a permission). */
  userId?: number | null;
  permission?: string | null;
  type: LiveType;
  data: Record<string, unknown>;
};

export type LiveRow = Omit<LiveMessageTable, "id"> & { id: number };

export const LIVE_CHANNEL = "live_messages";
/** How long a message can be resumed from. */
export const LIVE_KEEP_MS = 24 * 60 * 60_000;

/**
 * Keeps a message for the live channel, in the caller's transaction: it exists exactly when what
 * it tells of does, and it is sent once that commits (NOTIFY wakes every instance then). Ids may
 * commit out of order on Postgres; the hub (live.server.ts) allows for it.
 */
export async function publishLive(db: DB, message: LiveMessage): Promise<void> {
  await publishRows(db, [
    {
      merchant_id: message.merchantId,
      user_id: message.userId ?? null,
      permission: message.permission ?? null,
      type: message.type,
      data: JSON.stringify(message.data),
      created_at: nowIso(),
    },
  ]);
}

/** The same message for several recipients. */
export async function publishLiveTo(
  db: DB,
  userIds: readonly number[],
  message: Omit<LiveMessage, "userId" | "permission"> & { dataFor?: (userId: number) => Record<string, unknown> },
) {
  if (userIds.length === 0) return;
  const created = nowIso();
  await publishRows(
    db,
    userIds.map((userId) => ({
      merchant_id: message.merchantId,
      user_id: userId,
      permission: null,
      type: message.type,
      data: JSON.stringify(message.dataFor?.(userId) ?? message.data),
      created_at: created,
    })),
  );
}

/**
 * Every channel of the session (or, with `exceptSessionId` or nothing, of the user's other sessions)
 * closes, on every instance; the browsers those sign-ins registered for push are told nothing more.
 */
export async function endLiveSessions(
  db: DB,
  user: { id: number; merchantId: number },
  session: { sessionId?: string; exceptSessionId?: string },
) {
  if (session.sessionId) {
    await db.deleteFrom("push_subscriptions").where("session_id", "=", session.sessionId).execute();
  } else {
    const except = session.exceptSessionId;
    let forget = db.deleteFrom("push_subscriptions").where("user_id", "=", user.id);
    if (except) forget = forget.where((eb) => eb.or([eb("session_id", "is", null), eb("session_id", "!=", except)]));
    await forget.execute();
  }
  await publishRows(db, [
    {
      merchant_id: user.merchantId,
      user_id: user.id,
      permission: null,
      type: SESSION_ENDED,
      data: JSON.stringify({ session_id: session.sessionId ?? null, except: session.exceptSessionId ?? null }),
      created_at: nowIso(),
    },
  ]);
}

async function publishRows(db: DB, rows: Omit<LiveRow, "id">[]) {
  await db.insertInto("live_messages").values(rows).execute();
  // Postgres tells every instance at commit; SQLite has one process, whose hub looks once the writer has committed.
  if (engineOf(db) === "postgres") await sql`select pg_notify(${LIVE_CHANNEL}, '')`.execute(db);
  else for (const wake of localWakers) wake();
}

export const PRUNE_LIVE_JOB = "prune_live_messages";

/** Messages older than a day are no longer resumed from. */
export async function pruneLiveMessages(db: DB) {
  await db.deleteFrom("live_messages").where("created_at", "<", addMs(now(), -LIVE_KEEP_MS).toISOString()).execute();
}

/** The hubs of this process that read after a write on SQLite. */
export const localWakers = new Set<() => void>();
