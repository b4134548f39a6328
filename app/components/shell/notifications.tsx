import { Anchor, Notification, Stack } from "@mantine/core";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";

type Item = { id: number; kind: string; title: string; link: string | null };

const POLL_MS = 10_000;

/**
 * With JavaScript on, the user's unread notifications ('Report exported' with a link to the
 * report) as a stack of notices, checked every ten seconds while the tab is visible. Polling stops
 * once the user has been idle for the session's idle time, so it never keeps a session alive on
 * its own; its requests say they are background ones, so the server does not count them as
 * activity either. Without JavaScript, Generated Reports is where finished reports are.
 */
export function LiveNotifications({ lang, idleMs }: { lang: string; idleMs: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [items, setItems] = useState<Item[]>([]);
  const dismissed = useRef(new Set<number>());
  const lastActivity = useRef(0);

  useEffect(() => {
    lastActivity.current = Date.now();
  }, [location.key]);

  useEffect(() => {
    let active = true;
    const poll = async () => {
      if (document.hidden || Date.now() - lastActivity.current > idleMs) return;
      try {
        const response = await fetch(`/${lang}/notifications`, { headers: { Accept: "application/json", "X-Background-Request": "1" } });
        if (!response.ok) return;
        const body = (await response.json()) as { notifications: Item[] };
        if (active) setItems(body.notifications.filter((item) => !dismissed.current.has(item.id)));
      } catch {
        // Offline or the server restarting: the next round tries again.
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [lang, idleMs]);

  const dismiss = useCallback(
    (id: number) => {
      dismissed.current.add(id);
      setItems((current) => current.filter((item) => item.id !== id));
      void fetch(`/${lang}/notifications`, { method: "POST", body: new URLSearchParams({ id: String(id) }) }).catch(() => {});
    },
    [lang],
  );

  if (items.length === 0) return null;
  return (
    <Stack
      gap="xs"
      role="region"
      aria-label={t("notifications.region")}
      aria-live="polite"
      style={{ position: "fixed", bottom: 16, insetInlineEnd: 16, zIndex: 400, width: 340, maxWidth: "calc(100vw - 32px)" }}
    >
      {items.map((item) => (
        <Notification
          key={item.id}
          title={item.title}
          color={item.kind === "report_failed" ? "red" : "green"}
          withBorder
          onClose={() => dismiss(item.id)}
          closeButtonProps={{ "aria-label": t("notifications.dismiss") }}
        >
          {item.link ? (
            <Anchor component={Link} to={item.link} size="sm" onClick={() => dismiss(item.id)}>
              {t("notifications.open")}
            </Anchor>
          ) : null}
        </Notification>
      ))}
    </Stack>
  );
}
