import { Anchor, Card, Divider, Group, Image, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** An order as the details page and the kitchen ticket show it (formatted on the server). */
export type OrderView = {
  id: number;
  /** Its transaction's order number: the one number people read. */
  orderNo: number | null;
  status: string;
  deliveryType: string;
  branch: string;
  area: string | null;
  scheduledFor: string | null;
  created: string;
  customer: { name: string; email: string | null; phone: string };
  address: { name: string; value: string }[];
  mapUrl: string | null;
  lines: {
    id: number;
    name: string;
    size: string | null;
    addOns: string[];
    options: string[];
    instructions: string;
    quantity: number;
    unitPrice: string;
    total: string;
  }[];
  voucher: string | null;
  totals: {
    subtotal: string;
    discount: string | null;
    deliveryCharge: string | null;
    serviceCharge: string | null;
    total: string;
  };
  payment: { gateway: string; transactionId: string | null; state: string | null };
};

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text>{children}</Text>
    </div>
  );
}

/** What the kitchen prepares: each line with its size, add-ons, options and the customer's instructions. */
export function OrderLines({ order, prices = true }: { order: OrderView; prices?: boolean }) {
  const { t } = useTranslation();
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t("food_orders.quantity")}</Table.Th>
          <Table.Th>{t("food_orders.item")}</Table.Th>
          {prices ? <Table.Th>{t("food_orders.line_total")}</Table.Th> : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {order.lines.map((line) => (
          <Table.Tr key={line.id}>
            <Table.Td fw={700}>{line.quantity} ×</Table.Td>
            <Table.Td>
              <Text fw={600}>{line.name}</Text>
              {line.size ? (
                <Text size="sm">
                  {t("food_orders.size")}: {line.size}
                </Text>
              ) : null}
              {line.addOns.length ? (
                <Text size="sm">
                  {t("food_orders.add_ons")}: {line.addOns.join("، ")}
                </Text>
              ) : null}
              {line.options.map((option) => (
                <Text size="sm" key={option}>
                  {option}
                </Text>
              ))}
              {line.instructions ? (
                <Text size="sm" fs="italic">
                  {t("food_orders.instructions")}: {line.instructions}
                </Text>
              ) : null}
            </Table.Td>
            {prices ? <Table.Td style={{ whiteSpace: "nowrap" }}>{line.total}</Table.Td> : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The order's customer, delivery, branch, totals and payment. */
export function OrderSummary({ order, qrImage, qr }: { order: OrderView; qrImage?: string; qr?: string }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t("food_orders.status")}>{t(`food_orders.statuses.${order.status}`)}</Field>
          <Field label={t("food_orders.delivery_type")}>{t(`food_orders.delivery_types.${order.deliveryType}`)}</Field>
          <Field label={t("food_orders.branch")}>{order.branch}</Field>
          <Field label={t("food_orders.created")}>{order.created}</Field>
          <Field label={t("food_orders.scheduled_for")}>{order.scheduledFor ?? t("food_orders.asap")}</Field>
          <Field label={t("food_orders.number")}>
            <span dir="ltr">{order.orderNo}</span>
          </Field>
        </SimpleGrid>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} fz="h4" mb="sm">
            {t("food_orders.customer")}
          </Title>
          <Field label={t("food_orders.customer_name")}>{order.customer.name}</Field>
          <Field label={t("food_orders.customer_phone")}>
            <span dir="ltr">{order.customer.phone}</span>
          </Field>
          {order.customer.email ? <Field label={t("food_orders.customer_email")}>{order.customer.email}</Field> : null}
          {order.area ? <Field label={t("food_orders.area")}>{order.area}</Field> : null}
          {order.address.map((line) => (
            <Field key={line.name} label={t(`food_orders.address.${line.name}`, { defaultValue: line.name })}>
              {line.value}
            </Field>
          ))}
          {order.mapUrl ? (
            <Anchor href={order.mapUrl} target="_blank" rel="noopener noreferrer">
              {t("food_orders.open_map")}
            </Anchor>
          ) : null}
        </Card>
        <Card withBorder>
          <Title order={2} fz="h4" mb="sm">
            {t("food_orders.payment")}
          </Title>
          <Field label={t("food_orders.gateway")}>{order.payment.gateway}</Field>
          {order.payment.transactionId ? (
            <Field label={t("food_orders.transaction")}>
              <span dir="ltr">{order.payment.transactionId}</span>
            </Field>
          ) : null}
          {order.payment.state ? (
            <Field label={t("food_orders.payment_state")}>
              {t(`states.${order.payment.state}`, { defaultValue: order.payment.state })}
            </Field>
          ) : null}
          <Divider my="sm" />
          <Totals order={order} />
          {qrImage ? (
            <Group justify="center" mt="md">
              <Stack gap={4} align="center">
                <Image src={qrImage} alt={t("food_orders.qr_alt", { orderNo: order.orderNo })} w={160} h={160} />
                {qr ? (
                  <Text size="xs" c="dimmed" dir="ltr" data-testid="order-qr-code">
                    {qr}
                  </Text>
                ) : null}
              </Stack>
            </Group>
          ) : null}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

export function Totals({ order }: { order: OrderView }) {
  const { t } = useTranslation();
  const row = (label: string, value: string | null, bold = false) =>
    value === null ? null : (
      <Group justify="space-between" key={label}>
        <Text fw={bold ? 700 : undefined}>{label}</Text>
        <Text fw={bold ? 700 : undefined}>{value}</Text>
      </Group>
    );
  return (
    <Stack gap={2}>
      {row(t("food_orders.subtotal"), order.totals.subtotal)}
      {row(
        order.voucher ? t("food_orders.discount_voucher", { code: order.voucher }) : t("food_orders.discount"),
        order.totals.discount ? `− ${order.totals.discount}` : null,
      )}
      {row(t("food_orders.delivery_charge"), order.totals.deliveryCharge)}
      {row(t("food_orders.service_charge"), order.totals.serviceCharge)}
      {row(t("food_orders.total"), order.totals.total, true)}
    </Stack>
  );
}
