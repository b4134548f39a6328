import { Menu, Paper, Text, UnstyledButton } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";

export type RowMenuItem = { value: string; label: string; to: string };

/**
 * One row's Actions menu. Every entry is a link: refund, capture and void open the amount dialog,
 * the others a confirmation, so nothing happens on a single click. Without JavaScript it is a
 * <details> whose panel opens inside the cell (an absolutely placed panel would be cut off by the
 * table's scroll container); with JavaScript, a menu drawn above the page.
 */
export function RowActionsMenu({ orderNo, items }: { orderNo: number; items: RowMenuItem[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (items.length === 0) return null;
  const label = t("transactions.row_actions", { orderNo });
  const trigger = (
    <Text component="span" size="sm" c="blue" fw={600} style={{ whiteSpace: "nowrap" }}>
      {t("transactions.actions")} ▾
    </Text>
  );
  if (hydrated) {
    return (
      <Menu position="bottom-end" shadow="md" withinPortal width={200}>
        <Menu.Target>
          <UnstyledButton aria-label={label}>{trigger}</UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {items.map((item) => (
            <Menu.Item key={item.value} component={Link} to={item.to} c={item.value === "delete" ? "red" : undefined}>
              {item.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    );
  }
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
