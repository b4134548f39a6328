import { Anchor, Notification, Stack, Text } from "@mantine/core";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";

/** A notice as the server presents it: a report's names its file. */
export type NoticeItem = { id: number; kind: string; title: string; link: string | null; file: string | null };

const POLL_MS = 10_000;
/** How long a notice stays before it closes itself; it waits while the pointer or focus is on it. */
const SHOWN_MS = 8_000;

/**
 * With JavaScript on, the notices of this session ('Report exported' naming the file, with a link
 * to the report), checked every ten seconds while the tab is visible and at every page change.
 * Each is shown once: marked seen as soon as it appears, it closes itself after a few seconds and
 * goes when the user moves to another page. Polling stops once the user has been idle for the
 * session's idle time, and its requests say they are background ones, so they never keep a session
 * alive. Without JavaScript, Generated Reports shows the notices of finished reports once.
 */
export function LiveNotifications({ lang, idleMs, initial = [] }: { lang: string; idleMs: number; initial?: readonly NoticeItem[] }) {
  const location = useLocation();
  // Notices the page came with (already marked seen by the server): shown now, without JavaScript too.
  const [items, setItems] = useState<NoticeItem[]>(() => [...initial]);
  const seen = useRef(new Set<number>(initial.map((item) => item.id)));
  const lastActivity = useRef(0);
  const firstLocation = useRef(location.key);

  const poll = useCallback(async () => {
    if (document.hidden || Date.now() - lastActivity.current > idleMs) return;
    try {
      const response = await fetch(`/${lang}/notifications`, { headers: { Accept: "application/json", "X-Background-Request": "1" } });
      if (!response.ok) return;
      const body = (await response.json()) as { notifications: NoticeItem[] };
      const fresh = body.notifications.filter((item) => !seen.current.has(item.id));
      if (fresh.length === 0) return;
      for (const item of fresh) seen.current.add(item.id);
      setItems((current) => [...current, ...fresh]);
      // Shown now, so never again: not on the next page, not in another tab, not at the next sign-in.
      const form = new URLSearchParams();
      for (const item of fresh) form.append("id", String(item.id));
      void fetch(`/${lang}/notifications`, { method: "POST", body: form }).catch(() => {});
    } catch {
      // Offline or the server restarting: the next round tries again.
    }
  }, [lang, idleMs]);

  useEffect(() => {
    lastActivity.current = Date.now();
    // A notice belongs to the page it appeared on.
    if (location.key !== firstLocation.current) setItems([]);
    void poll();
  }, [location.key, poll]);

  // The layout's data read again (after a form was sent) may bring notices the server took for it.
  useEffect(() => {
    const fresh = initial.filter((item) => !seen.current.has(item.id));
    if (fresh.length === 0) return;
    for (const item of fresh) seen.current.add(item.id);
    setItems((current) => [...current, ...fresh]);
  }, [initial]);

  useEffect(() => {
    const timer = setInterval(poll, POLL_MS);
    return () => clearInterval(timer);
  }, [poll]);

  const close = useCallback((id: number) => setItems((current) => current.filter((item) => item.id !== id)), []);
  return <NoticeStack items={items} onClose={close} />;
}

/**
 * Notices in a corner of the page, each closing itself after a few seconds with JavaScript (or
 * when closed); without JavaScript they are part of the page they were delivered with.
 * `showLinks`: false where the link would lead to the page already open.
 */
export function NoticeStack({ items, onClose, showLinks = true }: { items: readonly NoticeItem[]; onClose?: (id: number) => void; showLinks?: boolean }) {
  const { t } = useTranslation();
  const [closed, setClosed] = useState<ReadonlySet<number>>(new Set());
  const close = useCallback(
    (id: number) => {
      setClosed((current) => new Set(current).add(id));
      onClose?.(id);
    },
    [onClose],
  );
  const open = items.filter((item) => !closed.has(item.id));
  if (open.length === 0) return null;
  return (
    <Stack
      gap="xs"
      role="region"
      aria-label={t("notifications.region")}
      aria-live="polite"
      style={{ position: "fixed", bottom: 16, insetInlineEnd: 16, zIndex: 400, width: 360, maxWidth: "calc(100vw - 32px)" }}
    >
      {open.map((item) => (
        <Notice key={item.id} item={item} onClose={close} showLink={showLinks} />
      ))}
    </Stack>
  );
}

function Notice({ item, onClose, showLink }: { item: NoticeItem; onClose: (id: number) => void; showLink: boolean }) {
  const { t } = useTranslation();
  const [held, setHeld] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => onClose(item.id), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [held, item.id, onClose]);

  return (
    <Notification
      ref={ref}
      title={item.title}
      color={item.kind === "report_failed" ? "red" : "green"}
      withBorder
      onClose={() => onClose(item.id)}
      closeButtonProps={{ "aria-label": t("notifications.dismiss") }}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(ref.current?.contains(document.activeElement) ?? false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => setHeld(ref.current?.contains(event.relatedTarget as Node | null) ?? false)}
    >
      <Stack gap={4}>
        {item.file ? (
          <Text size="sm" style={{ overflowWrap: "anywhere" }}>
            <bdi dir="ltr">{item.file}</bdi>
          </Text>
        ) : null}
        {showLink && item.link ? (
          <Anchor component={Link} to={item.link} size="sm">
            {t("notifications.open")}
          </Anchor>
        ) : null}
      </Stack>
    </Notification>
  );
}
