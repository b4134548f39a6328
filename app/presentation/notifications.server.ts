import type { Language } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";

/** A notification as the user reads it now: its title and link in the language of the page they have open. */
export function presentNotification<T extends { kind: string; title: string; link: string | null }>(notification: T, lang: Language): T {
  const key = `notifications.${notification.kind}`;
  return {
    ...notification,
    title: i18nFor(lang).exists(key) ? i18nFor(lang).t(key) : notification.title,
    link: notification.link?.replace(/^\/(en|ar)(?=\/)/, `/${lang}`) ?? null,
  };
}
