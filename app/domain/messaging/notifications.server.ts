import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { texts } from "~/lib/texts.server";
import { enqueueJob } from "~/lib/jobs.server";
import { publishLiveTo } from "~/lib/live.server";
import { queuePush } from "./web-push.server";

/** What a dashboard user is told once: 'Report exported', 'New Permission Request', later 'Order created'. */
export type NotificationKind = "report_exported" | "report_failed" | "permission_request" | "order_created";

export type NewNotification = {
  merchantId: number;
  /** One recipient or several, told the same. */
  userIds: number[];
  kind: NotificationKind;
  /** The language the notice is first written in; it is shown in the language its reader reads in (locales: notifications.<kind>). */
  lang: Language;
  /** A path on this site. */
  link: string | null;
};

type Recipient = { merchantId: number; userId: number };

export async function createNotifications(db: DB, notification: NewNotification) {
  if (notification.userIds.length === 0) return;
  const title = texts().line(`notifications.${notification.kind}`, {}, notification.lang).slice(0, 200);
  const created = nowIso();
  const rows = await db
    .insertInto("notifications")
    .values(
      notification.userIds.map((userId) => ({
        merchant_id: notification.merchantId,
        user_id: userId,
        kind: notification.kind,
        title,
        link: notification.link,
        created_at: created,
      })),
    )
    .returning(["id", "user_id"])
    .execute();
  // Told at once to whoever has a page open; the notice itself is read (and marked seen) as before.
  const idOf = new Map(rows.map((row) => [row.user_id, row.id]));
  await publishLiveTo(db, notification.userIds, {
    merchantId: notification.merchantId,
    type: notification.kind,
    data: {},
    dataFor: (userId) => ({ notification_id: idOf.get(userId) ?? null, title, link: notification.link }),
  });
  // And to the browsers that asked for them, for when no tab is open.
  await queuePush(db, (type, payload) => enqueueJob(db, type, payload), {
    userIds: notification.userIds,
    kind: notification.kind,
    link: notification.link,
    tag: `${notification.kind}:${notification.link ?? ""}`,
  });
}

/** The user's unread notifications, oldest first so they show in the order they happened. */
export async function listUnreadNotifications(db: DB, recipient: Recipient, limit = 10) {
  const newest = await db
    .selectFrom("notifications")
    .select(["id", "kind", "title", "link", "created_at"])
    .where("merchant_id", "=", recipient.merchantId)
    .where("user_id", "=", recipient.userId)
    .where("read_at", "is", null)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return newest.reverse();
}

/**
 * Marks these of the user's notifications read and answers the ids this call marked: of two readers
 * at once (the page's data, the shell's poll), only the one that marked a notice shows it.
 */
export async function takeNotifications(db: DB, recipient: Recipient, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const taken = await db
    .updateTable("notifications")
    .set({ read_at: nowIso() })
    .where("merchant_id", "=", recipient.merchantId)
    .where("user_id", "=", recipient.userId)
    .where("read_at", "is", null)
    .where("id", "in", [...ids])
    .returning("id")
    .execute();
  return taken.map((row) => row.id);
}

/** Marks some (or, without ids, all) of the user's notifications read; another user's ids are ignored. */
export async function markNotificationsRead(db: DB, recipient: Recipient, ids?: number[]) {
  if (ids) return (await takeNotifications(db, recipient, ids)).length;
  const result = await db
    .updateTable("notifications")
    .set({ read_at: nowIso() })
    .where("merchant_id", "=", recipient.merchantId)
    .where("user_id", "=", recipient.userId)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
