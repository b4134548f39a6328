import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { lazySlot } from "~/components/lazy-slot";
import type { NoticeItem } from "./notice-stack";

export type { NoticeItem };

// The notices' code (Mantine's Notification) comes to the browser with the first notice to show.
const loadNoticeStack = () => import("./notice-stack");
const NoticeStack = lazySlot("notice-stack", loadNoticeStack, "NoticeStack");

const POLL_MS = 10_000;

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
      // A transition: notices the server drew, not hydrated yet, stay on screen meanwhile.
      startTransition(() => setItems((current) => [...current, ...fresh]));
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
  return items.length > 0 ? <NoticeStack items={items} onClose={close} /> : null;
}
