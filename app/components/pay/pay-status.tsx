import { Anchor, Card, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

type Status = "not_found" | "paused" | "expired" | "settled" | "closed" | "payable";

const texts: Record<Exclude<Status, "payable">, { title: string; message?: string }> = {
  not_found: { title: "pay.not_found", message: "pay.not_found_message" },
  paused: { title: "pay.paused" },
  expired: { title: "pay.expired" },
  settled: { title: "pay.settled_title", message: "pay.settled_message" },
  closed: { title: "pay.closed_title", message: "pay.closed_message" },
};

/** Every state of a pay link in which there is nothing to pay. */
export function PayStatus({ status, settledLink }: { status: Status; settledLink: string | null }) {
  const { t } = useTranslation();
  if (status === "payable") return null;
  const text = texts[status];
  return (
    <Card withBorder padding="xl">
      <Stack align="center" ta="center" gap="sm">
        {status === "not_found" ? <img src="/illustrations/not-found.svg" alt="" width={160} height={120} /> : null}
        <Title order={1} fz="h3">{t(text.title)}</Title>
        {text.message ? <Text c="dimmed">{t(text.message)}</Text> : null}
        {settledLink ? <Anchor href={settledLink}>{t("pay.view_receipt")}</Anchor> : null}
      </Stack>
    </Card>
  );
}
