import { actorOf, type AuditRow } from "~/domain/audit/audit-log.server";
import type { Language } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";
import type { TextParams } from "~/lib/outcome";
import { describe } from "./texts.server";

/** An audit entry in the reader's language, from its code and parameters; older entries kept only their English line. */
export function describeAuditEntry(entry: Pick<AuditRow, "action" | "params" | "description">, lang: Language): string {
  const key = `audit_entry.${entry.action}`;
  if (entry.params === null || !i18nFor(lang).exists(key)) return entry.description;
  return describe(key, JSON.parse(entry.params) as TextParams, lang);
}

/** What kind of action an entry is, in a few words of the reader's language (a recent action's title). */
export function auditTitle(entry: Pick<AuditRow, "action" | "params" | "description">, lang: Language): string {
  const key = `audit.${entry.action}`;
  return i18nFor(lang).exists(key) ? i18nFor(lang).t(key) : describeAuditEntry(entry, lang);
}

/** Who did it, in the reader's language: the username, or what a non-user actor is called. */
export function auditActor(entry: Pick<AuditRow, "actor_name" | "action">, lang: Language): string {
  const actor = actorOf(entry);
  return typeof actor === "string" ? i18nFor(lang).t(`audit.actors.${actor}`) : actor.username;
}

/** The actions the platform records, by code, with their titles in the reader's language (the audit viewer's filter and export). */
export function auditActionTitles(lang: Language): Map<string, string> {
  const titles = (i18nFor(lang).getResource(lang, "common", "audit") ?? {}) as Record<string, unknown>;
  return new Map(
    Object.entries(titles).flatMap(([code, title]) => (typeof title === "string" ? [[code, title] as const] : [])),
  );
}
