import { Anchor, Card, Group, Paper, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { StateBadge } from "~/components/state-badge";
import type { HomeData } from "./home.server";

type Order = HomeData["recentOrders"][number];

/**
 * A recent order's actions: delete and the others that need no amount are posted here; a refund,
 * capture or void opens the transaction's page with its amount dialog.
 */
function OrderActions({ order }: { order: Order }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (order.actions.length === 0) return null;
  return (
    <details className="disclosure-menu" key={location.key}>
      <summary aria-label={t("statistics.row_actions", { orderNo: order.orderNo })}>
        <Text component="span" size="sm" c="blue" fw={600} style={{ whiteSpace: "nowrap" }}>
          {t("statistics.actions")} ▾
        </Text>
      </summary>
      <Paper withBorder shadow="md" p={4} className="disclosure-menu__panel">
        {order.actions.map((action) =>
          action.operation ? (
            <Link key={action.value} className="menu-item" to={`${order.url}&operation=${action.value}`}>
              {action.display_name}
            </Link>
          ) : (
            <button
              key={action.value}
              type="submit"
              form="recent-orders-form"
              name="row_command"
              value={`${action.value}:${order.id}`}
              className="menu-item menu-item--button"
              style={action.value === "delete" ? { color: "var(--mantine-color-red-7)" } : undefined}
            >
              {action.display_name}
            </button>
          ),
        )}
      </Paper>
    </details>
  );
}

export function RecentOrders({ orders, lang }: { orders: Order[]; lang: string }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="recent-orders-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h5" id="recent-orders-title">
          {t("statistics.recent_orders")}
        </Title>
        <Anchor component={Link} to={`/${lang}/transactions`} size="sm">
          {t("statistics.view_all")}
        </Anchor>
      </Group>
      {orders.length === 0 ? (
        <Text c="dimmed">{t("statistics.no_orders")}</Text>
      ) : (
        <Form method="post" id="recent-orders-form" preventScrollReset>
          <div className="table-scroll">
            <Table miw={760} striped highlightOnHover verticalSpacing="xs" className="figure-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("statistics.order")}</Table.Th>
                  <Table.Th>{t("statistics.email")}</Table.Th>
                  <Table.Th>{t("statistics.amount")}</Table.Th>
                  <Table.Th>{t("statistics.currency")}</Table.Th>
                  <Table.Th>{t("statistics.state")}</Table.Th>
                  <Table.Th>{t("statistics.created")}</Table.Th>
                  <Table.Th>{t("statistics.actions")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {orders.map((order) => (
                  <Table.Tr key={order.id}>
                    <Table.Td>
                      <Anchor component={Link} to={order.url} size="sm" fw={600}>
                        #{order.orderNo}
                      </Anchor>
                    </Table.Td>
                    <Table.Td
                      style={{ maxWidth: 240, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
                      dir="ltr"
                      ta="start"
                    >
                      {order.email}
                    </Table.Td>
                    <Table.Td dir="ltr" ta="start">
                      {order.amount}
                    </Table.Td>
                    <Table.Td>{order.currency}</Table.Td>
                    <Table.Td>
                      <StateBadge state={order.state} />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{order.created}</Table.Td>
                    <Table.Td>
                      <OrderActions order={order} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        </Form>
      )}
    </Card>
  );
}

export function RecentActions({ actions }: { actions: HomeData["recentActions"] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="recent-actions-title">
      <Title order={2} fz="h5" mb="sm" id="recent-actions-title">
        {t("home.recent_actions")}
      </Title>
      {actions.length === 0 ? (
        <Text c="dimmed">{t("home.no_actions")}</Text>
      ) : (
        // Focusable, so that a keyboard can scroll it in a narrow window: it has no link of its own.
        <div className="table-scroll" tabIndex={0} role="group" aria-labelledby="recent-actions-title">
          <Table miw={520} striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("home.actor")}</Table.Th>
                <Table.Th>{t("home.description")}</Table.Th>
                <Table.Th>{t("home.timestamp")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {actions.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{entry.actor}</Table.Td>
                  <Table.Td title={entry.detail}>{entry.description}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{entry.timestamp}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}
