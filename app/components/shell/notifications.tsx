import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigation, useRevalidator } from "react-router";
import { lazySlot } from "~/components/lazy-slot";
import { openLiveChannel, type LiveEvent } from "./live-channel.client";
import { playOrderSound } from "./order-sound.client";
import type { NoticeItem } from "./notice-stack";

export type { NoticeItem };

// The notices' code (Mantine's Notification) comes to the browser with the first notice to show.
const loadNoticeStack = () => import("./notice-stack");
const NoticeStack = lazySlot("notice-stack", loadNoticeStack, "NoticeStack");

const POLL_MS = 10_000;

/** Messages that come with a notice to show (read from /notifications, marked seen there). */
const NOTICE_TYPES = new Set(["report_exported", "report_failed", "permission_request", "order_created"]);
/** A report's notices: on Generated reports the page itself takes them, with the rows they are about. */
const REPORT_TYPES = new Set(["report_exported", "report_failed"]);
const onReportsPage = (pathname: string) => pathname.endsWith("/generated-reports");
/** Messages that change a badge of the menu or the page open: the page's data is read again. */
const PAGE_TYPES = new Set([
  "order_created",
  "orders_changed",
  "permission_request",
  "requests_changed",
  "booking_checked_in",
]);
/** Messages about one transaction: the page that shows it (its details, the point of sale) reads it again. */
const TRANSACTION_TYPES = new Set(["payment_completed", "transaction_updated"]);

/**
 * With JavaScript on, the notices of this session ('Report exported' naming the file, with a link
 * to the report), told at once by the live channel (decision 0033) and read at every page change;
 * every ten seconds while the tab is visible when the channel is down. 'Order created' plays a
 * sound; a message that changes a badge or the page open has the page's data read again.
 * Each is shown once: marked seen by whoever shows it (this poll or the page's data), it closes
 * itself after a few seconds and goes when the user moves to another page. Polling stops once the
 * user has been idle for the session's idle time, and its requests say they are background ones, so
 * they never keep a session alive. Generated Reports shows the notices of finished reports itself, once, with JavaScript or
 * without: there a report's message reads the page again, so the notice and the ready row come together.
 */
export function LiveNotifications({
  lang,
  idleMs,
  initial = [],
}: {
  lang: string;
  idleMs: number;
  initial?: readonly NoticeItem[];
}) {
  const location = useLocation();
  // Notices the page came with (already marked seen by the server): shown now, without JavaScript too.
  const [items, setItems] = useState<NoticeItem[]>(() => [...initial]);
  const seen = useRef(new Set<number>(initial.map((item) => item.id)));
  const lastActivity = useRef(0);
  const firstLocation = useRef(location.key);
  const pathname = useRef(location.pathname);
  pathname.current = location.pathname;
  const navigating = useRef(false);
  navigating.current = useNavigation().state !== "idle";

  const poll = useCallback(async () => {
    if (document.hidden || Date.now() - lastActivity.current > idleMs) return;
    try {
      const response = await fetch(`/${lang}/notifications`, {
        headers: { Accept: "application/json", "X-Background-Request": "1" },
      });
      if (!response.ok) return;
      const body = (await response.json()) as { notifications: NoticeItem[] };
      // Moving to another page: that page's data and its own poll take them, so none is lost on the way.
      if (navigating.current) return;
      // On Generated reports a report's notice comes with the page's own data, together with its row.
      const reportsPage = onReportsPage(pathname.current);
      const fresh = body.notifications.filter(
        (item) => !seen.current.has(item.id) && !(reportsPage && REPORT_TYPES.has(item.kind)),
      );
      if (fresh.length === 0) return;
      // Taken to be shown, so never again: not on the next page, not in another tab, not at the next
      // sign-in. Only those this request took are shown: one the page's data took meanwhile is on it.
      const form = new URLSearchParams();
      for (const item of fresh) form.append("id", String(item.id));
      const marked = await fetch(`/${lang}/notifications`, { method: "POST", body: form });
      if (!marked.ok) return;
      const taken = new Set(((await marked.json()) as { taken?: number[] }).taken ?? []);
      const shown = fresh.filter((item) => taken.has(item.id));
      // Only what this poll took is its own: one the page's data took comes with the page, and is shown there.
      for (const item of shown) seen.current.add(item.id);
      // A transition: notices the server drew, not hydrated yet, stay on screen meanwhile.
      if (shown.length > 0) startTransition(() => setItems((current) => [...current, ...shown]));
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

  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const live = useRef(false);
  // A read asked for while the page is already being read (a form's answer, a move to another page)
  // waits for that read to end: started beside it, one of the two would be cut off.
  const busy = navigating.current || revalidator.state !== "idle";
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const readWhenIdle = useRef(false);
  useEffect(() => {
    if (busy || !readWhenIdle.current) return;
    readWhenIdle.current = false;
    void revalidate.current();
  }, [busy]);

  useEffect(() => {
    // Several messages in a moment read the page once.
    let pending: ReturnType<typeof setTimeout> | undefined;
    let waitingForNetwork = false;
    const readWhenOnline = () => {
      waitingForNetwork = false;
      void revalidate.current();
    };
    const readPageAgain = () => {
      if (pending || waitingForNetwork) return;
      pending = setTimeout(() => {
        pending = undefined;
        // Offline, reading the page would fail and replace it with the error page (a door's check-in
        // works offline): it is read when the network is back.
        if (busyRef.current) {
          readWhenIdle.current = true;
          return;
        }
        if (navigator.onLine) return void revalidate.current();
        waitingForNetwork = true;
        window.addEventListener("online", readWhenOnline, { once: true });
      }, 250);
    };
    const onMessage = (event: LiveEvent) => {
      if (event.type === "order_created") playOrderSound();
      // On Generated reports, a report's message reads the page again: the row turns ready as its notice appears.
      if (REPORT_TYPES.has(event.type) && onReportsPage(pathname.current)) readPageAgain();
      else if (NOTICE_TYPES.has(event.type)) void poll();
      const transactionId = typeof event.data.transaction_id === "string" ? event.data.transaction_id : null;
      if (
        PAGE_TYPES.has(event.type) ||
        (TRANSACTION_TYPES.has(event.type) && transactionId && pathname.current.includes(transactionId))
      )
        readPageAgain();
      window.dispatchEvent(new CustomEvent("live-message", { detail: event }));
    };
    const channel = openLiveChannel({
      onMessage,
      onState: (open) => {
        live.current = open;
        document.documentElement.dataset.live = open ? "open" : "closed";
        // Back after a gap: what changed meanwhile is on the page at once.
        if (open) void poll();
      },
      idleMs,
    });
    return () => {
      if (pending) clearTimeout(pending);
      window.removeEventListener("online", readWhenOnline);
      channel.close();
    };
  }, [poll, idleMs]);

  useEffect(() => {
    // The channel down (a proxy that cuts long requests, the server restarting): notices are still read.
    const timer = setInterval(() => !live.current && void poll(), POLL_MS);
    return () => clearInterval(timer);
  }, [poll]);

  const close = useCallback((id: number) => setItems((current) => current.filter((item) => item.id !== id)), []);
  return items.length > 0 ? <NoticeStack items={items} onClose={close} /> : null;
}
