import type { DB } from "~/db/database.server";
import { listUnreadNotifications, takeNotifications } from "~/domain/messaging/notifications.server";
import { reportFileNames } from "~/domain/reporting/exports.server";
import type { Language } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";

/** A notice as the shell shows it: its title and link in the language of the page open now, and the report's file. */
export type Notice = { id: number; kind: string; title: string; link: string | null; file: string | null };

/** Who reads: the user, in the session they have open. */
export type NoticeReader = { merchantId: number; userId: number; sessionId: string };

const REPORT_KINDS = new Set(["report_exported", "report_failed"]);

/** A notification as the user reads it now: its title and link in the language of the page they have open. */
export function presentNotification<T extends { kind: string; title: string; link: string | null }>(
  notification: T,
  lang: Language,
): T {
  const key = `notifications.${notification.kind}`;
  return {
    ...notification,
    title: i18nFor(lang).exists(key) ? i18nFor(lang).t(key) : notification.title,
    link: notification.link?.replace(/^\/(en|ar)(?=\/)/, `/${lang}`) ?? null,
  };
}

/** The report a notification links to (/<lang>/generated-reports?id=<id>), if any. */
function reportIdOf(link: string | null) {
  const match = link ? /\/generated-reports\?id=(\d{1,12})$/.exec(link) : null;
  return match ? Number(match[1]) : null;
}

/**
 * The notices still to show in this session: the user's unread notifications that arrived since
 * they signed in. One left unread from an earlier sign-in does not greet them at the next: the
 * report is in Generated Reports.
 */
export async function unreadNotices(db: DB, reader: NoticeReader, lang: Language): Promise<Notice[]> {
  const session = await db
    .selectFrom("sessions")
    .select("created_at")
    .where("id", "=", reader.sessionId)
    .where("user_id", "=", reader.userId)
    .executeTakeFirst();
  if (!session) return [];
  const unread = (await listUnreadNotifications(db, reader)).filter(
    (notification) => notification.created_at >= session.created_at,
  );
  const files = await reportFileNames(
    db,
    reader.merchantId,
    unread.flatMap((notification) =>
      REPORT_KINDS.has(notification.kind) ? (reportIdOf(notification.link) ?? []) : [],
    ),
  );
  return unread.map((notification) => {
    const presented = presentNotification(notification, lang);
    const reportId = REPORT_KINDS.has(notification.kind) ? reportIdOf(notification.link) : null;
    return {
      id: presented.id,
      kind: presented.kind,
      title: presented.title,
      link: presented.link,
      file: reportId === null ? null : (files.get(reportId) ?? null),
    };
  });
}

/**
 * The report notices of this session, taken to be shown now (Generated Reports shows them, with
 * or without JavaScript): marked seen at once, so they are shown once and never again.
 * `shown`: the reports the page read, with their state. A notice is written with its report's end,
 * so one about a report the page read as still being made came after the page read its rows: it is
 * left for the next read, which shows the report finished beside it.
 */
export async function takeReportNotices(
  db: DB,
  reader: NoticeReader,
  lang: Language,
  shown: readonly { id: number; state: string }[] = [],
): Promise<Notice[]> {
  const unfinished = new Set(
    shown.filter((report) => report.state === "queued" || report.state === "running").map((report) => report.id),
  );
  const notices = (await unreadNotices(db, reader, lang)).filter((notice) => {
    const reportId = REPORT_KINDS.has(notice.kind) ? reportIdOf(notice.link) : null;
    return REPORT_KINDS.has(notice.kind) && !(reportId !== null && unfinished.has(reportId));
  });
  if (notices.length === 0) return [];
  // Only those this read marked: one the shell's poll took meanwhile is already on screen.
  const taken = new Set(
    await takeNotifications(
      db,
      reader,
      notices.map((notice) => notice.id),
    ),
  );
  return notices.filter((notice) => taken.has(notice.id));
}
