import { Anchor, Notification, Stack, Text } from "@mantine/core";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** A notice as the server presents it: a report's names its file. */
export type NoticeItem = { id: number; kind: string; title: string; link: string | null; file: string | null };

/** How long a notice stays before it closes itself; it waits while the pointer moves over it or focus is in it. */
const SHOWN_MS = 8_000;

/**
 * Notices in a corner of the page, each closing itself after a few seconds with JavaScript (or
 * when closed); without JavaScript they are part of the page they were delivered with.
 * `showLinks`: false where the link would lead to the page already open.
 */
export function NoticeStack({
  items,
  onClose,
  showLinks = true,
}: {
  items: readonly NoticeItem[];
  onClose?: (id: number) => void;
  showLinks?: boolean;
}) {
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
      style={{
        position: "fixed",
        bottom: 16,
        insetInlineEnd: 16,
        zIndex: 400,
        width: 360,
        maxWidth: "calc(100vw - 32px)",
      }}
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
  // Where the pointer was when it came over the notice: a pointer resting where the notice appeared
  // (on the button that asked for the report) does not hold it; one that moves over it does.
  const pointerAt = useRef<{ x: number; y: number } | null>(null);

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
      onMouseEnter={(event) => {
        pointerAt.current = { x: event.clientX, y: event.clientY };
      }}
      onMouseMove={(event) => {
        const at = pointerAt.current;
        if (!held && (!at || at.x !== event.clientX || at.y !== event.clientY)) setHeld(true);
      }}
      onMouseLeave={() => {
        pointerAt.current = null;
        setHeld(ref.current?.contains(document.activeElement) ?? false);
      }}
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
