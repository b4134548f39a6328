import { Stack, Table, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Callout } from "~/components/callout";

export type ScanResultPlace = {
  qr_number: string;
  customer_first_name: string;
  customer_last_name: string;
  slot: string;
  ticket: string;
};
export type ScanResultView = {
  ok: boolean;
  message: string;
  place?: ScanResultPlace | null;
  note?: string;
  /** A ticket of another date that this user may let in anyway: the code to send again. */
  admitAnyway?: string;
};

/** A scan's answer: 'QR code is valid. Access granted' with the place, or the reason it was refused (and what staff may do about it). */
export function ScanResult({ result, children }: { result: ScanResultView; children?: ReactNode }) {
  const { t } = useTranslation();
  const { place } = result;
  return (
    <Stack gap="sm" data-testid="scan-result" data-ok={result.ok ? "true" : "false"}>
      <Callout color={result.ok ? "green" : "red"} role={result.ok ? "status" : "alert"}>
        <Text fw={700}>{result.message}</Text>
        {result.note ? <Text size="sm">{result.note}</Text> : null}
      </Callout>
      {place ? (
        <Table withRowBorders={false} verticalSpacing={4}>
          <Table.Tbody>
            <Row label={t("checkin.qr_number")} value={place.qr_number} ltr />
            <Row
              label={t("checkin.customer")}
              value={`${place.customer_first_name} ${place.customer_last_name}`.trim() || "—"}
            />
            <Row label={t("checkin.slot")} value={place.slot} ltr />
            <Row label={t("checkin.ticket")} value={place.ticket} />
          </Table.Tbody>
        </Table>
      ) : null}
      {children}
    </Stack>
  );
}

function Row({ label, value, ltr }: { label: string; value: string; ltr?: boolean }) {
  return (
    <Table.Tr>
      <Table.Th w={140} fw={600}>
        {label}
      </Table.Th>
      <Table.Td dir={ltr ? "ltr" : undefined} style={ltr ? { textAlign: "start" } : undefined}>
        {value}
      </Table.Td>
    </Table.Tr>
  );
}
