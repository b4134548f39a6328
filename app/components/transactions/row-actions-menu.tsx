import { Paper, Text } from "@mantine/core";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { loadDialogs } from "./dialog-slots";

export type RowMenuItem = { value: string; label: string; to: string };

/**
 * One row's Actions menu. Every entry is a link: refund, capture and void open the amount dialog,
 * the others a confirmation, so nothing happens on a single click. Without JavaScript it is a
 * <details> whose panel opens inside the cell (an absolutely placed panel would be cut off by the
 * table's scroll container); with JavaScript, a menu in the browser's top layer (the popover
 * attribute: outside clicks and Escape close it) placed under its button, moved through with the
 * arrow keys.
 */
export function RowActionsMenu({ orderNo, items }: { orderNo: number; items: RowMenuItem[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  // The top-layer menu where the browser has popovers (not Safari before 17 or Firefox before 125).
  const [popovers, setPopovers] = useState(false);
  useEffect(() => setPopovers(typeof HTMLElement.prototype.showPopover === "function"), []);
  if (items.length === 0) return null;
  const label = t("transactions.row_actions", { orderNo });
  const trigger = (
    <Text component="span" size="sm" c="blue" fw={600} style={{ whiteSpace: "nowrap" }}>
      {t("transactions.actions")} ▾
    </Text>
  );
  if (popovers) return <PopoverMenu label={label} trigger={trigger} items={items} />;
  return (
    // A new page (after an action or a dialog) starts with the menu closed.
    <details key={location.key}>
      <summary aria-label={label} style={{ cursor: "pointer", listStyle: "none" }}>
        {trigger}
      </summary>
      <Paper withBorder p={4} mt={4} miw={160}>
        {items.map((item) => (
          <Link key={item.value} className="menu-item" to={item.to}>
            {item.label}
          </Link>
        ))}
      </Paper>
    </details>
  );
}

/** Room kept between the menu and the window's edges, and between the menu and its button. */
const GAP = 4;
const EDGE = 8;

function PopoverMenu({ label, trigger, items }: { label: string; trigger: React.ReactNode; items: RowMenuItem[] }) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();

  useEffect(() => {
    const menu = panel.current;
    if (!menu) return;
    const onToggle = (event: Event) => {
      const opened = (event as ToggleEvent).newState === "open";
      setOpen(opened);
      // Drawn only once placed (app.css), so it never shows for a frame where it last was.
      if (!opened || !button.current) return menu.removeAttribute("data-placed");
      // Most entries open a dialog: its code is on its way while the user chooses.
      loadDialogs().catch(() => {});
      place(button.current, menu);
      menu.setAttribute("data-placed", "");
      menu.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    };
    menu.addEventListener("toggle", onToggle);
    return () => menu.removeEventListener("toggle", onToggle);
  }, []);

  // Placed once as it opens: a scroll or a resize would leave it beside a row it no longer belongs to.
  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      // Scrolling the menu's own entries (on a short screen) keeps it open.
      if (event.target instanceof Node && panel.current?.contains(event.target)) return;
      panel.current?.hidePopover();
    };
    window.addEventListener("scroll", close, { capture: true, passive: true });
    window.addEventListener("resize", close);
    return () => {
      window.removeEventListener("scroll", close, { capture: true });
      window.removeEventListener("resize", close);
    };
  }, [open]);

  // An entry leads to a dialog or a page: the menu is gone once it does.
  useEffect(() => {
    if (panel.current?.matches(":popover-open")) panel.current.hidePopover();
  }, [location.key]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Tab leaves the menu: it closes, focus goes back to its button, and Tab moves on from there.
    if (event.key === "Tab") return panel.current?.hidePopover();
    const entries = [...(panel.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: entries.length - 1 }[event.key];
    if (next === undefined || entries.length === 0) return;
    event.preventDefault();
    entries[(next + entries.length) % entries.length]?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="row-menu__button"
        popoverTarget={id}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
      >
        {trigger}
      </button>
      <div ref={panel} id={id} popover="auto" role="menu" aria-label={label} className="row-menu" onKeyDown={onKeyDown}>
        {items.map((item) => (
          <Link
            key={item.value}
            role="menuitem"
            tabIndex={-1}
            className={item.value === "delete" ? "menu-item menu-item--danger" : "menu-item"}
            to={item.to}
            onClick={() => panel.current?.hidePopover()}
          >
            {item.label}
          </Link>
        ))}
      </div>
    </>
  );
}

/** Under the button, its end edge on the button's (left in Arabic), above it when there is no room below; always inside the window. */
function place(button: HTMLElement, menu: HTMLElement) {
  const at = button.getBoundingClientRect();
  const { offsetWidth: width, offsetHeight: height } = menu;
  const rtl = getComputedStyle(button).direction === "rtl";
  const left = rtl ? at.left : at.right - width;
  const below = at.bottom + GAP;
  const top =
    below + height > window.innerHeight - EDGE && at.top - GAP - height >= EDGE ? at.top - GAP - height : below;
  menu.style.left = `${Math.max(EDGE, Math.min(left, window.innerWidth - width - EDGE))}px`;
  menu.style.top = `${Math.max(EDGE, top)}px`;
}
