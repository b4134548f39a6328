import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";

/** What a dashboard user is told once: 'Report exported', later 'Order created', 'New Permission Request'. */
export type NotificationKind = "report_exported" | "report_failed";

export type NewNotification = {
  merchantId: number;
  userId: number;
  kind: NotificationKind;
  /** In the language the recipient used when it was caused; shown in the language they read in now (presentNotification). */
  title: string;
  /** A path on this site. */
  link: string | null;
};

type Recipient = { merchantId: number; userId: number };

export async function createNotification(db: DB, notification: NewNotification) {
  const inserted = await db
    .insertInto("notifications")
    .values({
      merchant_id: notification.merchantId,
      user_id: notification.userId,
      kind: notification.kind,
      title: notification.title.slice(0, 200),
      link: notification.link,
      created_at: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
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

/** A notification as the user reads it now: its title and link in the language of the page they have open. */
export function presentNotification<T extends { kind: string; title: string; link: string | null }>(notification: T, lang: Language): T {
  const t = translator(lang);
  const key = `notifications.${notification.kind}`;
  const title = t(key);
  return {
    ...notification,
    title: title === key ? notification.title : title,
    link: notification.link?.replace(/^\/(en|ar)(?=\/)/, `/${lang}`) ?? null,
  };
}

/** Marks some (or, without ids, all) of the user's notifications read; another user's ids are ignored. */
export async function markNotificationsRead(db: DB, recipient: Recipient, ids?: number[]) {
  if (ids && ids.length === 0) return 0;
  let query = db
    .updateTable("notifications")
    .set({ read_at: nowIso() })
    .where("merchant_id", "=", recipient.merchantId)
    .where("user_id", "=", recipient.userId)
    .where("read_at", "is", null);
  if (ids) query = query.where("id", "in", ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
